# opencpn_drive.sh, sourced by the viewer tests' OpenCPN scripts (after
# xstart.sh): OpenCPN started and driven until the caller's step says done.
#
#   ocpn_drive SECONDS STARTS LOG STEP [OPENCPN ARGS...]
#
# starts `opencpn ARGS` (its output appended to LOG, its pid in $op, how many
# times it was started in $starts) and,
# when it ends, starts it again, STARTS times in all at most (OpenCPN now and
# then ends just after its start on a busy machine, before it writes its log).
# Each round answers the welcome dialog of a first start if it is there (it is
# modal, may come up late, and swallows every other press until answered);
# otherwise it runs the caller's function STEP, which returns 0 once done.
# Returns 0 when STEP did, 1 when SECONDS or the starts ran out.
#
#   ocpn_grib_bar
#
# the STEP of the GRIB plugin's tests: presses the GRIB tool (the toolbar's
# last, at 27,347 of the 1024x700 screen) and waits up to 10 s for the
# plugin's control bar, a window titled with the file's name ("File:
# voyage..."), which it names in $bar. A press that landed shows it within
# 10 s; a welcome dialog that came up meanwhile ends the wait early.

ocpn_welcome() { # answers the welcome dialog; 0 when it was there
  local w
  w=$(xdotool search --name '^Welcome to OpenCPN' 2>/dev/null | head -1)
  [ -n "$w" ] || return 1
  xdotool windowactivate --sync "$w" key --clearmodifiers Return >/dev/null 2>&1 ||
    xdotool key --clearmodifiers Return >/dev/null 2>&1
  sleep 0.5
}

ocpn_drive() {
  local secs=$1 max=$2 log=$3 step=$4 t0=$SECONDS
  shift 4
  op= starts=0
  while [ $((SECONDS - t0)) -lt "$secs" ]; do
    if [ -z "$op" ] || ! kill -0 "$op" 2>/dev/null; then
      [ "$starts" -ge "$max" ] && return 1
      opencpn "$@" >>"$log" 2>&1 &
      op=$!
      starts=$((starts + 1))
    fi
    ocpn_welcome && continue
    kill -0 "$op" 2>/dev/null || continue
    "$step" && return 0
    sleep 0.1
  done
  return 1
}

ocpn_grib_bar() {
  bar=
  xdotool mousemove 27 347 click 1 >/dev/null 2>&1
  for _ in $(seq 100); do
    bar=$(xdotool search --name '^File: voyage\.' 2>/dev/null | head -1)
    [ -n "$bar" ] && return 0
    xdotool search --name '^Welcome to OpenCPN' >/dev/null 2>&1 && return 1
    sleep 0.1
  done
  return 1
}
