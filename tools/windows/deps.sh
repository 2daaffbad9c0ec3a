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
# Idempotent: PREFIX/.vkboids-deps-stamp holds a hash of this script, the toolchain file and
# tools/windows/ports; when it matches nothing is done, otherwise PREFIX is wiped and rebuilt.
# Logs go to PREFIX/.work/logs. Needs the network only for `apt-get source` (deb.debian.org,
# or VKBOIDS_DEBIAN_MIRROR), through a private apt configuration under PREFIX/.work/apt: the
# system's apt sources and state are left alone. Installs no packages itself.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
toolchain=$root/cmake/mingw-w64.cmake
prefix=${1:-$root/build/mingw-deps}
mirror=${VKBOIDS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
suites=(unstable testing trixie)       # newest first
glfw_minimum=3.4
imgui_minimum=19200                   # IMGUI_VERSION_NUM of 1.92.0
jobs=${VKBOIDS_JOBS:-$(nproc)}
sysinc=/usr/include

die() { echo "deps.sh: $*" >&2; exit 1; }
need_pkgs() { die "$* -- install: apt-get install -y --no-install-recommends \$(cat tools/windows/packages.txt)"; }

for tool in cmake ninja x86_64-w64-mingw32-g++-posix x86_64-w64-mingw32-gcc-posix \
            apt-get dpkg-source sha256sum; do
  command -v "$tool" >/dev/null || need_pkgs "$tool not found"
done
for h in vulkan/vulkan_core.h vk_video volk.h volk.c glm/glm.hpp CLI/CLI.hpp nlohmann/json.hpp \
         stb/stb_image_write.h; do
  [[ -e $sysinc/$h ]] || need_pkgs "$sysinc/$h not found"
done
[[ -f /usr/src/googletest/CMakeLists.txt ]] || need_pkgs "/usr/src/googletest not found"
[[ -f /usr/share/keyrings/debian-archive-keyring.gpg ]] || need_pkgs "debian-archive-keyring missing"

hash=$( (cd "$root" && sha256sum tools/windows/deps.sh cmake/mingw-w64.cmake \
           $(find tools/windows/ports -type f | LC_ALL=C sort)) | sha256sum | cut -d' ' -f1)

mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
stamp=$prefix/.vkboids-deps-stamp
marker=$prefix/.vkboids-deps
if [[ -f $stamp && $(cat "$stamp") == "$hash" ]]; then
  echo "mingw deps: up to date in $prefix: $(cat "$prefix/versions.txt" 2>/dev/null)"
  exit 0
fi
if [[ -n $(ls -A "$prefix") && ! -e $marker ]]; then
  die "$prefix is not empty and was not made by deps.sh; refusing to wipe it"
fi
# A fresh start: what an older script or a failed run left is removed.
find "$prefix" -mindepth 1 -maxdepth 1 -exec rm -rf {} +
touch "$marker"
work=$prefix/.work
logs=$work/logs
mkdir -p "$logs" "$work/src" "$work/build"

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

cmake_dep() {   # cmake_dep BUILD_DIR SOURCE_DIR [ARGS...]: configure, build, install into the prefix
  local b=$1 s=$2; shift 2
  cmake -S "$s" -B "$b" -G Ninja --no-warn-unused-cli \
        -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DVKBOIDS_MINGW_PREFIX="$prefix" \
        -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
        -DCMAKE_INSTALL_LIBDIR=lib "$@"
  cmake --build "$b" -j "$jobs"
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

sources() {   # the newest source packages of glfw3 and imgui, with a private apt configuration
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
  export APT_CONFIG=$apt/apt.conf
  # A suite the mirror lacks fails the update, not the others: the loop below moves past it.
  apt-get -q update || echo "apt-get update failed for some suite; trying those it fetched"
  local package
  for package in glfw3 imgui; do
    for suite in "${suites[@]}" none; do
      [[ $suite == none ]] && { echo "no suite's $package source could be fetched"; return 1; }
      (cd "$work/src" && apt-get -q source "$package/$suite") && break
      echo "$package/$suite could not be fetched; trying the next suite"
      rm -rf "$work/src/$package"[-_]*
    done
    echo "$package/$suite" >"$work/src/$package.suite"
  done
  unset APT_CONFIG
  rm -rf "$apt/lists"
}

# The unpacked sources' folders and versions, checked against the minimums.
found() {
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

echo "mingw deps -> $prefix (logs: $logs)"
step headers headers
step apt-source sources
found
step base   cmake_dep "$work/build/base" "$here/ports/base"
step glfw   cmake_dep "$work/build/glfw" "$glfw_dir" \
            -DGLFW_BUILD_EXAMPLES=OFF -DGLFW_BUILD_TESTS=OFF -DGLFW_BUILD_DOCS=OFF -DGLFW_INSTALL=ON
step imgui  cmake_dep "$work/build/imgui" "$here/ports/imgui" -DIMGUI_SOURCE_DIR="$imgui_dir"
step gtest  cmake_dep "$work/build/gtest" /usr/src/googletest \
            -DBUILD_GMOCK=OFF -DINSTALL_GTEST=ON -Dgtest_build_tests=OFF -Dgtest_build_samples=OFF

# Keep the logs, drop the sources and build trees.
rm -rf "$work/src" "$work/build" "$work/apt"
echo "GLFW $glfw_version, Dear ImGui $imgui_version" >"$prefix/versions.txt"
echo "$hash" >"$stamp"
echo "mingw deps: done"
