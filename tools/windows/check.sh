#!/usr/bin/env bash
# The Windows build as CI checks it on Debian 12, as root: cross-compiled by MinGW-w64 and run under
# Wine on lavapipe inside Xvfb. Installs its packages, builds the dependencies (deps.sh, which needs
# Debian's source packages) and the `mingw` preset, then runs all its tests (`ctest --preset mingw`,
# validation on through the host's loader): the unit and GPU tests, and windows_matches_linux
# (tests/windows_test.py), which runs a step, a bench, bad input and the demo's window beside the
# Linux build's (built first, by the README's commands).
#
#   bash tools/windows/check.sh [LINUX_VKBOIDS]     (default: build/release/vkboids)
set -euo pipefail
cd "$(dirname "$0")/../.."
linux=${1:-build/release/vkboids}
[[ -x $linux ]] || { echo "check.sh: no Linux build at $linux (cmake --preset release first)" >&2; exit 2; }
export DEBIAN_FRONTEND=noninteractive
apt-get update >/dev/null
apt-get install -y --no-install-recommends $(cat tools/windows/packages.txt) >/dev/null
tools/windows/deps.sh
unset DISPLAY # a fresh Xvfb of our own
source tools/windows/wine-start.sh
trap 'bash tools/windows/wine-start.sh --stop >/dev/null 2>&1 || true' EXIT
cmake --preset mingw -DVKBOIDS_LINUX_BINARY="$(realpath "$linux")" >/dev/null
cmake --build --preset mingw
ctest --preset mingw -N -L windows | grep -q "Total Tests: 1" ||
    { echo "check.sh: the mingw build has no windows_matches_linux test" >&2; exit 1; }
ctest --preset mingw
