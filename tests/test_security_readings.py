"""The audit on every reading of a text, wrapped URLs at any depth, misleading userinfo
with reserved names, and every ``+xml`` media type in ``data:``."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urikit.schemes import DEFAULT_REGISTRY, Scheme
from urikit.security import audit
from urikit.security.audit import innermost
from urikit.security.differential import has_ada
from urikit.security.readings import READINGS, Texts, check_readings, host_reason

# --- internal-address on every reading (issue 27.6) ------------------------------------


@pytest.mark.parametrize(
    ("text", "readings"),
    [
        ("http:///127.0.0.1/", ["the WHATWG URL parser"]),
        ("http://127.0.0.1\t/", ["the WHATWG URL parser"]),
        ("http://127.0.0.1\\@evil.com/", ["the WHATWG URL parser"]),
        ("http://127\\0.0.1/", ["the WHATWG URL parser"]),  # host "127": 0.0.0.127
        ("http://a@b@127.0.0.1/", ["urllib.parse.urlsplit", "the WHATWG URL parser"]),
    ],
)
def test_internal_hosts_of_other_readings_are_internal_addresses(
    text: str, readings: list[str]
) -> None:
    found = [f for f in audit(text) if f.code == "internal-address"]
    assert found, "a browser reads an internal host here"
    messages = " ".join(f.message for f in found)
    for name in readings:
        assert name in messages


def test_the_lenient_repair_is_a_reading_named_in_its_finding() -> None:
    (found,) = [f for f in audit("http://127.0.0.1/a b") if f.code == "internal-address"]
    assert found.span == (7, 16)
    assert found.message.startswith(
        "the lenient repair, urllib.parse.urlsplit and the WHATWG URL parser read the host"
    )
    # no lenient repair reads "80 " as a port: urllib.parse does
    (found,) = [f for f in audit("http://10.0.0.1:80 /") if f.code == "internal-address"]
    assert found.message.startswith("urllib.parse.urlsplit reads") and found.span == (7, 15)


def test_a_host_judged_by_the_strict_reading_is_not_reported_again() -> None:
    found = [f for f in audit("http://127.0.0.1/") if f.code == "internal-address"]
    assert len(found) == 1 and "reads" not in found[0].message


def test_readings_are_a_list_of_functions_giving_a_host() -> None:
    names = [name for name, _ in READINGS]
    assert names == ["the lenient repair", "urllib.parse.urlsplit", "the WHATWG URL parser"]
    hosts = {name: reading(Texts("http://a@b@c.example/", None)) for name, reading in READINGS}
    assert hosts == {
        "the lenient repair": None,
        "urllib.parse.urlsplit": "c.example",
        "the WHATWG URL parser": "c.example",
    }


def test_check_readings_names_each_reading_once_per_host() -> None:
    findings: list = []
    check_readings(Texts("http://a@b@127.1/", None), None, lambda span: span, findings)
    (found,) = findings
    assert found.message.startswith("urllib.parse.urlsplit and the WHATWG URL parser read")


def test_file_urls_are_exempt_on_every_reading() -> None:
    assert [f for f in audit("file:///127.0.0.1\\x") if f.code == "internal-address"] == []


@pytest.mark.parametrize(
    ("host", "internal"),
    [
        ("127.0.0.1", True),
        ("0x7f.1", True),
        ("[::1]", True),
        ("[fe80::1%25eth0]", True),
        ("localhost", True),
        ("localhost.", True),
        ("localhost..", True),
        ("a.localhost..", True),
        ("LOCALHOST", True),
        ("example.com", False),
        ("localhost.example", False),
        ("[v1.x]", False),
        ("8.8.8.8", False),
    ],
)
def test_host_reason(host: str, internal: bool) -> None:
    assert (host_reason(host) is not None) == internal


@pytest.mark.parametrize("text", ["http://localhost../", "http://a.localhost../"])
def test_names_a_resolver_reads_as_localhost_are_internal(text: str) -> None:
    assert "internal-address" in {f.code for f in audit(text)}


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["127.0.0.1", "0x7f.1", "10.0.0.1", "169.254.169.254", "[::1]", "localhost"]),
    st.sampled_from(["\t", "\n", "\\", "\\@evil.example", " "]),
    st.sampled_from(["http://", "https://", "http:///", "http:\\\\", "  http://"]),
)
def test_a_browser_never_reaches_an_internal_host_unreported(
    host: str, trick: str, head: str
) -> None:
    text = head + host + trick + "/x"
    codes = {f.code for f in audit(text)}
    whatwg = next(reading for name, reading in READINGS if "WHATWG" in name)
    read = whatwg(Texts(text, None))
    if read is not None and host_reason(read) is not None:
        assert "internal-address" in codes


# --- wrapped URLs at any depth (issue 27.4) ----------------------------------------------


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5, 50])
@pytest.mark.parametrize(
    "host", ["127.0.0.1", "0x7f000001", "2130706433", "0177.0.0.1", "127.1", "[::1]"]
)
def test_feed_wrapped_at_any_depth(depth: int, host: str) -> None:
    text = "feed:" * depth + f"http://{host}/"
    found = {f.code: f for f in audit(text)}
    assert "internal-address" in found
    start = 5 * depth + 7
    assert found["internal-address"].span[0] == start
    assert "feed: wraps" in found["internal-address"].message


@pytest.mark.parametrize(
    "prefix",
    [
        "jar:feed:",
        "view-source:feed:jar:",
        "FEED:View-Source:",
        "  feed:",
        "view-source:" * 7,
        "jar:jar:jar:jar:",
    ],
)
def test_wrapping_schemes_mixed(prefix: str) -> None:
    text = prefix + "http://169.254.169.254/latest!/x"
    found = [f for f in audit(text) if f.code == "internal-address"]
    assert found and found[0].span == (len(prefix) + 7, len(prefix) + 22)


def test_innermost() -> None:
    assert innermost("feed:feed:http://a/", DEFAULT_REGISTRY) == (10, 19, 2, ["feed"])
    assert innermost("jar:jar:http://a/x.jar!/y.jar!/z", DEFAULT_REGISTRY)[:3] == (8, 22, 2)
    assert innermost("feed://a/", DEFAULT_REGISTRY) == (0, 9, 0, [])
    assert innermost("feed:feed://a/", DEFAULT_REGISTRY) == (5, 14, 1, ["feed"])
    assert innermost("feed:feed:", DEFAULT_REGISTRY) == (5, 10, 1, ["feed"])
    assert innermost("http://a/", DEFAULT_REGISTRY) == (0, 9, 0, [])
    registry = DEFAULT_REGISTRY.with_scheme(Scheme("wrap", wraps_uri=";;"))
    assert innermost("wrap:wrap:http://127.1;;x", registry) == (10, 22, 2, ["wrap"])


@given(
    st.lists(st.sampled_from(["feed:", "jar:", "view-source:", "JAR:"]), min_size=1, max_size=30)
)
def test_innermost_is_the_last_wrapping_level(prefixes: list[str]) -> None:
    text = "".join(prefixes) + "http://10.0.0.1/"
    start, end, levels, _ = innermost(text, DEFAULT_REGISTRY)
    assert (text[start:end], levels) == ("http://10.0.0.1/", len(prefixes))


def test_deep_wrapping_is_linear() -> None:
    # a count of operations, not of time: the run of schemes is matched at once
    text = "feed:jar:" * 100_000 + "http://127.0.0.1/"
    start, end, levels, schemes = innermost(text, DEFAULT_REGISTRY)
    assert (levels, schemes, text[start:end]) == (200_000, ["feed", "jar"], "http://127.0.0.1/")


# --- reserved names in userinfo (issue 26.10) --------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "http://good.example@evil.example/",
        "http://example.com@evil.example/",
        "http://example.org@evil.example/",
        "http://www.test@evil.example/",
        "http://a.invalid@evil.example/",
        "http://localhost@evil.example/",
        "http://app.localhost@evil.example/",
        "http://x.168.192.in-addr.arpa@evil.example/",
        "http://paypal.com@evil.example/",
        "http://user:pw@good.example@evil.example/",
    ],
)
def test_userinfo_that_looks_like_a_reserved_or_known_host(text: str) -> None:
    assert "misleading-userinfo" in {f.code for f in audit(text)}


@pytest.mark.parametrize(
    "text",
    [
        "http://John.Doe@example.com/",
        "http://user@example.com/",
        "http://examples@example.com/",
        "http://test@example.com/",  # a one-label user name is no host name
    ],
)
def test_userinfo_that_is_a_user_name(text: str) -> None:
    assert "misleading-userinfo" not in {f.code for f in audit(text)}


# --- every +xml media type in data: (issue 27.10) --------------------------------------

_XHTML = (
    "%3Chtml%20xmlns%3D%22http%3A%2F%2Fwww.w3.org%2F1999%2Fxhtml%22%3E"
    "%3Cscript%3Ealert(1)%3C%2Fscript%3E%3C%2Fhtml%3E"
)


@pytest.mark.parametrize(
    "media_type",
    [
        "application/rss+xml",
        "application/atom+xml",
        "text/foo+xml",
        "application/xhtml+xml",
        "image/svg+xml",
        "APPLICATION/RSS+XML",
        "application/rss+xml;charset=utf-8",
    ],
)
def test_every_xml_media_type_is_active_content(media_type: str) -> None:
    (found,) = audit(f"data:{media_type},{_XHTML}")
    assert found.code == "active-content-scheme"


@pytest.mark.parametrize("media_type", ["application/json", "text/plain", "application/xml-dtd"])
def test_other_media_types_are_not(media_type: str) -> None:
    assert audit(f"data:{media_type},{_XHTML}") == []


def test_the_whatwg_reading_is_ada_when_installed() -> None:
    # with ada (the whatwg extra), "http://127\\0.0.1/" reads as the IPv4 number 127
    whatwg = READINGS[2][1]
    host = whatwg(Texts("http://127\\0.0.1/", None))
    assert host == ("0.0.0.127" if has_ada() else "127")
    assert host_reason(host) is not None
