"""Open-redirect checks: ``urikit.redirect.is_safe_redirect`` (RFC 3986 §5.2, §7.6)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urikit import IRI, URI, URIError
from urikit.security.redirect import _UNJUDGED, is_safe_redirect, redirect_findings

BASE = "https://example.com/login?next=x"

SAFE = [
    "",
    "#top",
    "?next=2",
    "account",
    "./account",
    "../account",
    "/account/settings?tab=1#x",
    "/a%2Fb",
    "https://example.com/x",
    "HTTPS://EXAMPLE.COM/x",
    "https://example.com:443/x",
    "http://example.com/x",  # same host; allowed schemes decide about http
    "http://example.com:80/x",
    "https://example.com./x",
]


@pytest.mark.parametrize("target", SAFE)
def test_safe_targets(target: str) -> None:
    assert is_safe_redirect(target, base=BASE) is True
    assert redirect_findings(target, base=BASE) == []


UNSAFE = {
    "network-path": ["//evil.example", "//evil.example/path", "///evil.example", "//example.com/"],
    "backslash": [
        "/\\evil.example",
        "\\\\evil.example",
        "\\/evil.example",
        "https:\\\\evil.example",
    ],
    "control": [
        "/\tevil",
        " //evil.example",
        "/\r\nSet-Cookie: a=b",
        "/a%0d%0aLocation:%20https://evil.example",
        "/%00",
        "java\nscript:alert(1)",
    ],
    "parser-differential": ["https:evil.example", "https:/evil.example", "http:evil.example/x"],
    "scheme-not-allowed": [
        "javascript:alert(1)",
        "JavaScript:alert(document.domain)",
        "data:text/html;base64,PHNjcmlwdD4=",
        "vbscript:msgbox",
        "ftp://example.com/",
        "mailto:a@example.com",
    ],
    "host-not-allowed": [
        "https://evil.example/",
        "http://evil.example/",
        "https://example.com.evil.example/",
        "https://evilexample.com/",
        "https://example.com:8443/",
        "https://[::1]/",
        "https://127.0.0.1/",
    ],
    "userinfo": ["https://example.com@evil.example/", "https://user:pw@example.com/"],
    "invalid": [
        "data:text/html,<script>alert(1)</script>",
        "https://exa mple.com/".replace(" ", "%"),
        "/a<b",
        "http://[::1/",
    ],
}


@pytest.mark.parametrize(
    ("code", "target"), [(code, t) for code, targets in UNSAFE.items() for t in targets]
)
def test_unsafe_targets(code: str, target: str) -> None:
    assert is_safe_redirect(target, base=BASE) is False
    assert code in {f.code for f in redirect_findings(target, base=BASE)}


def test_encoded_slashes_that_make_a_network_path() -> None:
    assert not is_safe_redirect("/%2F/evil.example", base=BASE)
    assert not is_safe_redirect("/%5Cevil.example", base=BASE)


def test_allowed_hosts() -> None:
    assert is_safe_redirect(
        "https://accounts.example.org/", base=BASE, allowed_hosts=["accounts.example.org"]
    )
    assert is_safe_redirect("https://a.example.org/", base=BASE, allowed_hosts=[".example.org"])
    assert is_safe_redirect("https://example.org/", base=BASE, allowed_hosts=[".example.org"])
    assert not is_safe_redirect(
        "https://badexample.org/", base=BASE, allowed_hosts=[".example.org"]
    )
    assert is_safe_redirect(
        "https://example.com:8443/", base=BASE, allowed_hosts=["example.com:8443"]
    )
    assert not is_safe_redirect(
        "https://example.com:9000/", base=BASE, allowed_hosts=["example.com:8443"]
    )
    assert is_safe_redirect("https://evil.example/", base=BASE, allowed_hosts="evil.example")


def test_allowed_hosts_do_not_override_other_checks() -> None:
    hosts = ["evil.example"]
    assert not is_safe_redirect("//evil.example/", base=BASE, allowed_hosts=hosts)
    assert not is_safe_redirect("https://u@evil.example/", base=BASE, allowed_hosts=hosts)
    assert not is_safe_redirect(
        "javascript://evil.example/%0aalert(1)", base=BASE, allowed_hosts=hosts
    )


def test_allowed_schemes() -> None:
    assert not is_safe_redirect("http://example.com/", base=BASE, allowed_schemes=("https",))
    assert is_safe_redirect("myapp://example.com/cb", base=BASE, allowed_schemes=["myapp"])
    assert not is_safe_redirect("/x", base="http://example.com/", allowed_schemes=("https",))


def test_uri_objects_are_accepted() -> None:
    assert is_safe_redirect(URI("/x"), base=URI(BASE))
    assert not is_safe_redirect(URI("//evil.example"), base=URI(BASE))


def test_same_host_at_another_port_of_the_base() -> None:
    base = "http://example.com:8000/app/"
    assert is_safe_redirect("/other", base=base)
    assert is_safe_redirect("http://example.com:8000/x", base=base)
    assert is_safe_redirect("https://example.com/x", base=base)
    assert not is_safe_redirect("http://example.com:9000/x", base=base)


def test_a_bad_base_is_an_error() -> None:
    with pytest.raises(URIError):
        is_safe_redirect("/x", base="/relative")
    with pytest.raises(URIError):
        is_safe_redirect("/x", base="not a uri")


# --- IRIs, as targets and bases: always a bool (issue 27.8) ---------------------------


@pytest.mark.parametrize(
    ("target", "base", "safe"),
    [
        (IRI("https://ｅｘａｍｐｌｅ.com/"), BASE, True),  # UTS #46 maps it to example.com
        (IRI("https://ｅｘａｍｐｌｅ.com/"), IRI(BASE), True),
        (IRI("https://a%40b%40c／"), IRI(BASE), False),  # urlsplit refuses its NFKC form
        (IRI("https://a%40b%40c／"), BASE, False),
        (IRI("/café"), BASE, True),
        (IRI("/café"), IRI("https://exämple.com/"), True),
        (URI("/x"), IRI("https://exämple.com/"), True),
        (IRI("https://évil.example/"), BASE, False),
    ],
)
def test_iri_targets_and_bases_give_a_bool(target: IRI | URI, base: str | IRI, safe: bool) -> None:
    assert is_safe_redirect(target, base=base) is safe
    for finding in redirect_findings(target, base=base):
        assert not finding.message.startswith(_UNJUDGED)


@settings(max_examples=400, deadline=None)
@given(
    st.text(alphabet="/:%@.?#ｅé／＠\u3002ｘa4b0c[]\\", max_size=20),
    st.sampled_from(["https://", "http://", "//", "/", ""]),
    st.sampled_from([BASE, IRI(BASE), URI(BASE), IRI("https://exämple.com/a")]),
)
def test_any_iri_target_is_judged(tail: str, head: str, base: str | IRI | URI) -> None:
    try:
        target = IRI(head + tail)
    except URIError:
        return
    assert isinstance(is_safe_redirect(target, base=base), bool)
    for finding in redirect_findings(target, base=base):
        assert not finding.message.startswith(_UNJUDGED), finding.message
