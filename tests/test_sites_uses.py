"""The Public Suffix List where urikit used to guess (issue 29 item 4), and what a site is.

The audit's misleading userinfo and ``extract``'s suffix references read the list
(``tests/test_extract.py`` has the latter's cases); ``is_safe_redirect`` takes
``allowed_sites``; ``site``, ``named_site`` and ``Site`` say what a site is (HTML
Standard §7.1.1.1), and ``same_origin``, ``same_site`` and ``is_safe_redirect`` are held
to one another by properties.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urikit import IRI, URI, URIError, audit, is_safe_redirect, same_origin
from urikit.security import redirect_findings
from urikit.sites import Site, named_site, registrable_domain, same_site, site


def codes(text: str) -> set[str]:
    return {f.code for f in audit(text)}


# --- issue 29 item 4: the audit reads any registrable domain in the userinfo -------------


@pytest.mark.parametrize(
    "text",
    [
        # the issue, verbatim
        "http://good.example@evil.example/",
        "http://paypal.com@evil/",
        "http://login.bank.co.uk:x@evil/",
        # a registrable domain of any top-level domain the list names
        "http://bank.museum@evil.example/",
        "http://bank.co.za@evil.example/",
        "http://mybank.xn--p1ai@evil.example/",  # рф, by its A-label
        "http://bücher.de@evil.example/",  # a U-label name (RFC 3987 §3.1: a userinfo may hold one)
        "http://my.github.io@evil.example/",  # under io, as the ICANN section reads it
        "http://PayPal.COM@evil.example/",
        "http://%70aypal.com@evil.example/",
        "http://user:paypal.com@evil.example/",
    ],
)
def test_userinfo_with_a_registrable_domain_is_misleading(text: str) -> None:
    assert "misleading-userinfo" in codes(text)


def test_the_finding_names_the_domain() -> None:
    (found,) = [f for f in audit("http://login.bank.co.uk:x@evil/") if f.code != "password"]
    assert found.code == "misleading-userinfo"
    assert "the domain name 'login.bank.co.uk'" in found.message
    (found,) = [f for f in audit("http://good.example@evil.example/")]
    assert "the reserved name 'good.example'" in found.message


@pytest.mark.parametrize(
    "text",
    [
        "http://John.Doe@example.com/",  # no top-level domain "doe"
        "http://first.middle.last@example.com/",  # three labels, none of them delegated
        "http://co.uk@example.com/",  # a public suffix alone is no registrable domain
        "http://user@example.com/",
        "http://v1.2@example.com/",  # a number ends it: no domain
    ],
)
def test_userinfo_without_a_registrable_domain_is_not(text: str) -> None:
    assert "misleading-userinfo" not in codes(text)


def test_the_audit_module_keeps_no_list_of_top_level_domains() -> None:
    import urikit.security.checks as checks

    assert not hasattr(checks, "_COMMON_TLDS")
    assert checks.domain_like("example.museum") == "the domain name"
    assert checks.domain_like("example.notatld") is None
    assert checks.domain_like("x.test") == "the reserved name"


# --- Site, site, named_site (HTML Standard §7.1.1.1, "obtain a site") -----------------------


@pytest.mark.parametrize(
    ("uri", "expected"),
    [
        ("https://www.example.co.uk/", Site("https", "example.co.uk")),
        ("HTTPS://WWW.Example.CO.UK:8443/a", Site("https", "example.co.uk")),
        ("http://192.0.2.1:8080/", Site("http", "192.0.2.1")),
        ("http://[2001:DB8::1]/", Site("http", "[2001:db8::1]")),
        ("https://a.github.io/", Site("https", "a.github.io")),
        ("https://github.io/", Site("https", "github.io")),  # a public suffix: its host
        ("http://bücher.example/", Site("http", "xn--bcher-kva.example")),
        ("https://www.example.com./", Site("https", "example.com.")),
        ("/relative", None),
        ("mailto:a@example.com", None),
    ],
)
def test_site(uri: str, expected: Site | None) -> None:
    assert site(uri) == expected
    assert site(IRI(uri)) == expected
    if expected is not None:
        assert site(uri, schemeful=False) == Site(None, expected.host)


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ("example.co.uk", Site(None, "example.co.uk")),
        ("Example.CO.UK", Site(None, "example.co.uk")),
        ("bücher.example", Site(None, "xn--bcher-kva.example")),
        ("192.0.2.1", Site(None, "192.0.2.1")),
        ("[2001:DB8::1]", Site(None, "[2001:db8::1]")),
        ("https://www.example.co.uk/", Site("https", "example.co.uk")),
        ("https://a.github.io", Site("https", "a.github.io")),
        (URI("http://www.example.com:8080/"), Site("http", "example.com")),
    ],
)
def test_named_site(entry: str | URI, expected: Site) -> None:
    assert named_site(entry) == expected


@pytest.mark.parametrize(
    ("entry", "why"),
    [
        ("www.example.com", "its site is 'example.com'"),
        ("co.uk", "is a public suffix"),
        ("github.io", "is a public suffix"),
        ("127.1", "names no domain"),
        ("", "an empty host"),
        ("example.com:8080", "expected"),  # a port: no host
        ("example.com/a", "expected"),
        ("mailto:a@example.com", "expected"),
        ("file:///etc/passwd", "a scheme and a host"),
    ],
)
def test_named_site_refuses_what_names_no_site(entry: str, why: str) -> None:
    with pytest.raises(URIError, match=why):
        named_site(entry)


def test_named_site_refuses_other_types() -> None:
    with pytest.raises(TypeError):
        named_site(42)  # type: ignore[arg-type]


def test_site_includes() -> None:
    assert Site(None, "example.com").includes(Site("http", "example.com"))
    assert Site("https", "example.com").includes(Site("https", "example.com"))
    assert not Site("https", "example.com").includes(Site("http", "example.com"))
    assert not Site(None, "example.com").includes(Site("http", "example.org"))
    assert not Site(None, "example.com").includes(None)


# --- issue 29 item 4: is_safe_redirect(..., allowed_sites=[...]) ----------------------------

BASE = "https://app.example.net/login"


@pytest.mark.parametrize(
    ("target", "sites"),
    [
        ("https://example.co.uk/", ["example.co.uk"]),
        ("https://login.example.co.uk/next", ["example.co.uk"]),
        ("http://a.b.example.co.uk:8080/x?y", ["example.co.uk"]),
        ("https://LOGIN.Example.CO.UK/", ["example.co.uk"]),
        ("https://x.example.co.uk/", ["https://www.example.co.uk/"]),
        ("https://a.github.io/x", ["https://a.github.io"]),
        ("https://192.0.2.1:8443/", ["192.0.2.1"]),
        ("https://[2001:db8::1]/", ["[2001:DB8::1]"]),
        ("https://shop.example.org/", ["example.co.uk", "example.org"]),
        ("https://shop.example.org/", "example.org"),
    ],
)
def test_allowed_sites_allow_a_site_and_all_its_hosts(target: str, sites: list[str]) -> None:
    assert is_safe_redirect(target, base=BASE, allowed_sites=sites)
    assert is_safe_redirect(IRI(target), base=BASE, allowed_sites=sites)
    assert not is_safe_redirect(target, base=BASE)


@pytest.mark.parametrize(
    ("target", "sites"),
    [
        ("https://evil.co.uk/", ["example.co.uk"]),
        ("https://example.co.uk.evil.example/", ["example.co.uk"]),
        ("https://evilexample.co.uk/", ["example.co.uk"]),
        ("http://x.example.co.uk/", ["https://www.example.co.uk/"]),  # a URL's site has its scheme
        ("https://b.github.io/", ["https://a.github.io"]),  # another site under github.io
        ("https://www.example.co.uk./", ["example.co.uk"]),  # another host, so another site
        ("https://192.0.2.10/", ["192.0.2.1"]),
        ("https://0xc0.0.2.1/", ["192.0.2.1"]),  # an address by equality, not by reading
        ("javascript://example.co.uk/%0aalert(1)", ["example.co.uk"]),
        ("//login.example.co.uk/", ["example.co.uk"]),  # network-path: refused as ever
        ("https://u@login.example.co.uk/", ["example.co.uk"]),  # userinfo: refused as ever
    ],
)
def test_allowed_sites_refuse_other_sites(target: str, sites: list[str]) -> None:
    assert not is_safe_redirect(target, base=BASE, allowed_sites=sites)


def test_the_refusal_says_a_site_was_asked_for() -> None:
    (finding,) = redirect_findings("https://evil.example/", base=BASE, allowed_sites=["x.org"])
    assert finding.code == "host-not-allowed"
    assert "nor on an allowed site" in finding.message


@pytest.mark.parametrize("entry", ["www.example.com", "co.uk", "github.io", "example.com/a"])
def test_an_allowed_site_that_names_no_site_raises(entry: str) -> None:
    with pytest.raises(URIError):
        is_safe_redirect("/", base=BASE, allowed_sites=[entry])


def test_an_allowed_site_of_another_type_raises() -> None:
    with pytest.raises(TypeError):
        is_safe_redirect("/", base=BASE, allowed_sites=[42])  # type: ignore[list-item]


# --- same_origin, same_site and is_safe_redirect agree (issue 29, docs/sites.md) ---------

_LABELS = ("www", "a", "example", "co", "uk", "github", "io", "com", "kawasaki", "jp", "city")
hosts = st.one_of(
    st.lists(st.sampled_from(_LABELS), min_size=1, max_size=4).map(".".join),
    st.sampled_from(["192.0.2.1", "[2001:db8::1]", "example.com.", "B\u00fccher.example"]),
)
schemes = st.sampled_from(["http", "https"])
ports = st.sampled_from(["", ":80", ":443", ":8080"])
urls = st.builds(lambda s, h, p: f"{s}://{h}{p}/", schemes, hosts, ports)


def _target(text: str) -> str | IRI:
    """A target as a redirect takes it: a URI as text, an IRI as an ``IRI``."""
    return text if text.isascii() else IRI(text)


@given(urls, urls)
def test_same_origin_is_same_site_is_schemelessly_same_site(a: str, b: str) -> None:
    # same_origin reads a str as a URI, same_site as an IRI: both are given IRIs
    if same_origin(IRI(a), IRI(b)):
        assert same_site(a, b)
    if same_site(a, b):
        assert same_site(a, b, schemeful=False)


@given(urls, urls, st.booleans())
def test_same_site_is_equal_sites(a: str, b: str, schemeful: bool) -> None:
    first, second = site(a, schemeful=schemeful), site(b, schemeful=schemeful)
    assert same_site(a, b, schemeful=schemeful) == (first is not None and first == second)


@given(urls, urls)
def test_allowed_sites_agree_with_same_site(target: str, entry: str) -> None:
    # a URL names its site with its scheme
    allowed = is_safe_redirect(
        _target(target), base="https://unrelated.test/", allowed_sites=[entry]
    )
    assert allowed == same_site(target, entry)


@given(urls, hosts)
def test_allowed_sites_named_alone_agree_with_schemeless_same_site(target: str, host: str) -> None:
    # a registrable domain or an address alone names a site on any scheme
    try:
        entry = named_site(host)
    except URIError:
        assert host[0] != "[" and not host[0].isdigit()  # an address always names a site
        assert registrable_domain(host) != host.lower()
        return
    allowed = is_safe_redirect(
        _target(target), base="https://unrelated.test/", allowed_sites=[host]
    )
    assert allowed == same_site(target, f"http://{host}/", schemeful=False)
    assert allowed == entry.includes(site(target))


def test_same_site_reads_both_uris_before_it_answers() -> None:
    # an opaque first origin does not spare the second its parse
    with pytest.raises(URIError):
        same_site("", '"')
