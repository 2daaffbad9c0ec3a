# Set a shell up for running the MinGW build's .exe files under Wine (on lavapipe).
#
#   source tools/windows/wine-start.sh       # bash: exports into this shell
#   tools/windows/wine-start.sh --stop        # kill the wineserver (and the Xvfb this script started)
#
# Needs Debian's wine64, wine and wine64-preloader (tools/windows/packages.txt; _vkb_wine_check says
# why the preloader). Exports WINEPREFIX (default: build/wine in the repository; an exported
# WINEPREFIX is kept), WINEDEBUG=-all and WINEDLLOVERRIDES (no Mono/Gecko install prompts, no menu
# entries) where not set already; creates the prefix once and starts a persistent wineserver with
# Wine's services, their output to /dev/null. Without that every wine run waits ~3 s for the
# services, and a run that starts them itself leaves them holding its stdout: ctest and
# gtest_discover_tests then wait on the pipe for ever.
# Vulkan under Wine (winevulkan -> the host loader -> lavapipe) needs an X server: when DISPLAY
# is unset this starts `Xvfb :N -screen 0 1280x1024x24` on a free display and exports DISPLAY
# (and VKBOIDS_XVFB_PID).
#
# With a display it also keeps Wine's desktop up (tools/windows/desktop-pin.c): otherwise the
# first program to need it starts explorer.exe, holding that program's stdout.
#
# `tools/windows/wine-start.sh --server-only` (what wine-run calls before each program) does
# only the prefix, the wineserver and the desktop, under a lock beside the prefix, and prints
# nothing.

_vkb_wine64=/usr/lib/wine/wine64
_vkb_wineserver=/usr/lib/wine/wineserver
_vkb_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

_vkb_wine_defaults() {
  local root
  root=$(cd "$_vkb_here/../.." && pwd) || return 1
  export WINEPREFIX="${WINEPREFIX:-$root/build/wine}"
  export WINEDEBUG="${WINEDEBUG:--all}"
  export WINEDLLOVERRIDES="${WINEDLLOVERRIDES:-mscoree,mshtml=;winemenubuilder.exe=d}"
}

_vkb_wine_check() {
  if [[ ! -x $_vkb_wine64 ]]; then
    echo "wine-start: $_vkb_wine64 not found (apt-get install wine64 wine)" >&2
    return 1
  fi
  # Without the preloader Wine claims its fixed addresses only once the C library is up, and now and
  # then a start finds the heap, which the kernel places at random, on KUSER_SHARED_DATA
  # (0x7ffe0000): the .exe then ends with status 1 before its main, silently under WINEDEBUG=-all.
  if [[ ! -x ${_vkb_wine64}-preloader ]]; then
    echo "wine-start: ${_vkb_wine64}-preloader not found (apt-get install wine64-preloader)" >&2
    return 1
  fi
}

# The prefix (once) and a persistent wineserver with the services. Callers hold the lock.
_vkb_wine_server() {
  # .update-timestamp is Wine's own mark of a finished wineboot (the time of wine.inf);
  # missing or stale (Wine upgraded), the next wine would run wineboot itself, inside the
  # caller's program.
  local stamp="" inf=""
  [[ -f $WINEPREFIX/.update-timestamp ]] && stamp=$(tr -dc 0-9 <"$WINEPREFIX/.update-timestamp")   # "N\r\n"
  [[ -f /usr/share/wine/wine.inf ]] && inf=$(stat -c %Y /usr/share/wine/wine.inf)
  if [[ ! -f $WINEPREFIX/system.reg || -z $stamp || ( -n $inf && $stamp != "$inf" ) ]]; then
    local how=-i
    [[ -f $WINEPREFIX/system.reg ]] && how=-u
    # A wineserver still up (an older Wine's, or a persistent one) would make -w wait for ever.
    "$_vkb_wineserver" -k </dev/null >/dev/null 2>&1
    "$_vkb_wine64" wineboot "$how" </dev/null >/dev/null 2>&1
    "$_vkb_wineserver" -w </dev/null >/dev/null 2>&1
    if [[ ! -f $WINEPREFIX/.update-timestamp ]]; then
      echo "wine-start: wineboot $how did not make the prefix $WINEPREFIX" >&2
      return 1
    fi
  fi
  # -p: stay up with no clients. Exit status 2: a wineserver already holds this prefix.
  local rc=0
  "$_vkb_wineserver" -p </dev/null >/dev/null 2>&1 || rc=$?
  case $rc in
    0) "$_vkb_wine64" wineboot </dev/null >/dev/null 2>&1 ;;    # the services, started now
    2) ;;
    *) echo "wine-start: wineserver -p failed ($rc)" >&2; return 1 ;;
  esac
  _vkb_wine_pin
}

# The desktop pin (desktop-pin.c says why), where there is a display: built into the prefix,
# started in a session of its own with its output in a file, waited for until it says the desktop
# is up, and started again whenever it is not running. Callers hold the lock.
_vkb_wine_pin() {
  [[ -n ${DISPLAY:-} ]] || return 0
  local exe=$WINEPREFIX/desktop-pin.exe out=$WINEPREFIX/desktop-pin.out
  local pidfile=$WINEPREFIX/desktop-pin.pid pid="" i
  [[ -f $pidfile ]] && pid=$(<"$pidfile")
  [[ -n $pid ]] && grep -qsa 'desktop-pin\.exe' "/proc/$pid/cmdline" && return 0
  rm -f "$pidfile"
  if [[ ! -x $exe || $_vkb_here/desktop-pin.c -nt $exe ]]; then
    x86_64-w64-mingw32-gcc-posix -O2 -mwindows -s -o "$exe" "$_vkb_here/desktop-pin.c" >"$out" 2>&1 ||
      { echo "wine-start: could not build $exe (x86_64-w64-mingw32-gcc-posix: $out)" >&2; return 1; }
  fi
  setsid "$_vkb_wine64" "$exe" </dev/null >"$out" 2>&1 &
  pid=$!
  disown "$pid" 2>/dev/null
  for ((i = 0; i < 300; i++)); do
    if grep -qsx ready "$out"; then
      echo "$pid" >"$pidfile"
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill "$pid" 2>/dev/null
  echo "wine-start: Wine's desktop did not start on display $DISPLAY ($out)" >&2
  return 1
}

# Under the lock; flock -o keeps the lock's descriptor out of the daemons started here.
_vkb_wine_server_locked() {
  mkdir -p "$(dirname "$WINEPREFIX")" || return 1
  flock -o "${WINEPREFIX%/}.lock" bash "$_vkb_here/wine-start.sh" --server-only-unlocked
}

_vkb_xvfb() {
  [[ -n ${DISPLAY:-} ]] && return 0
  if ! command -v Xvfb >/dev/null; then
    echo "wine-start: DISPLAY is unset and Xvfb is missing (apt-get install xvfb xauth)" >&2
    return 1
  fi
  local f n i
  f=$(mktemp) || return 1
  # -displayfd: Xvfb picks a free display and writes its number once it accepts connections.
  local pid
  Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$f" </dev/null >/dev/null 2>&1 &
  pid=$!
  disown "$pid" 2>/dev/null   # not this shell's job: no SIGHUP from it on exit
  for ((i = 0; i < 100; i++)); do
    n=$(tr -dc 0-9 <"$f")
    [[ -n $n ]] && break
    sleep 0.1
  done
  rm -f "$f"
  if [[ -z $n ]]; then
    echo "wine-start: Xvfb did not start" >&2
    kill "$pid" 2>/dev/null
    return 1
  fi
  export DISPLAY=":$n" VKBOIDS_XVFB_PID=$pid
}

_vkb_wine_stop() {
  "$_vkb_wineserver" -k </dev/null >/dev/null 2>&1
  if [[ -n ${VKBOIDS_XVFB_PID:-} ]]; then
    kill "$VKBOIDS_XVFB_PID" 2>/dev/null
  fi
  return 0
}

if [[ ${BASH_SOURCE[0]} != "$0" ]]; then
  # sourced
  _vkb_wine_defaults && _vkb_wine_check && _vkb_xvfb && _vkb_wine_server_locked
else
  case ${1:-} in
    --server-only-unlocked) _vkb_wine_defaults && _vkb_wine_server ;;
    --server-only) _vkb_wine_defaults && _vkb_wine_check && _vkb_wine_server_locked ;;
    --stop) _vkb_wine_defaults && _vkb_wine_stop ;;
    *) echo "usage: source ${BASH_SOURCE[0]} | ${BASH_SOURCE[0]} --stop" >&2; exit 2 ;;
  esac
fi
