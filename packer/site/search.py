"""The site's full-text search: Pagefind (https://pagefind.app/), run on the written pages at build time.

Pagefind's binary ships in its PyPI wheel (the `pagefind-bin` dependency), so `make site` needs no network.
It indexes the part of each page marked `data-pagefind-body` (the content, not the contents list or the
navigation, which are marked `data-pagefind-ignore` or left outside), and writes into OUT/pagefind/ the index in
fragments and its search UI (pagefind-ui.js, pagefind-ui.css): the browser fetches only the fragments a query
needs, from the same folder. Fetching needs a served site: opened from disk (file://) the browser refuses
those requests, and site.js says so in place of the search box."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from packer.site.pages import SiteError

BUNDLE = "pagefind"


def index_for_search(out: Path) -> None:
    """Write Pagefind's index of the pages in `out` and its search UI into out/pagefind/."""
    command = [sys.executable, "-m", "pagefind_bin", "--site", str(out), "--force-language", "en", "--silent"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0 or not (out / BUNDLE / "pagefind-ui.js").is_file():
        raise SiteError(f"pagefind could not index {out} (exit {done.returncode}): {done.stderr.strip()}")


def search_stylesheet(out: Path) -> str:
    """The CSS of Pagefind's search UI, to go into the site's one stylesheet."""
    return (out / BUNDLE / "pagefind-ui.css").read_text(encoding="utf-8")
