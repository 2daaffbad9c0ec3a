#!/usr/bin/env bash
# Build the MinGW-w64 (Windows x86_64) dependencies of vkboids into PREFIX, static,
# each with a CMake package config, for cmake/mingw-w64.cmake (CMAKE_FIND_ROOT_PATH=PREFIX).
#
#   apt-get install -y --no-install-recommends $(cat tools/windows/packages.txt)   # as root, once
#   tools/windows/deps.sh [PREFIX]          # default: build/mingw-deps in the repository
#
# Header-only libraries and volk come from Debian's packages (ports/base says what each becomes);
# GoogleTest from /usr/src/googletest; GLFW and ImGui from Debian's newest suites (unstable, then
# testing, then trixie: the first whose source package the mirror serves), so that CI builds the
# Windows program against the generation vcpkg gives Windows users (ImGui 1.92, GLFW 3.4 and later)
# while the Linux build keeps Debian 12's ImGui 1.86 and GLFW 3.3.8: both ends are tested. Their
# versions are not pinned but printed; one that breaks the build breaks it for vcpkg's users too.
#
# libshaderc (the running program's GLSL compiler) is built with glslang and SPIRV-Tools from the
# upstream tarballs of Debian's source packages shaderc, glslang, spirv-tools and spirv-headers, all four
# from one suite (the first of the list above that serves them all: Debian builds each suite's shaderc
# against that suite's glslang and SPIRV-Tools, so they fit together). ports/shaderc installs
# shaderc_combined as vcpkg's unofficial-shaderc package.
#
# Idempotent, and cached in two parts, because libshaderc alone takes about 16 CPU-minutes:
#   PREFIX                      headers, volk, GLFW, Dear ImGui, GoogleTest
#   PREFIX/unofficial-shaderc   libshaderc; find_package looks in PREFIX/<name>*/share/<name>*/ too
# Each part's stamp holds a hash of what makes it: the functions that build it (as bash lists them,
# without comments), the settings they read, the toolchain file and its ports. A part whose hash
# changed is wiped and rebuilt, the other is left alone; when both match nothing is done. PREFIX
# itself is wiped only where PREFIX/.vkboids-deps says deps.sh made it.
# Logs go to PREFIX/.work/logs. Needs the network only for `apt-get source` (deb.debian.org,
# or VKBOIDS_DEBIAN_MIRROR), through a private apt configuration under PREFIX/.work/apt: the
# system's apt sources and state are left alone. Installs no packages itself. Builds run under
# nice -n 19 with VKBOIDS_JOBS jobs (default: nproc).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
toolchain=$root/cmake/mingw-w64.cmake
prefix=${1:-$root/build/mingw-deps}
mirror=${VKBOIDS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
suites=(unstable testing trixie)       # newest first
glfw_minimum=3.4
imgui_minimum=19200                   # IMGUI_VERSION_NUM of 1.92.0
shaderc_packages=(shaderc glslang spirv-tools spirv-headers)
jobs=${VKBOIDS_JOBS:-$(nproc)}
sysinc=/usr/include

die() { echo "deps.sh: $*" >&2; exit 1; }
need_pkgs() { die "$* -- install: apt-get install -y --no-install-recommends \$(cat tools/windows/packages.txt)"; }

for tool in cmake ninja x86_64-w64-mingw32-g++-posix x86_64-w64-mingw32-gcc-posix \
            apt-get dpkg-source sha256sum python3; do
  command -v "$tool" >/dev/null || need_pkgs "$tool not found"
done
for h in vulkan/vulkan_core.h vk_video volk.h volk.c glm/glm.hpp CLI/CLI.hpp nlohmann/json.hpp \
         stb/stb_image_write.h; do
  [[ -e $sysinc/$h ]] || need_pkgs "$sysinc/$h not found"
done
[[ -f /usr/src/googletest/CMakeLists.txt ]] || need_pkgs "/usr/src/googletest not found"
[[ -f /usr/share/keyrings/debian-archive-keyring.gpg ]] || need_pkgs "debian-archive-keyring missing"

mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
marker=$prefix/.vkboids-deps
shaderc_dir=$prefix/unofficial-shaderc
work=$prefix/.work
logs=$work/logs

# step NAME COMMAND...: run quietly into $logs/NAME.log; on failure, the log's end.
step() {
  local name=$1; shift
  echo "  $name"
  # Not under `if`: there bash would ignore set -e inside the function.
  set +e
  (set -e; "$@") </dev/null >"$logs/$name.log" 2>&1
  local rc=$?
  set -e
  ((rc == 0)) && return 0
  echo "  $name: FAILED, the end of $logs/$name.log:" >&2
  tail -n 40 "$logs/$name.log" >&2
  exit 1
}

cmake_dep() {   # cmake_dep BUILD_DIR SOURCE_DIR INSTALL_DIR [ARGS...]: configure, build, install
  local b=$1 s=$2 i=$3; shift 3
  cmake -S "$s" -B "$b" -G Ninja --no-warn-unused-cli \
        -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DVKBOIDS_MINGW_PREFIX="$prefix" \
        -DCMAKE_INSTALL_PREFIX="$i" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
        -DCMAKE_INSTALL_LIBDIR=lib "$@"
  nice -n 19 cmake --build "$b" -j "$jobs"
  cmake --install "$b"
}

headers() {   # PREFIX/include: symlinks to Debian's header-only libraries, never all of /usr/include
  local inc=$prefix/include h
  mkdir -p "$inc" "$prefix/share/vulkan"
  for h in vulkan vk_video volk.h volk.c glm CLI nlohmann stb; do
    ln -s "$sysinc/$h" "$inc/$h"
  done
  for h in "$sysinc"/stb/*.h; do              # vcpkg's layout: include/stb_image_write.h
    ln -s "$h" "$inc/$(basename "$h")"
  done
  [[ -d /usr/share/vulkan/registry ]] && ln -s /usr/share/vulkan/registry "$prefix/share/vulkan/registry"
  ls -l "$inc"
}

# A private apt configuration: deb-src lines for the suites, the state and cache under $work/apt.
apt_setup() {
  local apt=$work/apt suite
  mkdir -p "$apt"/{etc/apt.conf.d,etc/preferences.d,etc/sources.list.d,lists/partial,cache/archives/partial}
  for suite in "${suites[@]}"; do
    echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main"
  done >"$apt/etc/sources.list"
  # Signatures are checked as always. A mirror that keeps a snapshot of unstable serves its Release
  # file past the Valid-Until date, and apt would refuse it; what it lists is still signed by Debian.
  cat >"$apt/apt.conf" <<EOF
Dir::Etc "$apt/etc";
Dir::Etc::sourcelist "$apt/etc/sources.list";
Dir::Etc::sourceparts "$apt/etc/sources.list.d";
Dir::Etc::preferences "$apt/etc/preferences";
Dir::Etc::preferencesparts "$apt/etc/preferences.d";
Dir::State "$apt";
Dir::State::lists "$apt/lists";
Dir::Cache "$apt/cache";
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
APT::Sandbox::User "root";
Acquire::Check-Valid-Until "false";
Acquire::IndexTargets::deb-src::Sources::KeepCompressed "false";
EOF
  # A suite the mirror lacks fails the update, not the others: the fetches move past it.
  apt_get -q update || echo "apt-get update failed for some suite; trying those it fetched"
}
apt_get() { APT_CONFIG=$work/apt/apt.conf apt-get "$@"; }

# --- the base part: PREFIX ------------------------------------------------------------------

base_sources() {   # the newest source packages of glfw3 and imgui, each from the first suite that serves it
  local package suite
  for package in glfw3 imgui; do
    for suite in "${suites[@]}" none; do
      [[ $suite == none ]] && { echo "no suite's $package source could be fetched"; return 1; }
      (cd "$work/src" && apt_get -q source "$package/$suite") && break
      echo "$package/$suite could not be fetched; trying the next suite"
      rm -rf "$work/src/$package"[-_]*
    done
    echo "$package/$suite" >"$work/src/$package.suite"
  done
}

# The unpacked sources' folders and versions, checked against the minimums.
base_found() {
  glfw_dir=$(ls -d "$work/src"/glfw3-*/ | head -n 1)
  imgui_dir=$(ls -d "$work/src"/imgui-*/ | head -n 1)
  local major minor
  major=$(sed -n 's/^#define GLFW_VERSION_MAJOR *\([0-9]*\).*/\1/p' "$glfw_dir/include/GLFW/glfw3.h")
  minor=$(sed -n 's/^#define GLFW_VERSION_MINOR *\([0-9]*\).*/\1/p' "$glfw_dir/include/GLFW/glfw3.h")
  glfw_version=$major.$minor.$(sed -n 's/^#define GLFW_VERSION_REVISION *\([0-9]*\).*/\1/p' "$glfw_dir/include/GLFW/glfw3.h")
  imgui_version=$(sed -n 's/^#define IMGUI_VERSION  *"\([^"]*\)".*/\1/p' "$imgui_dir/imgui.h")
  local imgui_num
  imgui_num=$(sed -n 's/^#define IMGUI_VERSION_NUM *\([0-9]*\).*/\1/p' "$imgui_dir/imgui.h")
  echo "  GLFW $glfw_version ($(cat "$work/src/glfw3.suite")), Dear ImGui $imgui_version ($(cat "$work/src/imgui.suite"))"
  printf '%s\n%s\n' "$glfw_minimum" "$major.$minor" | sort -C -V ||
    die "GLFW $glfw_version is older than $glfw_minimum: the Windows build tests what vcpkg gives"
  ((imgui_num >= imgui_minimum)) || die "Dear ImGui $imgui_version is older than 1.92"
}

build_base() {
  step headers headers
  step base-source base_sources
  base_found
  step base   cmake_dep "$work/build/base" "$here/ports/base" "$prefix"
  step glfw   cmake_dep "$work/build/glfw" "$glfw_dir" "$prefix" \
              -DGLFW_BUILD_EXAMPLES=OFF -DGLFW_BUILD_TESTS=OFF -DGLFW_BUILD_DOCS=OFF -DGLFW_INSTALL=ON
  step imgui  cmake_dep "$work/build/imgui" "$here/ports/imgui" "$prefix" -DIMGUI_SOURCE_DIR="$imgui_dir"
  step gtest  cmake_dep "$work/build/gtest" /usr/src/googletest "$prefix" \
              -DBUILD_GMOCK=OFF -DINSTALL_GTEST=ON -Dgtest_build_tests=OFF -Dgtest_build_samples=OFF
  echo "GLFW $glfw_version, Dear ImGui $imgui_version" >"$prefix/.vkboids-deps-versions"
}

# --- the shaderc part: PREFIX/unofficial-shaderc ------------------------------------------

# The upstream tarballs (.orig) of the four source packages, all from the first suite that serves every
# one, each unpacked into $work/src/shaderc/PACKAGE. Only the tarballs: Debian's patches make shaderc
# build against the system's glslang and SPIRV-Tools, and here they are built beside it instead.
shaderc_sources() {
  local src=$work/src/shaderc suite package tarball missing
  for suite in "${suites[@]}" none; do
    [[ $suite == none ]] && { echo "no suite serves all of ${shaderc_packages[*]}"; return 1; }
    rm -rf "$src"
    mkdir -p "$src"
    missing=""
    for package in "${shaderc_packages[@]}"; do
      (cd "$src" && apt_get -q source --tar-only "$package/$suite") || missing+=" $package"
    done
    [[ -z $missing ]] && break
    echo "$suite: could not fetch$missing; trying the next suite"
  done
  echo "$suite" >"$src/suite"
  for package in "${shaderc_packages[@]}"; do
    tarball=$(ls "$src/$package"_*.orig.tar.*)
    mkdir "$src/$package"
    tar -xf "$tarball" -C "$src/$package" --strip-components=1
  done
}

build_shaderc() {
  local src=$work/src/shaderc package tarball versions=""
  step shaderc-source shaderc_sources
  for package in "${shaderc_packages[@]}"; do   # the version is in the tarball's name
    tarball=$(basename "$(ls "$src/$package"_*.orig.tar.*)")
    tarball=${tarball#"${package}_"}
    versions+="${versions:+, }$package ${tarball%.orig.tar.*}"
  done
  versions+=" ($(cat "$src/suite"))"
  echo "  $versions"
  step shaderc cmake_dep "$work/build/shaderc" "$here/ports/shaderc" "$shaderc_dir" \
               -DSHADERC_SOURCE_DIR="$src/shaderc" -DGLSLANG_SOURCE_DIR="$src/glslang" \
               -DSPIRV_TOOLS_SOURCE_DIR="$src/spirv-tools" -DSPIRV_HEADERS_SOURCE_DIR="$src/spirv-headers"
  echo "$versions" >"$shaderc_dir/.vkboids-deps-versions"
}

# --- what each part is made of, and the run ---------------------------------------------------

# part_hash NAMES... -- FILES...: a hash of the named functions (as bash lists them) and settings,
# and of the files (paths in the repository).
part_hash() {
  { while [[ $1 != -- ]]; do
      declare -f "$1" || declare -p "$1" || die "part_hash: $1 is neither a function nor a setting"
      shift
    done
    shift
    (cd "$root" && sha256sum "$@"); } | sha256sum | cut -d' ' -f1
}
files_in() { (cd "$root" && find "$@" -type f | LC_ALL=C sort); }
base_hash=$(part_hash step cmake_dep apt_setup apt_get headers base_sources base_found build_base \
            suites glfw_minimum imgui_minimum -- \
            cmake/mingw-w64.cmake $(files_in tools/windows/ports/base tools/windows/ports/imgui))
shaderc_hash=$(part_hash step cmake_dep apt_setup apt_get shaderc_sources build_shaderc \
               suites shaderc_packages -- \
               cmake/mingw-w64.cmake $(files_in tools/windows/ports/shaderc))
base_stamp=$prefix/.vkboids-deps-stamp
shaderc_stamp=$shaderc_dir/.vkboids-deps-stamp
stale() { [[ ! -f $1 || $(cat "$1") != "$2" ]]; }

if stale "$base_stamp" "$base_hash" || stale "$shaderc_stamp" "$shaderc_hash"; then
  if [[ -n $(ls -A "$prefix") && ! -e $marker ]]; then
    die "$prefix is not empty and was not made by deps.sh; refusing to wipe it"
  fi
  touch "$marker"
  echo "mingw deps -> $prefix (logs: $logs)"
  # What an older script or a failed run left is removed; the logs are kept until overwritten.
  rm -rf "$work/src" "$work/build" "$work/apt"
  mkdir -p "$logs" "$work/src" "$work/build"
  step apt-update apt_setup
  if stale "$base_stamp" "$base_hash"; then
    echo " base part"
    find "$prefix" -mindepth 1 -maxdepth 1 ! -name "$(basename "$marker")" ! -name .work \
         ! -name "$(basename "$shaderc_dir")" -exec rm -rf {} +
    build_base
    echo "$base_hash" >"$base_stamp"
  fi
  if stale "$shaderc_stamp" "$shaderc_hash"; then
    echo " shaderc part (about 16 CPU-minutes)"
    rm -rf "$shaderc_dir"
    build_shaderc
    echo "$shaderc_hash" >"$shaderc_stamp"
  fi
  # Keep the logs, drop the sources and build trees.
  rm -rf "$work/src" "$work/build" "$work/apt"
  echo "mingw deps: done"
fi
echo "$(cat "$prefix/.vkboids-deps-versions"); $(cat "$shaderc_dir/.vkboids-deps-versions")" >"$prefix/versions.txt"
echo "mingw deps in $prefix: $(cat "$prefix/versions.txt")"
