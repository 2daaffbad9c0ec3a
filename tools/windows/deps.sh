#!/usr/bin/env bash
# Build the MinGW-w64 (Windows x86_64) dependencies of vkboids into PREFIX, static,
# each with a CMake package config, for cmake/mingw-w64.cmake (CMAKE_FIND_ROOT_PATH=PREFIX).
#
#   apt-get install -y --no-install-recommends $(cat tools/windows/packages.txt)   # as root, once
#   tools/windows/deps.sh [PREFIX]          # default: build/mingw-deps in the repository
#
#   VulkanHeaders   Vulkan::Headers            Debian's headers (symlinked into PREFIX/include)
#   volk            volk::volk                 static, from Debian's volk.c
#   glm             glm::glm                   Debian's headers
#   CLI11           CLI11::CLI11               Debian's headers
#   nlohmann_json   nlohmann_json::nlohmann_json  Debian's headers
#   stb             PREFIX/include/stb_*.h (and include/stb/), header-only as vcpkg has it
#   glfw3           glfw                       GLFW 3.3.8, `apt-get source glfw3` (bookworm)
#   imgui           imgui::imgui               ImGui 1.86 core + GLFW backend, `apt-get source imgui`
#   GTest           GTest::gtest, GTest::gtest_main   /usr/src/googletest (Debian's googletest)
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
suite=bookworm                        # Debian 12: GLFW 3.3.8, ImGui 1.86
glfw_version=3.3.8
imgui_version=1.86
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
  echo "mingw deps: up to date in $prefix"
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

t_all=$(date +%s.%N)
# step NAME COMMAND...: run quietly into $logs/NAME.log, print one line with the time.
step() {
  local name=$1; shift
  local log=$logs/$name.log t0 t1
  t0=$(date +%s.%N)
  local rc=0
  # Not under `if`: there bash would ignore set -e inside the function.
  set +e
  (set -e; "$@") </dev/null >"$log" 2>&1
  rc=$?
  set -e
  if ((rc != 0)); then
    echo "  $name: FAILED, the end of $log:" >&2
    tail -n 40 "$log" >&2
    exit 1
  fi
  t1=$(date +%s.%N)
  awk -v n="$name" -v a="$t0" -v b="$t1" 'BEGIN { printf "  %-10s %6.1fs\n", n, b - a }'
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

sources() {   # apt-get source glfw3 imgui from bookworm, with a private apt configuration
  local apt=$work/apt
  mkdir -p "$apt"/{etc/apt.conf.d,etc/preferences.d,etc/sources.list.d,lists/partial,cache/archives/partial}
  cat >"$apt/etc/sources.list" <<EOF
deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main
deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite-updates main
EOF
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
Acquire::IndexTargets::deb-src::Sources::KeepCompressed "false";
EOF
  export APT_CONFIG=$apt/apt.conf
  apt-get -q update
  (cd "$work/src" && apt-get -q source "glfw3/$suite" "imgui/$suite")
  unset APT_CONFIG
  [[ -f $work/src/glfw3-$glfw_version/CMakeLists.txt ]] || { ls "$work/src"; echo "no GLFW $glfw_version"; return 1; }
  [[ -f $work/src/imgui-$imgui_version+ds/imgui.h ]] || { ls "$work/src"; echo "no ImGui $imgui_version"; return 1; }
  rm -rf "$apt/lists"
}

echo "mingw deps -> $prefix (logs: $logs)"
step headers headers
step apt-source sources
step base   cmake_dep "$work/build/base" "$here/ports/base"
step glfw   cmake_dep "$work/build/glfw" "$work/src/glfw3-$glfw_version" \
            -DGLFW_BUILD_EXAMPLES=OFF -DGLFW_BUILD_TESTS=OFF -DGLFW_BUILD_DOCS=OFF -DGLFW_INSTALL=ON
step imgui  cmake_dep "$work/build/imgui" "$here/ports/imgui" -DIMGUI_SOURCE_DIR="$work/src/imgui-$imgui_version+ds"
step gtest  cmake_dep "$work/build/gtest" /usr/src/googletest \
            -DBUILD_GMOCK=OFF -DINSTALL_GTEST=ON -Dgtest_build_tests=OFF -Dgtest_build_samples=OFF

# Keep the logs, drop the sources and build trees.
rm -rf "$work/src" "$work/build" "$work/apt"
echo "$hash" >"$stamp"
t_end=$(date +%s.%N)
awk -v a="$t_all" -v b="$t_end" 'BEGIN { printf "mingw deps: done in %.1fs\n", b - a }'
