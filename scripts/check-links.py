#!/usr/bin/env python3
"""Checks that every relative link of the user documentation resolves.

Pages: README.md, CHANGELOG.md, every Markdown file under docs/, and each crate's
README.md (*/README.md, games/*/README.md). A link resolves when the file or folder it
names exists and, for a link into a Markdown page, when its anchor is one of that page's
headings as GitHub spells them (lowercase, punctuation dropped, spaces to '-', a repeated
heading given -1, -2, ...) or an explicit id. Links inside code spans and code blocks,
and links with a scheme (https:, mailto:), are not checked.

Usage: python3 scripts/check-links.py   (from anywhere; exits 1 on a broken link)
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def pages():
    found = {ROOT / "README.md", ROOT / "CHANGELOG.md"}
    found |= set((ROOT / "docs").rglob("*.md"))
    found |= set(ROOT.glob("*/README.md")) | set(ROOT.glob("games/*/README.md"))
    return sorted(p for p in found if p.is_file())


def prose(text):
    """The text outside fenced code blocks, line by line, with code spans blanked."""
    out, fence = [], None
    for line in text.split("\n"):
        m = re.match(r"^\s*(```+|~~~+)", line)
        if m:
            if fence is None:
                fence = m.group(1)[0] * 3
            elif m.group(1).startswith(fence):
                fence = None
            out.append("")
            continue
        out.append("" if fence else re.sub(r"(`+)(.+?)\1", lambda s: " " * len(s.group(0)), line))
    return out


def slug(heading):
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text alone
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)  # punctuation dropped (letters, digits, _ and - kept)
    return text.replace(" ", "-")


_anchors = {}


def anchors(page):
    if page not in _anchors:
        seen, found, fence = {}, set(), None
        for line in page.read_text(encoding="utf-8").split("\n"):
            m = re.match(r"^\s*(```+|~~~+)", line)
            if m:
                fence = None if fence else m.group(1)[0]
                continue
            if fence:
                continue
            h = re.match(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$", line)
            if h:
                base = slug(h.group(1))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
            for i in re.findall(r'<[^>]+\b(?:id|name)="([^"]+)"', line):
                found.add(i)
        _anchors[page] = found
    return _anchors[page]


LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$")


def main():
    bad = 0
    checked = 0
    for page in pages():
        for number, line in enumerate(prose(page.read_text(encoding="utf-8")), 1):
            targets = LINK.findall(line)
            m = REF.match(line)
            if m:
                targets.append(m.group(1))
            for target in targets:
                if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):
                    continue  # https:, mailto: ...
                checked += 1
                path, _, anchor = target.partition("#")
                dest = (page.parent / path).resolve() if path else page
                where = f"{page.relative_to(ROOT)}:{number}: {target}"
                if not dest.exists():
                    print(f"{where}: no such file", file=sys.stderr)
                    bad += 1
                elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                    print(f"{where}: no such anchor in {dest.relative_to(ROOT)}", file=sys.stderr)
                    bad += 1
    print(f"links: {checked} relative links in {len(pages())} pages, {bad} broken", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
