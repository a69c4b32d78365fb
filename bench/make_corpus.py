"""Regenerate the benchmark corpus: ``bench/urls.txt`` and ``bench/pairs.txt``.

Where the URLs come from
------------------------
Every URL is real text harvested from files installed on the build machine; nothing is
invented and no network is used. The sources, walked in sorted order (missing ones are
skipped):

- ``/root/.pyenv/versions/*/lib``: CPython standard libraries 2.7-3.13 and their
  site-packages (module docstrings and comments, ``METADATA``/``PKG-INFO`` files, licenses);
- ``/work/venv/lib``: the project virtualenv's site-packages;
- ``/usr/lib/python3*``: the system Python and Debian's Python packages;
- ``/usr/share/doc``: package documentation, changelogs and copyright files (``*.gz`` read
  through gzip);
- ``/usr/share/man``: man pages (gzipped roff, with roff escapes removed first).

Candidates are a scheme from ``HIER_SCHEMES`` followed by "://", or a scheme from
``OPAQUE_SCHEMES`` followed by the shape that scheme requires ("mailto:" needs an "@"), then
a run of characters that may appear in a URI; a URL opened by a single quote in source
code ends at the closing quote. Trailing prose punctuation, unbalanced closing brackets,
Markdown link tails, console-markup tails and HTML entities are stripped; template placeholders
(``$VAR``, ``%(name)s``, bad ``%`` escapes), elisions (``...``) and regular-expression
fragments (``[a-z0-9-]+``) are dropped. The URLs are *not* filtered by any URI parser, so a
few invalid but real URLs remain (well under 5%), as they would in any crawl.

Change logs repeat one host thousands of times (``github.com/nodejs/node/pull/N``), and
cloud docs mint endless ``file://x.json`` and ``s3://bucket`` examples, so the sample is
capped per host, per first path segment and per non-web scheme, taken in the order of a
seeded hash and cut to ``TARGET`` lines.

``pairs.txt`` holds (base, reference) pairs, tab-separated, for resolution benchmarks
(RFC 3986 §5.2). Bases are absolute hierarchical URLs from the corpus; references are built
from pieces of other corpus URLs in the shapes listed in ``REFERENCE_SHAPES``.

Run ``python bench/make_corpus.py`` from the repository root; the output is deterministic
for a given set of installed files.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import os
import random
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

SEED = 3986
TARGET = 5000
PAIRS = 5000
PER_HOST = 120
PER_PREFIX = 6
PER_OTHER_SCHEME = 40
MAX_FILE_BYTES = 4_000_000
MAX_URL_CHARS = 600

SOURCE_GLOBS = (
    "/root/.pyenv/versions/*/lib",
    "/work/venv/lib",
    "/usr/lib/python3*",
    "/usr/share/doc",
    "/usr/share/man",
)


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# Files without a suffix (METADATA, LICENSE, copyright, README) are read as well.
TEXT_SUFFIXES = frozenset(
    {
        "",
        *_words(".py .pyi .txt .rst .md .html .htm .xml .json .toml .cfg .ini .yml .yaml"),
        *_words(".c .h .pl .sh .js .css .in .svg .Debian .changelog .1 .2 .3 .4 .5 .6 .7 .8"),
    }
)

# Schemes written as "scheme://authority" in running text.
HIER_SCHEMES = _words(
    """
    https http ftp ftps sftp file git git+https git+ssh svn svn+ssh hg+https ssh ws wss s3
    gs hdfs rsync ldap ldaps redis rediss postgres postgresql mysql sqlite mongodb amqp tcp
    udp unix telnet nntp irc ircs smb nfs imap pop rtsp coap
    """
)
# Schemes whose URIs usually have no authority, each with the shape its scheme-specific
# part must start with; identifiers that merely share the prefix ("geo:SearchPlace" IAM
# actions, "mailto:barry") are not URIs.
OPAQUE_SCHEMES: dict[str, str] = {
    "mailto": r"[^@/]+@[^@.]+\.",  # RFC 6068
    "urn": r"[A-Za-z0-9][A-Za-z0-9-]{1,31}:.",  # RFC 8141 NID ":" NSS
    "tag": r"[^,]+,\d{4}",  # RFC 4151 taggingEntity
    "data": r"[^,]*,",  # RFC 2397
    "tel": r"\+?[0-9(]",  # RFC 3966
    "sms": r"\+?[0-9]",  # RFC 5724
    "geo": r"-?[0-9]",  # RFC 5870
    "doi": r"10\.",
    "about": r"[a-z]",  # RFC 6694
    "news": r"[A-Za-z0-9]",  # RFC 5538
    "magnet": r"\?",
    "cid": r".+@",  # RFC 2392
    "mid": r".+@",  # RFC 2392
    "sip": r"[^@/]+@",  # RFC 3261
    "xmpp": r"[^@/]+@",  # RFC 5122
}
_OPAQUE_SHAPE = {k: re.compile(v) for k, v in OPAQUE_SCHEMES.items()}

# A run of characters that may occur in a URI (RFC 3986 §2) plus "%"; whitespace, quotes,
# angle brackets, braces, "|", "\\", "^", "`" and non-ASCII end a candidate (RFC 3986
# Appendix C).
_URI_RUN = re.compile(rb"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*")
_SCHEME_CHARS = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789+.-")
_HIER_SET = frozenset(s.encode() for s in HIER_SCHEMES)
_NEEDLES = (b"://", *(s.encode() + b":" for s in OPAQUE_SCHEMES))
_ROFF_ESCAPE = re.compile(rb"\\(?:[%&:]|\(hy|-)")
_ENTITY_TAIL = re.compile(r"&(?:gt|lt|quot|apos|nbsp|#\d+|#x[0-9a-fA-F]+);.*")
_BAD_PCT = re.compile(r"%(?![0-9A-Fa-f]{2})")
_TEMPLATE = re.compile(r"\$[A-Za-z(]|%\(|\.\.\.|\*\*")
# Regular-expression fragments and documentation placeholders: "[a-z0-9-]+", "([", "[:port]".
_REGEX_LIKE = re.compile(r"\[[-^]|\[\w-\w|\(\[|\)\[|\]\+|\(\?|\[:[a-z]|@\]")
_TRAILING = ".,;:!?*'"
_PAIRS = {")": "(", "]": "["}
_WEB_SCHEMES = frozenset({"http", "https", "ftp", "ws", "wss"})


def source_files() -> Iterator[Path]:
    """Yield candidate text files under the source roots, in sorted order."""
    roots = sorted({p for g in SOURCE_GLOBS for p in Path("/").glob(g.lstrip("/"))})
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d not in {"__pycache__", "test", "tests"})
            for name in sorted(filenames):
                stem = name.removesuffix(".gz")
                if Path(stem).suffix in TEXT_SUFFIXES or stem.isupper():
                    yield Path(dirpath, name)


def read_bytes(path: Path) -> bytes:
    """Return the file's bytes (gunzipped if needed), or b"" if unreadable or binary."""
    try:
        if path.is_symlink() or path.stat().st_size > MAX_FILE_BYTES:
            return b""
        if path.suffix == ".gz":
            with gzip.open(path, "rb") as fh:
                data = fh.read(MAX_FILE_BYTES)
        else:
            data = path.read_bytes()
    except (OSError, EOFError, gzip.BadGzipFile):
        return b""
    if b"\0" in data[:4096]:
        return b""
    if "/man/" in str(path):
        data = _ROFF_ESCAPE.sub(lambda m: b"" if m.group(0)[1:2] in b"%&:" else b"-", data)
    return data


def candidates(data: bytes) -> Iterator[str]:
    """Yield "scheme:..." runs whose scheme is one we harvest.

    Literal needles ("://", "mailto:", ...) are found with bytes.find; the scheme is then
    read backwards from the needle and the rest of the URL forwards.
    """
    lower = data.lower()
    for needle in _NEEDLES:
        start = 0
        while (i := lower.find(needle, start)) != -1:
            start = i + len(needle)
            if needle == b"://":
                j = i
                while j > 0 and lower[j - 1] in _SCHEME_CHARS:
                    j -= 1
                if lower[j:i] not in _HIER_SET:
                    continue
            else:
                j = i
                if i > 0 and (lower[i - 1] in _SCHEME_CHARS or lower[i - 1] == ord("/")):
                    continue
            end = _URI_RUN.match(data, start)
            stop = end.end() if end else start
            if j > 0 and data[j - 1] == ord("'"):
                quote = data.find(b"'", start, stop)  # source code: 'https://x').path
                stop = quote if quote != -1 else stop
            start = max(start, stop)
            yield data[j:stop].decode("ascii")


def plausible_host(scheme: str, host: str) -> bool:
    """Reject prose such as "http://" followed by a word, for web schemes."""
    if scheme == "file":
        return True
    if not host:
        return False
    name = host.rpartition("@")[2]
    if name.startswith("["):
        return "]" in name
    name = name.partition(":")[0]
    return scheme not in _WEB_SCHEMES or "." in name or name.lower() == "localhost"


def clean(candidate: str) -> str | None:
    """Trim prose punctuation around a candidate; return None if it is not a usable URL."""
    url = _ENTITY_TAIL.sub("", candidate).replace("&amp;", "&")
    url = url.partition("](")[0]  # Markdown "[![badge](url)](link)"
    close = url.find("]")
    if close != -1 and "[" not in url[:close]:
        url = url[:close]  # console markup "[link=url]text[/link]"
    while url:
        last = url[-1]
        unbalanced = last in _PAIRS and url.count(last) > url.count(_PAIRS[last])
        if last in _TRAILING or unbalanced:
            url = url[:-1]
        else:
            break
    scheme, _, rest = url.partition(":")
    if len(url) > MAX_URL_CHARS or len(rest) < 3:
        return None
    if _TEMPLATE.search(url) or _BAD_PCT.search(url) or _REGEX_LIKE.search(url):
        return None
    shape = _OPAQUE_SHAPE.get(scheme.lower())
    if shape is not None and not rest.startswith("//") and not shape.match(rest):
        return None
    if rest.startswith("//"):
        host = re.split(r"[/?#]", rest[2:], maxsplit=1)[0]
        if not plausible_host(scheme.lower(), host):
            return None
    return url


def harvest() -> set[str]:
    """Collect every cleaned candidate from every source file."""
    found: set[str] = set()
    for path in source_files():
        for candidate in candidates(read_bytes(path)):
            url = clean(candidate)
            if url is not None:
                found.add(url)
    return found


def group_keys(url: str) -> tuple[str, str, str]:
    """(scheme, scheme+host, scheme+host+first path segment): the units the caps apply to."""
    scheme, _, rest = url.partition(":")
    scheme = scheme.lower()
    if rest.startswith("//"):
        host, _, path = rest[2:].partition("/")
        segment = re.split(r"[/?#]", path, maxsplit=1)[0]
        site = scheme + "://" + host.lower()
        return scheme, site, site + "/" + segment
    return scheme, scheme + ":", scheme + ":" + rest[:8]


_RARE = re.compile(r"[^:]+://(?:[^/?#]*[@:\[]|[^#]*%[0-9A-Fa-f]{2})")


def sample(urls: set[str]) -> list[str]:
    """Order by a seeded hash, apply the caps in that order, and cut to TARGET.

    A hash order (rather than a shuffle) keeps the sample stable when a few files change.

    URLs with userinfo, a port, an IP literal or a percent-encoding are rare in prose but
    matter to parsers, so they are exempt from the per-prefix cap.
    """
    ordered = sorted(urls, key=lambda url: hashlib.sha256(f"{SEED}:{url}".encode()).digest())
    seen: Counter[str] = Counter()
    kept: list[str] = []
    for url in ordered:
        scheme, site, prefix = group_keys(url)
        scheme_cap = len(urls) if scheme in _WEB_SCHEMES else PER_OTHER_SCHEME
        prefix_cap = len(urls) if _RARE.match(url) else PER_PREFIX
        if seen[scheme] >= scheme_cap or seen[site] >= PER_HOST or seen[prefix] >= prefix_cap:
            continue
        seen.update((scheme, site, prefix))
        kept.append(url)
    return kept[:TARGET]


# Shapes of references (RFC 3986 §4.2 relative references, plus absolute URIs), weighted
# roughly by how often they appear in real documents.
REFERENCE_SHAPES: tuple[tuple[str, int], ...] = (
    ("segment", 14),  # "g"
    ("path", 12),  # "g/h"
    ("dot", 4),  # "./g"
    ("dotdot", 10),  # "../g"
    ("dotdot2", 4),  # "../../g/h"
    ("query", 6),  # "?y"
    ("fragment", 10),  # "#s"
    ("segment-query", 5),  # "g?y"
    ("segment-fragment", 4),  # "g#s"
    ("absolute-path", 14),  # "/p/q?y"
    ("network-path", 4),  # "//host/p"
    ("absolute", 10),  # "scheme://host/p"
    ("empty", 1),  # ""
    ("dots-only", 2),  # "." "..", "../"
)


def _pieces(urls: list[str]) -> tuple[list[str], list[str], list[str], list[str], list[str]]:
    """Split corpus URLs into segments, paths, queries, fragments and authorities."""
    segments: set[str] = set()
    paths: set[str] = set()
    queries: set[str] = set()
    fragments: set[str] = set()
    authorities: set[str] = set()
    for url in urls:
        rest = url.partition(":")[2]
        rest, hash_, fragment = rest.partition("#")
        rest, qmark, query = rest.partition("?")
        if fragment and hash_:
            fragments.add(fragment)
        if query and qmark:
            queries.add(query)
        if rest.startswith("//"):
            authority, slash, path = rest[2:].partition("/")
            authorities.add(authority)
            if slash and path:
                paths.add("/" + path)
                segments.update(s for s in path.split("/") if s not in {"", ".", ".."})
    return (
        sorted(segments),
        sorted(paths),
        sorted(queries),
        sorted(fragments),
        sorted(authorities),
    )


def make_pairs(urls: list[str], rng: random.Random, count: int) -> list[tuple[str, str]]:
    """Build (base, reference) pairs from pieces of the corpus."""
    bases = [u for u in urls if re.match(r"[A-Za-z][A-Za-z0-9+.\-]*://[^/?#]", u) and "#" not in u]
    segments, paths, queries, fragments, authorities = _pieces(urls)
    shapes = [s for s, _ in REFERENCE_SHAPES]
    weights = [w for _, w in REFERENCE_SHAPES]
    pairs: list[tuple[str, str]] = []
    for _ in range(count):
        base = rng.choice(bases)
        shape = rng.choices(shapes, weights)[0]
        seg = rng.choice(segments)
        if shape == "segment":
            ref = seg
        elif shape == "path":
            ref = seg + "/" + rng.choice(segments)
        elif shape == "dot":
            ref = "./" + seg
        elif shape == "dotdot":
            ref = "../" + seg
        elif shape == "dotdot2":
            ref = "../../" + seg + "/" + rng.choice(segments)
        elif shape == "query":
            ref = "?" + rng.choice(queries)
        elif shape == "fragment":
            ref = "#" + rng.choice(fragments)
        elif shape == "segment-query":
            ref = seg + "?" + rng.choice(queries)
        elif shape == "segment-fragment":
            ref = seg + "#" + rng.choice(fragments)
        elif shape == "absolute-path":
            ref = rng.choice(paths)
        elif shape == "network-path":
            ref = "//" + rng.choice(authorities) + rng.choice(paths)
        elif shape == "absolute":
            ref = rng.choice(urls)
        elif shape == "empty":
            ref = ""
        else:
            ref = rng.choice([".", "..", "../", "./", "../.."])
        if ":" in ref.split("/", 1)[0] and shape != "absolute":
            ref = "./" + ref  # RFC 3986 §4.2: a first segment with ":" needs "./"
        pairs.append((base, ref))
    return pairs


#: What a crawl meets in URLs the grammar refuses (RFC 3986 Appendix C): white space,
#: characters outside it, and a character beyond ASCII.
FORBIDDEN_INSERTS = (" ", "|", "<", '"', "^", "{", "\u00e9")


def with_invalid_rows(urls: list[str], rows: int, share: float) -> tuple[list[str], list[bool]]:
    """A column of ``rows`` rows made of the corpus: the (valid) ``urls`` repeated, and
    one row in every ``round(1 / share)`` made invalid by one of ``FORBIDDEN_INSERTS``
    put in at a seeded place after its scheme, so that hardly two invalid rows are
    alike.  Returns the rows and whether each is one of those made invalid."""
    rng = random.Random(SEED)
    step = round(1 / share)
    column: list[str] = []
    invalid: list[bool] = []
    for k in range(rows):
        url = urls[k % len(urls)]
        bad = k % step == step - 1
        if bad:
            at = rng.randrange(url.find(":") + 1, len(url) + 1)
            url = url[:at] + rng.choice(FORBIDDEN_INSERTS) + url[at:]
        column.append(url)
        invalid.append(bad)
    return column, invalid


def main() -> None:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--urls", type=Path, default=here / "urls.txt")
    parser.add_argument("--pairs", type=Path, default=here / "pairs.txt")
    args = parser.parse_args()

    harvested = harvest()
    urls = sample(harvested)
    rng = random.Random(SEED)
    pairs = make_pairs(urls, rng, PAIRS)
    args.urls.write_text("".join(u + "\n" for u in urls), encoding="utf-8")
    args.pairs.write_text("".join(f"{b}\t{r}\n" for b, r in pairs), encoding="utf-8")

    schemes = Counter(u.partition(":")[0].lower() for u in urls)
    hosts = {group_keys(u)[1] for u in urls}
    print(f"harvested {len(harvested)} distinct URLs; wrote {len(urls)} to {args.urls}")
    print(f"wrote {len(pairs)} pairs to {args.pairs}")
    print("schemes:", ", ".join(f"{s} {n}" for s, n in schemes.most_common()))
    print("distinct hosts:", len(hosts))


if __name__ == "__main__":
    main()
