# Cross-compile for 64-bit Windows with Debian's MinGW-w64 (posix thread model), run under Wine.
#
#   tools/windows/deps.sh                       # once: static deps into build/mingw-deps
#   source tools/windows/wine-start.sh          # WINEPREFIX, wineserver, Xvfb if no DISPLAY
#   cmake --preset mingw && cmake --build --preset mingw && ctest --preset mingw
#
# Libraries, headers and CMake packages come only from VKBOIDS_MINGW_PREFIX (the compiler knows its
# own sysroot), never from the host's; programs (glslc, spirv-val, pkg-config) come from the host.
# The MinGW runtime (libgcc, libstdc++, winpthread) is linked statically, so an .exe runs under
# Wine with no DLLs copied next to it.

set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(VKBOIDS_MINGW_TRIPLE x86_64-w64-mingw32)
# The -posix drivers: the win32 thread model has no std::thread / std::mutex.
set(CMAKE_C_COMPILER   ${VKBOIDS_MINGW_TRIPLE}-gcc-posix)
set(CMAKE_CXX_COMPILER ${VKBOIDS_MINGW_TRIPLE}-g++-posix)
set(CMAKE_RC_COMPILER  ${VKBOIDS_MINGW_TRIPLE}-windres)

# Where tools/windows/deps.sh installed the dependencies. An environment variable of the
# same name, then the cache, then the repository's build/mingw-deps.
if(DEFINED ENV{VKBOIDS_MINGW_PREFIX} AND NOT "$ENV{VKBOIDS_MINGW_PREFIX}" STREQUAL "")
  set(_vkboids_prefix_default "$ENV{VKBOIDS_MINGW_PREFIX}")
else()
  set(_vkboids_prefix_default "${CMAKE_CURRENT_LIST_DIR}/../build/mingw-deps")
endif()
cmake_path(ABSOLUTE_PATH _vkboids_prefix_default NORMALIZE)
set(VKBOIDS_MINGW_PREFIX "${_vkboids_prefix_default}" CACHE PATH
    "Prefix holding the MinGW builds of the dependencies (tools/windows/deps.sh)")
set(_vkboids_prefix "${VKBOIDS_MINGW_PREFIX}")
cmake_path(ABSOLUTE_PATH _vkboids_prefix NORMALIZE)
string(REGEX REPLACE "/$" "" _vkboids_prefix "${_vkboids_prefix}")
# try_compile projects read this file again: hand them the chosen prefix.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES VKBOIDS_MINGW_PREFIX)

set(CMAKE_FIND_ROOT_PATH "${_vkboids_prefix}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)   # glslc, spirv-val, pkg-config: host tools
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config (the host's program) sees only the prefix's .pc files, never /usr/lib/pkgconfig.
set(ENV{PKG_CONFIG_LIBDIR} "${_vkboids_prefix}/lib/pkgconfig:${_vkboids_prefix}/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
unset(ENV{PKG_CONFIG_SYSROOT_DIR})

# Test executables (gtest_discover_tests, add_test, try_run) run through Wine.
set(_vkboids_wine_run "${CMAKE_CURRENT_LIST_DIR}/../tools/windows/wine-run")
cmake_path(NORMAL_PATH _vkboids_wine_run)
set(CMAKE_CROSSCOMPILING_EMULATOR "${_vkboids_wine_run}")

# Static MinGW runtime. -static on executables also takes libwinpthread-1 statically;
# DLLs take winpthread's archive explicitly.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static-libgcc -static-libstdc++ -static")
set(CMAKE_SHARED_LINKER_FLAGS_INIT
    "-static-libgcc -static-libstdc++ -Wl,-Bstatic,--whole-archive -lwinpthread -Wl,--no-whole-archive,-Bdynamic")
set(CMAKE_MODULE_LINKER_FLAGS_INIT "${CMAKE_SHARED_LINKER_FLAGS_INIT}")
