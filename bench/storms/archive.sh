# archive.sh: sourced by run.sh and danger.sh. build_archive compiles
# gen_archive.c with the stand-in's storm data (and the util/ sources the
# stand-in compiles in) and writes the synthetic archive, one /storm/json
# answer, to $work/archive.json, its summary line to $work/gen.log.
# Needs $root (the checkout) and $here (bench/storms) set by the caller.
build_archive() {
  local util="$root/lib/util"
  cc -O2 -std=c11 -D_DEFAULT_SOURCE -I"$root/samples/sim" -I"$root/lib" -I"$util/include" \
    "$here/gen_archive.c" "$root/samples/sim/storm_data.c" "$root/samples/sim/buf.c" \
    "$root/samples/sim/timestamp.c" "$util/buf.c" "$util/error.c" "$util/iso8601.c" \
    "$util/jsonfmt.c" "$util/hex.c" -lm -pthread -o "$work/gen_archive"
  "$work/gen_archive" >"$work/archive.json" 2>"$work/gen.log"
}
