"""shard_check.py: checks of sharded seeds for test_shard_*.sh, with sqlite3
and the tile math written here, apart from lib/.
  same A B                 the two MBTiles files hold the same metadata, the
                           same tiles (zoom, column, row, bytes) and images
  fetched LOG BEFORE AFTER the GetMaps in the access log are exactly the tiles
                           in AFTER that BEFORE lacked (one tile a GetMap;
                           BEFORE may be missing: none)
  count FILE               prints the number of tiles
"""
import hashlib, math, os, re, sqlite3, sys

HALF = 20037508.342789244


def rows(path, sql):
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    try:
        return db.execute(sql).fetchall()
    finally:
        db.close()


def tiles(path):
    if not os.path.exists(path):
        return {}
    return {(z, x, y): hashlib.sha256(d).hexdigest()
            for z, x, y, d in rows(path, "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles")}


def cmd_same(a, b):
    ok = True
    ta, tb = tiles(a), tiles(b)
    if ta != tb:
        only_a = len(set(ta) - set(tb))
        only_b = len(set(tb) - set(ta))
        differ = sum(1 for k in set(ta) & set(tb) if ta[k] != tb[k])
        print("tiles differ: %d only in %s, %d only in %s, %d with other bytes" % (only_a, a, only_b, b, differ))
        ok = False
    ia = sorted(rows(a, "SELECT tile_id FROM images"))
    ib = sorted(rows(b, "SELECT tile_id FROM images"))
    if ia != ib:
        print("images differ: %d against %d" % (len(ia), len(ib)))
        ok = False
    ma = sorted(rows(a, "SELECT name, value FROM metadata"))
    mb = sorted(rows(b, "SELECT name, value FROM metadata"))
    if ma != mb:
        print("metadata differ:", sorted(set(ma) ^ set(mb)))
        ok = False
    if ok:
        print("same: %d tiles, %d images, %d metadata rows" % (len(ta), len(ia), len(ma)))
    return ok


def getmap_tiles(log):
    out = []
    for line in open(log):
        if "request=GetMap" not in line:
            continue
        m = re.search(r"bbox=([-0-9.e]+),([-0-9.e]+),([-0-9.e]+),([-0-9.e]+)", line)
        minx, miny, maxx, maxy = map(float, m.groups())
        size = maxx - minx
        z = round(math.log2(2 * HALF / size))
        x = round((minx + HALF) / size)
        y = round((HALF - maxy) / size)
        out.append((z, x, (1 << z) - 1 - y))  # TMS row, as MBTiles stores it
    return out


def cmd_fetched(log, before, after):
    got = getmap_tiles(log)
    want = set(tiles(after)) - set(tiles(before))
    if len(got) != len(set(got)):
        print("a tile was fetched twice")
        return False
    if set(got) != want:
        print("fetched %d tiles, %d of them already there; %d missing tiles not fetched"
              % (len(got), len(set(got) - want), len(want - set(got))))
        return False
    print("fetched exactly the %d missing tiles" % len(want))
    return True


def cmd_count(path):
    print(len(tiles(path)))
    return True


if __name__ == "__main__":
    fn = globals()["cmd_" + sys.argv[1]]
    sys.exit(0 if fn(*sys.argv[2:]) else 1)
