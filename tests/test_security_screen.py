"""The quick screen of ``audit`` loses no finding: ``audit`` equals ``full_audit``.

``audit`` skips the checks for references that ``screen.py`` proves quiet;
``full_audit`` runs every check on every input.  Both must give the same
findings, with urikit's WHATWG reading and with ada's in its place, on
real URLs (bench/urls.txt), the attack and clean lists of the security tests,
generated references and URL-like text, and mutations of real URLs.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import uri_references
from test_security import ATTACKS, CLEAN, RFC3986_1_1_2
from test_security_hardening import _URLISH, _urls

from urikit import URI, URIError
from urikit.lenient import repair, repair_runs
from urikit.schemes import DEFAULT_REGISTRY, Scheme
from urikit.security import differential
from urikit.security.audit import audit, full_audit
from urikit.security.reading import _alignment, _body_end, _body_start
from urikit.security.screen import ENCODED, LOUD, PLAIN_HEAD, QUIET, is_quiet, screen

BENCH_URLS = Path(__file__).parent.parent / "bench" / "urls.txt"
CORPUS = BENCH_URLS.read_text(encoding="utf-8").splitlines() if BENCH_URLS.exists() else []


@pytest.fixture(params=["urikit", "ada"])
def whatwg(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """urikit's WHATWG reading, and ada's ``URL`` in its place as a test oracle."""
    if request.param == "ada":
        ada_url = pytest.importorskip("ada_url")
        monkeypatch.setattr(differential, "URL", ada_url.URL)
    return str(request.param)


def same(text: str) -> bool:
    """``audit`` and ``full_audit`` agree on ``text``; True when the screen passed it."""
    fast, full = audit(text), full_audit(text)
    assert fast == full, text
    try:
        ref = URI(text)
    except URIError:
        return False
    assert audit(ref) == full_audit(ref), text
    quiet = is_quiet(text, ref)
    assert not (quiet and full), (text, full)
    if plain_head(text):
        assert screen(text, ref) == QUIET, text  # audit's first test proves no more
    return quiet


def plain_head(text: str) -> bool:
    """The test ``audit`` makes first of a URI ``text``, before :func:`screen`."""
    return "%" not in text and "--" not in text and PLAIN_HEAD(text) is not None


def test_the_screen_serves_most_real_urls(whatwg: str) -> None:
    if not CORPUS:
        pytest.skip("bench/urls.txt is not there")
    quiet = sum(same(line) for line in CORPUS)
    assert quiet > 0.9 * len(CORPUS)


@pytest.mark.parametrize("text", [t for texts in ATTACKS.values() for t in texts])
def test_attacks(text: str, whatwg: str) -> None:
    same(text)


@pytest.mark.parametrize("text", CLEAN + RFC3986_1_1_2)
def test_clean(text: str, whatwg: str) -> None:
    same(text)


@pytest.mark.parametrize(
    "text",
    [
        "http://a/b?x=/../%41",  # a query part with "/../" and a triplet
        "http://a/b?../x%41",
        "http://a/%2e%2e/",
        "http://a/..%2F",
        "http://a/%252e%252e/",
        "http://a/%5c..%5c",
        "http://a/%0a",
        "http://a/%7F",
        "http://a/%C3%A9",
        "http://a/%FF",
        "http://localhost/",
        "http://a.localhost/",
        "http://xn--80ak6aa92e.com/",
        "http://example.com:25/",
        "http://example.com:99999/",
        "http://example.com:000080/",
        "http://www.example.com@a.com/",
        "http://user@a.com/",
        "http://user:pw@a.com/",
        "http://a.b.com@a.com/",
        "file:///etc/passwd",
        "file://localhost/etc/passwd",
        "file://C:/x",
        "file://host:80/",
        "http:///x",
        "http:x",
        "https:/x",
        "mailto:a@b.c",
        "javascript:alert(1)",
        "data:text/html,x",
        "jar:http://127.0.0.1!/",
        "view-source:http://127.0.0.1/",
        "http+unix://%2Frun%2Fa.sock/",
        "http://1.2.3.4/",
        "http://0x7f.1/",
        "http://a_b.example/",
        "http://_a.example/",
        "http://a.1/",
        "//a.com/",
        "a/b",
        "",
        "HTTP://A.LocalHost/",
        "https://a.b.localhost?x",
        "https://localhost.a/",
        "WSS://A.B#c",
        "ftp://a.1/",
        "https://a--b.example/",
        "https://XN--80ak6aa92e.com/",
        "https://a.b:/",
        "https://a.b:443/",
        "https://a.b~/",
        "https://a..b/",
        "https://a.b./",
        "https://a.b/%41",
        "git://a.b/",
        "file://a.b/",
        "http+unix://a.b/",
    ],
)
def test_edges(text: str, whatwg: str) -> None:
    same(text)


def test_verdicts() -> None:
    assert screen("https://example.com/a?b#c", URI("https://example.com/a?b#c")) == QUIET
    assert screen("https://example.com/%41", URI("https://example.com/%41")) == QUIET
    assert screen("https://example.com/%C3%A9", URI("https://example.com/%C3%A9")) == ENCODED
    assert screen("https://127.0.0.1/", URI("https://127.0.0.1/")) == LOUD


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("https://example.com/a?b#c", True),
        ("HtTpS://Example.COM", True),
        ("http://a_b.example?x", True),
        ("ws://a.example#f", True),
        ("ftp://a-b.example/", True),
        ("https://a.localhost/", False),  # the local host (RFC 6761 §6.3)
        ("https://a.LOCALHOST", False),
        ("https://xn--80ak6aa92e.com/", False),  # an A-label ("--")
        ("https://a.com/%2e%2e/", False),  # a triplet
        ("https://user@a.com/", False),  # userinfo (RFC 3986 §3.2.1)
        ("https://a.com:8443/", False),  # a port (§3.2.3)
        ("https://a.com:/", False),
        ("https://127.0.0.1/", False),  # no plain name: an IPv4address (§3.2.2)
        ("https://a.0x7f/", False),
        ("https://[::1]/", False),
        ("https://a..com/", False),
        ("https://a.com!/", False),
        ("https:a.com", False),
        ("FILE://a.com/x", True),  # a host that is a plain name (RFC 8089 §2)
        ("file:///x", False),  # the local host: screened
        ("file://localhost/x", False),
        ("gopher://a.com/", False),  # not a scheme the head names
        ("javascript://a.com/", False),
    ],
)
def test_the_plain_head(text: str, plain: bool) -> None:
    assert plain_head(text) is plain
    if plain:
        assert screen(text, URI(text)) == QUIET
        assert audit(text) == full_audit(text) == []


def test_a_registry_that_wraps_a_scheme_is_heard() -> None:
    registry = DEFAULT_REGISTRY.with_scheme(Scheme("wrap", wraps_uri=""))
    text = "wrap:http://127.0.0.1/"
    assert not is_quiet(text, URI(text), registry)
    assert audit(text, registry=registry) == full_audit(text, registry=registry) != []
    # a registry in which "https" wraps a URL: the plain head is for the default one
    wrapping = DEFAULT_REGISTRY.with_scheme(Scheme("https", wraps_uri=""))
    text = "https://example.com/"
    assert plain_head(text)
    assert not is_quiet(text, URI(text), wrapping)
    assert audit(text, registry=wrapping) == full_audit(text, registry=wrapping)


@settings(max_examples=400, deadline=None)
@given(st.one_of(uri_references(), _urls(), _URLISH))
def test_generated(text: str) -> None:
    same(text)


_MUTATIONS = "%2e%2E%2f%5C%00%0a%C3%A9%FF@:.[]\\ \t#?/_-é\u202eɑ0x1"


def test_mutations_of_real_urls() -> None:
    if not CORPUS:
        pytest.skip("bench/urls.txt is not there")
    rng = random.Random(1986)
    for line in rng.sample(CORPUS, 1500):
        for _ in range(2):
            at = rng.randrange(len(line) + 1)
            insert = rng.choice(_MUTATIONS.split("%")[1:] and list(_MUTATIONS))
            if rng.random() < 0.3:
                insert = "%" + rng.choice(["2e", "2E", "2f", "5C", "00", "0a", "C3%A9", "FF", "41"])
            cut = rng.randrange(3) if rng.random() < 0.3 else 0
            same(line[:at] + insert + line[at + cut :])


# --- the map from a lenient reading back to the text: a shift up to the first repair ---

_PIECES = ["a", "/", ":", "?", "#", "[", "]", "%", "%2", "%41", "2", "\u00e9", " ", "\t", "<",
           "\\", "\u202e", "\x00", "http://", "h", "@", "\U0001f600"]  # fmt: skip


def _exact_offsets(text: str, start: int, length: int) -> list[int]:
    """The input index of each character of the repaired text, from the runs replaced."""
    offsets: list[int] = []
    at = start
    for begin, end, size in repair_runs(text)[2]:
        offsets += range(at, begin)
        if size:
            for index, ch in enumerate(text[begin:end]):
                offsets += [begin + index] * (3 * len(ch.encode("utf-8")))
        at = end
    return offsets + list(range(at, at + length - len(offsets)))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=16), st.booleans())
def test_spans_map_back_to_the_characters_repaired(pieces: list[str], delimited: bool) -> None:
    text = "".join(pieces)
    text = f"<{text}>" if delimited else text
    try:
        repaired, reports = repair(text)
    except URIError:
        return
    if not reports:
        return
    start = _body_start(text, reports)
    mapper = _alignment(text, repaired, start, _body_end(text, start, reports))
    offsets = _exact_offsets(text, start, len(repaired))
    assert [mapper((i, i + 1)) for i in range(len(repaired))] == [(o, o + 1) for o in offsets]
