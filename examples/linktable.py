"""A small, realistic link table for the examples: (page, href) rows as Parquet.

Pages link to relative, absolute, scheme-relative and fragment-only references,
to IRIs, and to invalid and hostile ones, as crawled HTML does.  The table is
the same for the same seed.
"""

from __future__ import annotations

import random
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

PAGES = [
    "https://example.com/",
    "https://example.com/docs/guide/index.html",
    "http://Blog.Example.org:80/2024/05/post?id=7",
    "https://shop.example.net/cart/../items/42",
    "https://[2001:db8::1]/status",
    "not a page",
]
HREFS = [
    # relative references (RFC 3986 §4.2)
    "../api/v1/",
    "./a/./b/../c",
    "#top",
    "?page=2",
    "//cdn.example.net/lib.js",
    "/",
    "",
    "../../../../etc/passwd",
    # absolute references, some not yet normal (RFC 3986 §6.2)
    "HTTPS://EXAMPLE.com:443/%7euser/",
    "http://example.com/a%2fb?x=%41",
    "ftp://ftp.example.com/pub/file.txt",
    "mailto:someone@example.com",
    "urn:isbn:0451450523",
    "http://0x7f.1/",
    # IRIs (RFC 3987), mapped to URIs first
    "https://例え.jp/パス?q=値",
    "/wiki/Straße",
    # invalid
    "http://a b/",
    "http://[::1/",
    "http://host:port/",
    "%zz",
    "http://example.com/<script>",
    "\x00",
    # hostile but valid (RFC 3986 §7)
    "javascript:alert(1)",
    "http://user:pw@good.example@evil.example/",
    "http://good.example%2f@evil.example/",
    "data:text/html,%3Cb%3Ehi%3C/b%3E",
    "http://example.com/" + "a/" * 2000,
    "http://example.com:99999999999999999999/",
]


def link_table(rows: int = 2000, seed: int = 3986) -> pa.Table:
    """``rows`` links (page, href) drawn from :data:`PAGES` and :data:`HREFS`."""
    draw = random.Random(seed)
    pages = [draw.choice(PAGES) for _ in range(rows)]
    hrefs = [draw.choice(HREFS) for _ in range(rows)]
    return pa.table({"page": pa.array(pages, pa.string()), "href": pa.array(hrefs, pa.string())})


def write_link_table(path: Path, rows: int = 2000) -> Path:
    """Write :func:`link_table` to ``path`` as Parquet, and return ``path``."""
    pq.write_table(link_table(rows), path)
    return path
