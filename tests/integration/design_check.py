#!/usr/bin/env python3
"""design_check.py ROOT: the architecture pages against the build.

Prints one line per finding and exits 1 when there is any:
- docs/design.md names every folder of lib/ that holds C sources, both in the
  table of the core by domain (`NAME/`) and under "Where things live"
  (`lib/NAME/`, with each of its `.c` files), and the number of folders it says in words is the number
  there are;
- docs/design.md names every library that lib/CMakeLists.txt links the core
  to (a name the table below does not know fails too, so that a new
  dependency is added here and on the page at once);
- every `seawx_domain(...)` line quoted in a page under lib/ or docs/ is one
  that lib/CMakeLists.txt declares.
"""
import pathlib
import re
import sys

# How lib/CMakeLists.txt names a dependency -> the name the page uses.
DEPENDENCY_NAMES = {
    "CURL": "libcurl",
    "XML2": "libxml2",
    "JSONC": "json-c",
    "PNG": "libpng",
    "SQLITE3": "SQLite",
    "MINIZIP": "minizip",
    "ZLIB": "zlib",
    "GDAL": "GDAL",
    "IMAGEQUANT": "libimagequant",
    "WEBP": "libwebp",
    "JPEG": "libjpeg",
    "GEOS": "GEOS",
    "CAIRO": "cairo",
    "ECCODES": "ecCodes",
    "BZip2": "bzip2",
    "NETCDF": "libnetcdf",
}
NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}


def dependencies(cmake):
    """The libraries lib/CMakeLists.txt links the core and the chart to."""
    found = set(re.findall(r"PkgConfig::(\w+)", cmake))
    found |= set(re.findall(r"\b(GDAL)::GDAL\b", cmake))
    found |= set(re.findall(r"\b(BZip2)::BZip2\b", cmake))
    if re.search(r"find_library\(ECCODES_LIBRARY", cmake):
        found.add("ECCODES")
    return found


def main():
    root = pathlib.Path(sys.argv[1])
    cmake = (root / "lib/CMakeLists.txt").read_text()
    design = (root / "docs/design.md").read_text()
    bad = []

    folders = sorted(p.name for p in (root / "lib").iterdir()
                     if p.is_dir() and any(p.glob("*.c")))
    for f in folders:
        if not re.search(r"^\| `%s/` \|" % re.escape(f), design, re.M):
            bad.append("docs/design.md: the core-by-domain table has no row for `%s/`" % f)
        if not re.search(r"^\| `lib/%s/` \|" % re.escape(f), design, re.M):
            bad.append("docs/design.md: \"Where things live\" has no row for `lib/%s/`" % f)
        for src in sorted((root / "lib" / f).glob("*.c")):
            if "`%s`" % src.name not in design:
                bad.append("docs/design.md: \"Where things live\" does not name lib/%s/%s" % (f, src.name))
    for word in re.findall(r"\bin (\w+) folders\b", design):
        n = NUMBERS.get(word.lower())
        if n is None and word.isdigit():
            n = int(word)
        if n != len(folders):
            bad.append("docs/design.md: says 'in %s folders'; lib/ has %d (%s)"
                       % (word, len(folders), ", ".join(folders)))

    for dep in sorted(dependencies(cmake)):
        name = DEPENDENCY_NAMES.get(dep)
        if name is None:
            bad.append("lib/CMakeLists.txt: dependency %s is not in design_check.py's table "
                       "(add it there and name it in docs/design.md)" % dep)
        elif not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(name), design):
            bad.append("docs/design.md: does not name %s (lib/CMakeLists.txt links %s)" % (name, dep))

    declared = {re.sub(r"\s+", " ", m) for m in re.findall(r"seawx_domain\(([^)]*)\)", cmake)}
    pages = list((root / "docs").glob("*.md")) + list((root / "lib").glob("*/*.md"))
    for page in sorted(pages):
        for m in re.findall(r"seawx_domain\(([^)]*)\)", page.read_text()):
            line = re.sub(r"\s+", " ", m)
            if line not in declared and not line.startswith("NAME"):
                bad.append("%s: quotes seawx_domain(%s), which lib/CMakeLists.txt does not declare"
                           % (page.relative_to(root), line))

    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
