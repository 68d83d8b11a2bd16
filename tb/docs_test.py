#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The documentation builds and every internal link lands (CTest `docs_build`):
1. Sphinx with MyST builds the README, CHANGELOG and docs/ to HTML with warnings as errors (a
   Markdown link to a missing page or heading is a warning);
2. every link of the HTML that stays on the site, page and #anchor, is followed: the file must
   exist and hold an element with that id. A planted broken link must be found.

Usage: docs_test.py OUT_DIR"""
import html.parser
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent


class Links(html.parser.HTMLParser):
    """The ids a page defines and the links it makes."""

    def __init__(self):
        super().__init__()
        self.ids, self.links = set(), []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and "name" in attrs:
            self.ids.add(attrs["name"])
        for name in ("href", "src"):
            if attrs.get(name):
                self.links.append(attrs[name])


def parse(page):
    parser = Links()
    parser.feed(page.read_text(errors="replace"))
    return parser


def broken_links(site):
    """'page: link' for every internal link of the site's pages that does not land."""
    pages = {p.resolve(): parse(p) for p in site.rglob("*.html")}
    problems = []
    for page, parsed in pages.items():
        for link in parsed.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("mailto:", "javascript:")):
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                problems.append(f"{page.relative_to(site)}: {link} (no such file)")
            elif parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else parse(target).ids
                if unquote(parts.fragment) not in ids:
                    problems.append(f"{page.relative_to(site)}: {link} (no such anchor)")
    return problems


def main():
    out = Path(sys.argv[1])
    shutil.rmtree(out, ignore_errors=True)
    build = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                            "-d", str(out / "doctrees"), "-c", str(ROOT / "docs"), str(ROOT), str(out / "html")],
                           capture_output=True, text=True)
    if build.returncode != 0:
        print(build.stdout + build.stderr)
        print("docs_test: Sphinx reported warnings or errors (above)")
        return 1
    site = out / "html"
    problems = broken_links(site)
    pages = len(list(site.rglob("*.html")))
    # a planted broken link and anchor must be found
    planted = site / "docs" / "planted.html"
    planted.write_text('<a href="keys.html#no-such-key">x</a><a href="no-such-page.html">y</a>')
    missed = len(broken_links(site)) - len(problems) != 2
    planted.unlink()
    for p in problems:
        print(p)
    if missed:
        print("docs_test: the link check missed a planted broken link")
        return 1
    print(f"docs_test: {pages} pages, {len(problems)} broken internal links")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
