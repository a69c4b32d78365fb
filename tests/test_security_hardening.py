"""Hardening of urikit.security: redirects, wrapped URLs, emoji, internal addresses, cost."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from linear import cpu_seconds

import urikit.security
from urikit import URI, URIError
from urikit.report import Report
from urikit.schemes import DEFAULT_REGISTRY, Scheme
from urikit.security import (
    audit,
    differential,
    is_internal_address,
    is_safe_redirect,
    redirect_findings,
)
from urikit.security.audit import full_audit
from urikit.security.findings import AUDIT_CODES, REDIRECT_CODES, REPAIR_CODES

BASE = "https://example.com/login?next=x"


def test_public_names() -> None:
    assert set(urikit.security.__all__) == {
        "Code",
        "audit",
        "is_internal_address",
        "is_safe_redirect",
        "lenient_ipv4",
        "redirect_findings",
        # host names (security/names.py)
        "RESERVED_NAMES",
        "HostError",
        "check_host",
        "is_dns_name",
        "is_public_dns_name",
        "is_public_host",
        # peers and the transports (security/peers.py, transport_httpx.py, transport_requests.py)
        "InternalPeerError",
        "PeerGuard",
        "UnsafeRedirectError",
        "system_resolver",
        "GuardedTransport",
        "AsyncGuardedTransport",
        "InternalPeerConnectError",
        "UnsafeRedirectTransportError",
        "GuardedAdapter",
        "InternalPeerConnectionError",
        "UnsafeRedirectRequestError",
    }
    for name in urikit.security.__all__:
        assert getattr(urikit.security, name) is not None


# --- redirects: encoded backslashes, slashes and dots ---------------------------------

REFUSED = {
    "encoded-backslash": ["/a%5cb", "/x/%5cgoogle.com", "/https://%5cgoogle.com", "/%5C%5Cevil"],
    "encoded-network-path": [
        "/.%2F%2Fevil",
        "/%2e/%2Fevil",
        "/%2f%2fevil",
        "/%2F/evil.example",
        "/%252f%252fevil",  # encoded twice
        "/%2e%2e/%2f%2fevil",
    ],
    "network-path": ["/.//evil", "a/../..//evil"],
    "encoded-host": ["https%3A%2F%2Fevil.example", "javascript%3Aalert(1)"],
}


@pytest.mark.parametrize(
    ("code", "target"), [(code, t) for code, targets in REFUSED.items() for t in targets]
)
def test_decoding_tricks_are_refused_and_named(code: str, target: str) -> None:
    assert not is_safe_redirect(target, base=BASE)
    assert {f.code for f in redirect_findings(target, base=BASE)} == {code}


@pytest.mark.parametrize(
    "target",
    ["/my%20file.pdf", "/a%2Fb", "/100%25", "/search?q=a%2Fb%3Ac", "/caf%C3%A9", "%2e%2e/x"],
)
def test_ordinary_encoded_characters_are_allowed(target: str) -> None:
    assert redirect_findings(target, base=BASE) == []


def test_allowed_host_ports_are_ascii_digits() -> None:
    with pytest.raises(URIError) as info:
        is_safe_redirect("https://h/", base=BASE, allowed_hosts=["h:²"])
    assert info.value.position == 2 and info.value.rule == "port"
    assert is_safe_redirect("https://h:8443/", base=BASE, allowed_hosts=["h:8443"])
    assert is_safe_redirect("https://[::1]:8080/", base=BASE, allowed_hosts=["[::1]:8080"])
    assert not is_safe_redirect("https://[::1]:9/", base=BASE, allowed_hosts=["[::1]:8080"])


@pytest.mark.parametrize(
    "target",
    [
        "tcp://127.0.0.1:2388888080/x",
        "https://example.com:65536/",
        "//h:99999",
        "https%3A%2F%2Fexample.com%3A" + "9" * 5000,  # decodes to a port of 5000 digits
    ],
)
def test_a_port_above_65535_in_the_target_is_refused_not_raised(target: str) -> None:
    findings = redirect_findings(target, base=BASE)
    assert findings and isinstance(is_safe_redirect(target, base=BASE), bool)
    if "://" in target:
        assert [(f.code, f.component) for f in findings] == [("invalid", "port")]
        assert "65535" in findings[0].message


def test_a_base_port_above_65535_is_a_bad_base() -> None:
    with pytest.raises(URIError) as info:
        is_safe_redirect("/x", base="https://example.com:65536/")
    assert info.value.rule == "port" and info.value.position == len("https://example.com:")


def test_arguments_of_other_types_are_type_errors() -> None:
    with pytest.raises(TypeError):
        is_safe_redirect(b"/x", base=BASE)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        is_safe_redirect("/x", base=BASE, allowed_hosts=[1])  # type: ignore[list-item]


@settings(max_examples=300, deadline=None)
@given(
    target=st.text(),
    host=st.text(max_size=12),
    base=st.one_of(st.just(BASE), st.text(max_size=20)),
)
def test_any_text_raises_only_the_documented_errors(target: str, host: str, base: str) -> None:
    try:
        result = is_safe_redirect(target, base=base, allowed_hosts=[host])
    except URIError:
        return
    assert isinstance(result, bool)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="/.%25fFeE2Cc5\\:@evil", max_size=16))
def test_any_target_is_judged_without_raising(target: str) -> None:
    findings = redirect_findings(target, base=BASE)
    assert {f.code for f in findings} <= REDIRECT_CODES
    if not findings:
        assert "%5c" not in target.lower() and "\\" not in target


# --- wrapped URLs -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "code", "span"),
    [
        ("jar:http://127.0.0.1!/", "internal-address", (11, 20)),
        ("jar:jar:http://10.0.0.1/a.jar!/b.jar!/c", "internal-address", (15, 23)),
        ("view-source:http://169.254.169.254/latest", "internal-address", (19, 34)),
        ("feed:https://a@www.example.com@evil.example/", "misleading-userinfo", (13, 30)),
    ],
)
def test_wrapped_urls_are_audited(text: str, code: str, span: tuple[int, int]) -> None:
    found = {(f.code, f.span): f for f in audit(text)}
    assert (code, span) in found
    assert "wraps" in found[(code, span)].message


def test_wrapping_is_registry_data() -> None:
    registry = DEFAULT_REGISTRY.with_scheme(Scheme("wrap", wraps_uri=";;"))
    found = {(f.code, f.span) for f in audit("wrap:http://127.1;;x", registry=registry)}
    assert found == {("ipv4-rare-format", (12, 17)), ("internal-address", (12, 17))}
    assert audit("wrap:http://127.1;;x") == []
    assert audit("feed://example.com/rss") == []


def test_wrapping_is_unwrapped_to_any_depth() -> None:
    text = "view-source:" * 1000 + "http://127.0.0.1/"
    (found,) = audit(text)
    assert (found.code, found.span) == ("internal-address", (12007, 12016))
    assert "1000 levels deep" in found.message


# --- emoji -----------------------------------------------------------------------


@pytest.mark.parametrize("text", ["https://i\u2764\ufe0f.ws", "https://x.example/1\ufe0f\u20e3"])
def test_emoji_presentation_selectors_are_not_invisible(text: str) -> None:
    assert audit(text) == []


@pytest.mark.parametrize(
    "text", ["https://exa\ufe0fmple.com/", "https://example.com/\ufe0f", "https://a\u200b.com/"]
)
def test_other_selectors_are_invisible(text: str) -> None:
    assert "invisible-character" in {f.code for f in audit(text)}


# --- internal addresses --------------------------------------------------------------


@pytest.mark.parametrize(
    "address",
    ["127.0.0.1", "10.1.2.3", "169.254.169.254", "::1", "::ffff:127.0.0.1", "fe80::1%eth0"],
)
def test_internal_addresses(address: str) -> None:
    assert is_internal_address(address)
    assert is_internal_address(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", ["93.184.215.14", "2606:4700::1111", "8.8.8.8"])
def test_public_addresses(address: str) -> None:
    assert not is_internal_address(address)


def test_an_address_that_is_not_one() -> None:
    with pytest.raises(URIError) as info:
        is_internal_address("localtest.me")
    assert (info.value.position, info.value.text) == (0, "localtest.me")


# --- the differential is skipped only where the parsers agree ------------------------

BENCH_URLS = Path(__file__).parent.parent / "bench" / "urls.txt"

_URLISH = st.text(alphabet="htps:/.@%[]?#1a-0xnAé\\\t ", max_size=24)
_HOSTS = st.from_regex(r"[a-zA-Z0-9.\-]{1,12}", fullmatch=True)
_SCHEMES = st.sampled_from(["http", "https", "HTTP", "ftp", "file", "ws", "foo", "x-y", "mailto"])


@st.composite
def _urls(draw: st.DrawFn) -> str:
    scheme = draw(_SCHEMES)
    host = draw(st.one_of(_HOSTS, st.from_regex(r"[0-9]{1,3}(\.[0-9]{1,3}){0,4}", fullmatch=True)))
    port = draw(st.one_of(st.just(""), st.from_regex(r":[0-9]{0,6}", fullmatch=True)))
    rest = draw(st.text(alphabet="/a?#=&.%2F", max_size=8))
    return f"{scheme}://{host}{port}/{rest}"


def _differential_agrees(text: str) -> bool:
    """Does ``agree`` hold for ``text``?  When it does, the full check must find nothing."""
    try:
        ref = URI(text)
    except URIError:
        return False
    if not differential.agree(text, ref):
        return False
    assert differential.differential_findings(text, ref) == [], text
    return True


@pytest.mark.parametrize("reader", ["urikit", "ada"])
def test_agreement_holds_on_real_urls(reader: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if reader == "ada":  # a test oracle in the place of urikit.whatwg.URL
        monkeypatch.setattr(differential, "URL", pytest.importorskip("ada_url").URL)
    if not BENCH_URLS.exists():
        pytest.skip("bench/urls.txt is not there")
    lines = BENCH_URLS.read_text(encoding="utf-8").splitlines()
    agreed = sum(_differential_agrees(line) for line in lines)
    assert agreed > len(lines) // 2  # the skip serves most real URLs


@settings(max_examples=500, deadline=None)
@given(st.one_of(_urls(), _URLISH))
def test_agreement_holds_on_generated_urls(text: str) -> None:
    _differential_agrees(text)


# --- cost ----------------------------------------------------------------------------


def _cpu(text: str, check: Callable[[str], object] = audit) -> float:
    return cpu_seconds(lambda: check(text))


@pytest.mark.parametrize(
    "hostile",
    [
        "http://a/" + "\t" * 200_000,
        "http://" + "@" * 200_000,
        "\ufe0f" * 200_000,
        "jar:" * 50_000,
        "view-source:" * 20_000,
        "http://a/" + "%00" * 60_000,
    ],
    ids=["tabs", "at", "selectors", "jar", "view-source", "encoded-nul"],
)
def test_hostile_input_costs_a_small_multiple_of_clean_input(hostile: str) -> None:
    # audit proves a clean URL quiet with one parse; full_audit runs every check on it
    clean = "http://example.com/?" + "a=b&" * (len(hostile) // 4)
    best = min(_cpu(hostile) / max(_cpu(clean, full_audit), 1e-3) for _ in range(3))
    # The pure path reads the hostile text with the readable WHATWG parser too (the
    # parser differential), a step in Python per character; a blow-up is hundreds.
    assert best < (20 if urikit.compiled else 40)


def test_findings_are_reports_with_known_codes() -> None:
    for text in ["http://a b@127.1/%2e%2e/\u202e", "jar:http://[::1]!/", "<http://x/>"]:
        for f in audit(text):
            assert isinstance(f, Report)
            assert f.code in AUDIT_CODES | REPAIR_CODES
            assert f.repaired == (f.code in REPAIR_CODES)
