#!/usr/bin/env python3
"""docs_extract.py: the commands shown in README.md and docs/*.md, for test_docs.sh.

Usage: docs_extract.py ROOT OUTDIR

The convention (docs/testing.md, "The docs test"):
- Every command in a ```sh block runs, in the order of the page, in one shell
  per page, in a scratch folder holding the sample files. A command is one or
  more lines that bash reads as complete (backslash continuations, loops,
  quotes); lines that are only comments are not commands.
- A command expected to fail says so at the end of its last line:
  `# exit N` (N its exit status). Every other command must exit 0.
- `<!-- docs-test: skip (reason) -->` on the line before a ```sh block: the
  block is not run (it installs packages, needs the real service, a ship or
  the internet); its commands are counted and printed as skipped.
- `<!-- docs-test: file NAME -->` before any other block: its text is written
  to NAME in the scratch folder before the page's commands run.
- `<!-- docs-test: now TIME -->` anywhere on a page: the stand-in's clock for
  that page (default 2024-10-01T12:00:00Z).
- `<!-- docs-test: size FILE SIZE -->` anywhere on a page, after the commands
  that write FILE: the size the page quotes for it (`19 kB`, `9.3 kB`,
  `15,099 bytes`, `<5 kB`; k, M and G decimal, Ki, Mi and Gi binary) must be
  FILE's, as rounded to the digits quoted (`<`: under it).
- ```text blocks are synopses: not run.
- In every ```sh and ```text block, each option given to `seawx CMD` or
  `seawx-sim` must be one that `seawx CMD --help` (`seawx-sim --help`) lists.

Also lists, in OUTDIR/bad_links.txt, the links between the pages (and into
the tree) whose file or heading is not there.

Writes OUTDIR/pages.txt (one page a line: NAME<TAB>NOW), OUTDIR/NAME.sh (the
page's script for docs_run.sh), OUTDIR/skipped.txt and OUTDIR/options.tsv
(WHERE<TAB>PROGRAM<TAB>OPTION, one line per option named).
"""
import os
import re
import shlex
import subprocess
import sys

DIRECTIVE = re.compile(r"^\s*<!--\s*docs-test:\s*(\w+)\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)```\s*([\w+-]*)\s*$")
EXPECT = re.compile(r"\s#\s*exit\s+(\d+)\b[^\n]*$")
OPTION = re.compile(r"^(--?[A-Za-z][A-Za-z0-9-]*)")
DEFAULT_NOW = "2024-10-01T12:00:00Z"
SEAWX_CMDS = {"layers", "legend", "qlr", "seed", "voyage", "fleet", "merge", "tilejson", "storms",
              "soil", "weather", "tides", "forecast", "vessels"}


def complete(text):
    """Whether bash reads text as complete commands."""
    r = subprocess.run(["bash", "-n"], input=text, text=True, capture_output=True)
    return r.returncode == 0


def commands(lines, first):
    """Splits a block's lines into (line number, command text)."""
    out, acc, start = [], [], None
    for n, line in enumerate(lines, first):
        if not acc and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if not acc:
            start = n
        acc.append(line)
        text = "\n".join(acc)
        if not text.endswith("\\") and complete(text + "\n"):
            out.append((start, text))
            acc = []
    if acc:
        out.append((start, "\n".join(acc)))
    return out


def shell_options(text):
    """(program, option) for every seawx / seawx-sim call in a shell command."""
    lex = shlex.shlex(text.replace("\\\n", " "), posix=True, punctuation_chars=True)
    lex.whitespace_split = True
    lex.commenters = "#"
    try:
        toks = list(lex)
    except ValueError:
        return [("?", "unparsable command")]
    found, i = [], 0
    seps = {"|", "||", "&&", ";", "&", ")", "(", "do", "done", "then", "fi", "$(", "`"}
    while i < len(toks):
        t = toks[i]
        prog = None
        if t == "seawx" and i + 1 < len(toks) and toks[i + 1] in SEAWX_CMDS:
            prog, i = "seawx " + toks[i + 1], i + 2
        elif t == "seawx-sim":
            prog, i = "seawx-sim", i + 1
        else:
            i += 1
            continue
        while i < len(toks) and toks[i] not in seps:
            m = OPTION.match(toks[i])
            if m:
                found.append((prog, m.group(1)))
            i += 1
    return found


def synopsis_options(lines):
    """(line number, program, option) for the synopses of a ```text block: each option
    belongs to the `seawx CMD` written before it on its line, or on the line
    a continuation line (indented) continues."""
    found, progs = [], []
    call = re.compile(r"(?:^|(?<=\s))(seawx(?:-sim)?)\b\s*([\w|]*)")
    for n, line in lines:
        line = re.sub(r"\s#.*$", "", line)
        if not line.startswith((" ", "\t")) and not call.match(line):
            progs = []
        pos = 0
        for m in list(call.finditer(line)) + [None]:
            end = m.start() if m else len(line)
            for opt in re.findall(r"(?<![\w-])(--?[A-Za-z][A-Za-z0-9-]*)", line[pos:end]):
                found += [(n, p, opt) for p in progs]
            if m:
                if m.group(1) == "seawx-sim":
                    progs = ["seawx-sim"]
                else:
                    progs = ["seawx " + w for w in m.group(2).split("|") if w in SEAWX_CMDS]
                pos = m.end()
    return found


def slug(heading):
    """The anchor GitHub gives a heading."""
    h = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return h.replace(" ", "-")


def anchors(path):
    out, fenced = set(), False
    for line in open(path, encoding="utf-8"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            out.add(slug(line.lstrip("#")))
    return out


def bad_links(root, page):
    """Links from page to files or headings of the tree that are not there."""
    bad, here = [], os.path.dirname(os.path.join(root, page))
    text = open(os.path.join(root, page), encoding="utf-8").read()
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    for m in re.finditer(r"\]\(([^)\s]+)\)", text):
        target = m.group(1)
        if re.match(r"^[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        full = os.path.normpath(os.path.join(here, path)) if path else os.path.join(root, page)
        if not os.path.exists(full):
            bad.append(f"{page}: {target}: no such file")
        elif anchor and full.endswith(".md") and anchor not in anchors(full):
            bad.append(f"{page}: {target}: no such heading")
    return bad


def quote_heredoc(text, tag):
    assert tag not in text
    return text + "\n" + tag + "\n"


def main():
    root, out = sys.argv[1], sys.argv[2]
    pages = ["README.md"] + sorted("docs/" + f for f in os.listdir(os.path.join(root, "docs"))
                                   if f.endswith(".md"))
    options, skipped, listing, links = [], [], [], []
    for page in pages:
        links += bad_links(root, page)
        lines = open(os.path.join(root, page), encoding="utf-8").read().split("\n")
        now, script, directive = DEFAULT_NOW, [], None
        i = 0
        while i < len(lines):
            d = DIRECTIVE.match(lines[i])
            if d:
                kind, arg = d.group(1), d.group(2)
                if kind == "now":
                    now = arg
                elif kind == "size":
                    m = re.match(r"^(\S+)\s+(<?[0-9][0-9,.]*\s*(?:bytes|[kMG]i?B))$", arg)
                    if not m:
                        sys.exit(f"{page}:{i + 1}: docs-test size needs FILE SIZE ('19 kB')")
                    script.append(f"docs_size {shlex.quote(f'{page}:{i + 1}')} "
                                  f"{shlex.quote(m.group(1))} {shlex.quote(m.group(2))}\n")
                elif kind in ("skip", "file"):
                    arg = re.sub(r"^\((.*)\)$", r"\1", arg).strip()
                    if not arg:
                        sys.exit(f"{page}:{i + 1}: docs-test {kind} needs a "
                                 + ("reason" if kind == "skip" else "file name"))
                    directive = (kind, arg, i + 1)
                else:
                    sys.exit(f"{page}:{i + 1}: unknown docs-test directive '{kind}'")
                i += 1
                continue
            f = FENCE.match(lines[i])
            if not f:
                if lines[i].strip():
                    directive = None
                i += 1
                continue
            lang, indent = f.group(2), f.group(1)
            j = i + 1
            while j < len(lines) and not re.match(r"^\s*```\s*$", lines[j]):
                j += 1
            body = [l[len(indent):] if l.startswith(indent) else l for l in lines[i + 1:j]]
            first = i + 2
            if directive and directive[0] == "file":
                name = directive[1]
                script.append(f"docs_file {shlex.quote(name)} <<'DOCS_FILE_END'\n"
                              + quote_heredoc("\n".join(body), "DOCS_FILE_END"))
            elif lang == "sh":
                skip = directive[1] if directive and directive[0] == "skip" else None
                for n, text in commands(body, first):
                    where = f"{page}:{n}"
                    options += [(where, p, o) for p, o in shell_options(text)]
                    if skip is not None:
                        skipped.append(f"{where}\t{text.splitlines()[0]}\t{skip}")
                        continue
                    m = EXPECT.search(text)
                    want = m.group(1) if m else "0"
                    script.append(f"docs_cmd {shlex.quote(where)} {want} <<'DOCS_CMD_END'\n"
                                  + quote_heredoc(text, "DOCS_CMD_END"))
            elif lang == "text":
                for n, p, o in synopsis_options(enumerate(body, first)):
                    options.append((f"{page}:{n}", p, o))
            directive = None
            i = j + 1
        name = page.replace("/", "_")
        with open(os.path.join(out, name + ".sh"), "w") as fh:
            fh.write("".join(script))
        listing.append(f"{name}\t{now}\t{page}")
    with open(os.path.join(out, "pages.txt"), "w") as fh:
        fh.write("".join(l + "\n" for l in listing))
    with open(os.path.join(out, "skipped.txt"), "w") as fh:
        fh.write("".join(l + "\n" for l in skipped))
    with open(os.path.join(out, "bad_links.txt"), "w") as fh:
        fh.write("".join(l + "\n" for l in links))
    with open(os.path.join(out, "options.tsv"), "w") as fh:
        fh.write("".join(f"{w}\t{p}\t{o}\n" for w, p, o in options))


if __name__ == "__main__":
    main()
