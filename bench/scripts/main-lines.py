#!/usr/bin/env python3
"""Lines of main code (every */src/main/**/*.java) at git revisions, two ways: "code" (not blank,
not a comment: cloc's code lines) and "raw" (every line). Usage: main-lines.py REV [REV...] — prints
each revision's counts and the change from the first. Example: main-lines.py 47894d0 HEAD"""
import subprocess
import sys


def code_lines(text):
    n, in_block = 0, False
    for line in text.split("\n"):
        s = line.strip()
        if in_block:
            if "*/" not in s:
                continue
            in_block, s = False, s.split("*/", 1)[1].strip()
        if s.startswith("/*"):
            if "*/" not in s:
                in_block = True
                continue
            s = s.split("*/", 1)[1].strip()
        if s and not s.startswith("//"):
            n += 1
    return n


def count(rev):
    def git(*args):
        r = subprocess.run(["git", *args], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"main-lines.py: git {' '.join(args)}: {r.stderr.strip()}")
        return r.stdout

    code = raw = 0
    for f in git("ls-tree", "-r", "--name-only", rev).split("\n"):
        if f.endswith(".java") and "/src/main/" in f:
            t = git("show", f"{rev}:{f}")
            code += code_lines(t)
            raw += t.count("\n")
    return code, raw


if len(sys.argv) < 2:
    sys.exit("usage: main-lines.py REV [REV...]  (lines of */src/main Java at each git revision)")
first = None
for rev in sys.argv[1:]:
    c, r = count(rev)
    first = first or (c, r)
    print(f"{rev}: code {c:,} ({c - first[0]:+,}), raw {r:,} ({r - first[1]:+,})")
