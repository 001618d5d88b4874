"""soak_check.py: checks for test_soak.sh and test_kills.sh, written apart from lib/.

  pngs FILE                 every stored image is a whole PNG of the file's tile
                            size (chunk CRCs, IHDR, IDAT inflating to exactly the
                            rows' bytes with valid filter types, IEND last), its
                            tile_id is its SHA-256, and every map row has its image
  same A B [NAME,...]       the two MBTiles files hold the same (z, x, y) -> tile
                            bytes and the same metadata, apart from the named rows
  draws SEED FIRST COUNT P429 P5XX PDROP PTRUNC PEXC
                            the faults seawx-sim draws for its requests FIRST ..
                            FIRST+COUNT-1 (samples/sim/faults.c), as JSON
  sum FILE KEY...           the sum of the named numeric fields of a JSON file
"""
import hashlib, json, sqlite3, struct, sys, zlib

M64 = (1 << 64) - 1


def png_ok(data, size):
    """None when data is a whole 8-bit RGB/RGBA size x size PNG, else why not."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return "no PNG signature"
    pos, idat, ihdr, end = 8, b"", None, False
    while pos < len(data):
        if end:
            return "bytes after IEND"
        if pos + 12 > len(data):
            return "cut inside a chunk header"
        ln, typ = struct.unpack(">I4s", data[pos:pos + 8])
        if pos + 12 + ln > len(data):
            return f"chunk {typ!r} cut short"
        body = data[pos + 8:pos + 8 + ln]
        (crc,) = struct.unpack(">I", data[pos + 8 + ln:pos + 12 + ln])
        if zlib.crc32(typ + body) != crc:
            return f"bad CRC in {typ!r}"
        if typ == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif typ == b"IDAT":
            idat += body
        elif typ == b"IEND":
            end = True
        pos += 12 + ln
    if not end:
        return "no IEND"
    if ihdr is None:
        return "no IHDR"
    w, h, depth, ctype, _, _, inter = ihdr
    if (w, h) != (size, size) or depth != 8 or ctype not in (2, 6) or inter != 0:
        return f"IHDR {ihdr}"
    try:
        d = zlib.decompressobj()
        raw = d.decompress(idat) + d.flush()
        if not d.eof or d.unused_data:
            return "IDAT stream does not end where it should"
    except zlib.error as e:
        return f"IDAT does not inflate: {e}"
    stride = w * (4 if ctype == 6 else 3)
    if len(raw) != h * (stride + 1):
        return f"IDAT inflates to {len(raw)} bytes, not {h * (stride + 1)}"
    if any(raw[y * (stride + 1)] > 4 for y in range(h)):
        return "a row with an unknown filter type"
    return None


def cmd_pngs(path):
    db = sqlite3.connect(path)
    size = int(dict(db.execute("SELECT name, value FROM metadata")).get("tile_size", "256"))
    bad = 0
    n = 0
    for tile_id, data in db.execute("SELECT tile_id, tile_data FROM images"):
        n += 1
        why = png_ok(bytes(data), size)
        if why is None and hashlib.sha256(data).hexdigest() != tile_id:
            why = "tile_id is not the image's SHA-256"
        if why:
            bad += 1
            if bad <= 5:
                print(f"image {tile_id[:16]}: {why}")
    orphans = db.execute("SELECT count(*) FROM map WHERE tile_id NOT IN "
                         "(SELECT tile_id FROM images)").fetchone()[0]
    if orphans:
        print(f"{orphans} map rows without their image")
    print(f"{n} images checked, {bad} broken")
    return n > 0 and bad == 0 and orphans == 0


def tiles_meta(path):
    db = sqlite3.connect(path)
    tiles = {(z, x, y): bytes(d) for z, x, y, d in
             db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles")}
    meta = dict(db.execute("SELECT name, value FROM metadata"))
    db.close()
    return tiles, meta


def cmd_same(a, b, ignore=""):
    ta, ma = tiles_meta(a)
    tb, mb = tiles_meta(b)
    skip = set(filter(None, ignore.split(",")))
    ok = True
    if ta.keys() != tb.keys():
        print(f"{len(ta)} and {len(tb)} tiles; only in the first {sorted(ta.keys() - tb.keys())[:5]}, "
              f"only in the second {sorted(tb.keys() - ta.keys())[:5]}")
        ok = False
    diff = [k for k in ta.keys() & tb.keys() if ta[k] != tb[k]]
    if diff:
        print(f"{len(diff)} tiles differ, e.g. {sorted(diff)[:5]}")
        ok = False
    for k in sorted((ma.keys() | mb.keys()) - skip):
        if ma.get(k) != mb.get(k):
            print(f"metadata {k}: {ma.get(k)!r} != {mb.get(k)!r}")
            ok = False
    if ok:
        print(f"{len(ta)} tiles and {len(ma)} metadata rows identical")
    return ok and len(ta) > 0


def splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


def cmd_draws(seed, first, count, *shares):
    names = ["429", "503", "drop", "trunc", "exception"]
    p = [float(s) for s in shares]
    out = dict.fromkeys(names, 0)
    seed = int(seed)
    for n in range(int(first), int(first) + int(count)):
        u = (splitmix64((seed * 0x100000001B3 + n) & M64) >> 11) / 9007199254740992.0
        edge = 0.0
        for name, share in zip(names, p):
            edge += share
            if u < edge:
                out[name] += 1
                break
    out["all"] = sum(out[k] for k in names)
    print(json.dumps(out))
    return True


def cmd_sum(path, *keys):
    d = json.load(open(path))
    print(sum(d[k] for k in keys))
    return True


if __name__ == "__main__":
    fn = globals()["cmd_" + sys.argv[1]]
    sys.exit(0 if fn(*sys.argv[2:]) else 1)
