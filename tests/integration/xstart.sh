# xstart.sh, sourced by the viewer tests' GUI scripts with $xbase set (a path
# prefix of the caller's own): Xvfb on a display of its own, which it names
# in $xbase.display, answering (xdotool reaches it), as $xp and $DISPLAY, its
# output in $xbase.xvfb.log. On a busy machine a new Xvfb now and then ends
# (or stops answering) just after it names its display: it is started again,
# three times at most. Returns non-zero when none answered.
xp=
for attempt in 1 2 3; do
  rm -f "$xbase.display"
  Xvfb -displayfd 3 -screen 0 1024x700x24 -nolisten tcp >>"$xbase.xvfb.log" 2>&1 3>"$xbase.display" &
  xp=$!
  for _ in $(seq 1200); do
    [ -s "$xbase.display" ] && break
    kill -0 $xp 2>/dev/null || break
    sleep 0.05
  done
  export DISPLAY=:$(cat "$xbase.display" 2>/dev/null)
  for _ in $(seq 600); do
    xdotool getdisplaygeometry >/dev/null 2>&1 && break
    kill -0 $xp 2>/dev/null || break
    sleep 0.05
  done
  xdotool getdisplaygeometry >/dev/null 2>&1 && break
  echo "  Xvfb did not start (attempt $attempt): $(tail -1 "$xbase.xvfb.log" 2>/dev/null)"
  kill $xp 2>/dev/null
  wait $xp 2>/dev/null
  xp=
done
[ -n "$xp" ]
