"""Normalization (RFC 3986 §6.2.2, §6.2.3) and the opt-in protocol steps (§6.2.4)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from strategies import iri_references, known_scheme_references

from urikit import IRI, URI, URIError, is_valid, normalize, resolve
from urikit.normalization import LEVELS, normalize_percent_encoding
from urikit.protocol_steps import STEPS, TRACKING_PARAMS
from urikit.schemes import DEFAULT_REGISTRY, Scheme

VECTORS = json.loads((Path(__file__).parent / "vectors" / "normalization.json").read_text())


def n(text: str, level: str = "scheme", **steps: Any) -> str:
    return str(normalize(text, level=level, **steps))


# --- vectors ----------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "level", "expected", "source"), VECTORS["normalized"])
def test_normalization_vectors(text: str, level: str, expected: str, source: str) -> None:
    assert n(text, level) == expected, source
    assert n(expected, level) == expected, "idempotent"


# --- §6.2.2 syntax-based normalization -------------------------------------------------


def test_rfc3986_6_2_2_example() -> None:
    # RFC 3986 §6.2.2, verbatim.
    assert n("eXAMPLE://a/./b/../b/%63/%7bfoo%7d", "syntax") == "example://a/b/c/%7Bfoo%7D"
    assert n("example://a/b/c/%7Bfoo%7D", "syntax") == "example://a/b/c/%7Bfoo%7D"


def test_rfc3986_6_2_2_1_case_normalization() -> None:
    assert n("HTTP://www.EXAMPLE.com/", "syntax") == "http://www.example.com/"
    assert n("http://a/%3a", "syntax") == "http://a/%3A"
    # Only the hex digits change case, never the encoded data or other components.
    assert n("http://User:PW@a/P?Q#F", "syntax") == "http://User:PW@a/P?Q#F"
    assert n("http://%c3%A9X.com/", "syntax") == "http://%C3%A9x.com/"


def test_rfc3986_6_2_2_2_percent_encoding_normalization() -> None:
    assert n("http://a/%7Euser", "syntax") == "http://a/~user"
    # Reserved characters stay encoded: decoding them would change the structure.
    for encoded in ("%2F", "%3F", "%23", "%40", "%3A", "%26", "%3D", "%2B", "%25"):
        assert n(f"http://a/x{encoded}y?q{encoded}#f{encoded}", "syntax") == (
            f"http://a/x{encoded}y?q{encoded}#f{encoded}"
        )
    # Non-ASCII octets stay encoded (RFC 3987 §5.3.2.3 decodes unreserved only).
    assert n("http://a/%c3%a9", "syntax") == "http://a/%C3%A9"


def test_rfc1630_examples() -> None:
    # RFC 1630, "Escaping" : "marie%2Dclaude" is "marie-claude"; "%2F" is not "/".
    base = "http://info.cern.ch/albert/bertram/"
    assert n(base + "marie%2Dclaude", "syntax") == base + "marie-claude"
    assert n("http://info.cern.ch/albert/bertram%2Fmarie-claude", "syntax") == (
        "http://info.cern.ch/albert/bertram%2Fmarie-claude"
    )


def test_rfc3986_6_2_2_3_path_segment_normalization() -> None:
    assert n("http://a/b/c/./../../g", "syntax") == "http://a/g"
    assert n("http://a/b/c/%2E%2E/d", "syntax") == "http://a/b/d"
    # An opaque path is not hierarchical (§1.2.3).
    assert n("data:text/plain,a/../b") == "data:text/plain,a/../b"


@pytest.mark.parametrize(
    ("ref", "expected"),
    [("/a/../b", "/b"), ("//h/./a/../b", "//h/b"), ("/foo/bar/.", "/foo/bar/"),
     ("./foo/bar", "foo/bar"), ("mid/content=5/../6", "mid/6"), ("a/./b/../b/%63", "a/b/c"),
     ("../a/./b", "../a/b"), ("../foo/bar", "../foo/bar"), ("a/../../b/.", "../b/"),
     (".", "./"), ("..", "../"), ("a/..", "./"), ("./a:b", "./a:b"), ("x/../a:b", "./a:b"),
     (".//b", ".//b"), ("a/..//b", ".//b"), ("/a/..//b", "/.//b"), ("./a?q#f", "a?q#f"),
     ("../x", "../x"), ("a/b", "a/b")],
)  # fmt: skip
def test_dot_segments_of_relative_references(ref: str, expected: str) -> None:
    # §5.2.2 removes the dot-segments of a path after an authority or starting
    # with "/" whatever the base; a relative path keeps the ".." above it.
    for level in ("syntax", "scheme"):
        assert n(ref, level) == expected
    assert n(ref, "string") == ref


_BASES = ("http://a/b/c/d;p?q", "http://a", "http://a/", "foo:/x/y/z/w", "http://a/b//c/")


@given(st.lists(st.sampled_from([".", "..", "a", "", "b:c"]), max_size=8))
def test_relative_dot_segments_keep_the_target(segments: list[str]) -> None:
    text = "/".join(segments)
    assume(is_valid(text))
    ref = URI(text)
    assume(ref.scheme is None and ref.authority is None)  # a relative-path reference
    normal = normalize(ref, level="syntax")
    assert normalize(normal, level="syntax") == normal
    for base in _BASES:
        assert resolve(base, normal) == resolve(base, ref), base


def test_dot_segments_never_make_an_authority() -> None:
    # remove_dot_segments("/.//b") is "//b", which would read as an authority (§3.3).
    assert n("foo:/.//b", "syntax") == "foo:/.//b"
    assert n("foo:/a/..//b", "syntax") == "foo:/.//b"
    assert URI(n("foo:/a/..//b")).authority is None


def test_ip_literals_fold_but_zone_ids_keep_case() -> None:
    assert n("http://[FE80::1%25Eth0]/", "syntax") == "http://[fe80::1%25Eth0]/"
    assert n("http://[v1.AbC]/", "syntax") == "http://[v1.abc]/"


def test_normalize_percent_encoding() -> None:
    assert normalize_percent_encoding("%7e%2f%41%e9") == "~%2FA%E9"
    assert normalize_percent_encoding("Ab%4A", fold_case=True) == "abj"


# --- §6.2.3 scheme-based normalization -------------------------------------------------


def test_rfc3986_6_2_3_example() -> None:
    # RFC 3986 §6.2.3: the four are equivalent, and the second is the normal form.
    for text in (
        "http://example.com",
        "http://example.com/",
        "http://example.com:/",
        "http://example.com:80/",
    ):
        assert n(text) == "http://example.com/"
    # "http://example.com/?" cannot be assumed equivalent: the delimiter stays.
    assert n("http://example.com/?") == "http://example.com/?"
    assert n("http://a/#") == "http://a/#"


def test_ports() -> None:
    assert n("https://a:443/") == "https://a/"
    assert n("https://a:80/") == "https://a:80/"
    assert n("http://a:0080/") == "http://a/"
    assert n("http://a:08080/") == "http://a:8080/"
    assert n("foo://a:/") == "foo://a/"  # an empty port is omitted for every scheme (§3.2.3)
    assert n("foo://a:00/") == "foo://a:0/"
    assert n("http://u@a:80") == "http://u@a/"
    assert n("http://@a:80") == "http://@a/"  # the userinfo delimiter is significant
    assert n("http://a:8080", "syntax") == "http://a:8080"


def test_empty_path_only_where_the_scheme_says() -> None:
    assert n("http://a?q#f") == "http://a/?q#f"
    assert n("foo://a") == "foo://a"  # unknown scheme: no licence
    assert n("mysql://h") == "mysql://h"  # empty_path_is_root is false for mysql


def test_ipv6_rfc5952() -> None:
    assert n("http://[2001:DB8:0:0:0:0:0:1]/") == "http://[2001:db8::1]/"
    assert n("http://[2001:db8:0:1:1:1:1:1]/") == "http://[2001:db8:0:1:1:1:1:1]/"  # §4.2.2
    assert n("http://[1:0:0:1:0:0:0:1]/") == "http://[1:0:0:1::1]/"  # §4.2.3
    assert n("http://[::FFFF:1.2.3.4]:80/") == "http://[::ffff:1.2.3.4]/"  # §5
    assert n("http://[0::1%25en0]/") == "http://[::1%25en0]/"
    assert n("http://[0::1]/", "syntax") == "http://[0::1]/"


def test_file_host_rules() -> None:
    # RFC 8089 §2; RFC 3986 §6.2.3: the default authority is written empty.
    assert n("file://localhost/etc/hosts") == "file:///etc/hosts"
    assert n("FILE://LocalHost/x") == "file:///x"
    assert n("file:/etc/hosts") == "file:///etc/hosts"
    assert n("file://host.example/x") == "file://host.example/x"
    assert n("file://u@localhost/x") == "file://u@localhost/x"
    assert n("file:///C:/x/../y") == "file:///C:/y"


def test_mailto_and_urn_case_rules() -> None:
    # RFC 3986 §6.2.3: "mailto:Joe@Example.COM" is "mailto:Joe@example.com".
    assert n("mailto:Joe@Example.COM") == "mailto:Joe@example.com"
    assert n("mailto:Joe@Example.COM", "syntax") == "mailto:Joe@Example.COM"
    assert n("mailto:A@X.org,B@Y.ORG?subject=Hi") == "mailto:A@x.org,B@y.org?subject=Hi"
    # RFC 8141 §3.1: "urn:" and the NID fold; the NSS does not.
    assert n("URN:ISBN:0451450523") == "urn:isbn:0451450523"
    assert n("urn:example:A%2fB") == "urn:example:A%2FB"


def test_user_registry() -> None:
    mine = DEFAULT_REGISTRY.with_scheme(
        Scheme("myapp", default_port=7000, authority="required", empty_path_is_root=True)
    )
    assert str(normalize("myapp://h:7000", registry=mine)) == "myapp://h/"
    assert n("myapp://h:7000") == "myapp://h:7000"
    loose = DEFAULT_REGISTRY.with_scheme(
        Scheme("ci", case_insensitive=frozenset({"host", "path", "query"}))
    )
    assert str(normalize("ci://H/A%2f?Q#F", registry=loose)) == "ci://h/a%2F?q#F"
    assert str(normalize("http://a:80/", registry=DEFAULT_REGISTRY.without("http"))) == (
        "http://a:80/"
    )


# --- protocol-based steps ---------------------------------------------------------------


def test_no_step_runs_unless_asked() -> None:
    text = "http://a./?b=2&a=1&utm_source=x&#frag"
    assert n(text) == text


def test_drop_fragment() -> None:
    assert n("http://a/#top", drop_fragment=True) == "http://a/"
    assert n("http://a/#", drop_fragment=True) == "http://a/"


def test_sort_query_is_stable() -> None:
    assert n("http://a/?b=2&a=1&b=1&a=0", sort_query=True) == "http://a/?a=1&a=0&b=2&b=1"


def test_drop_empty_query() -> None:
    assert n("http://a/?", drop_empty_query=True) == "http://a/"
    assert n("http://a/?x", drop_empty_query=True) == "http://a/?x"


def test_remove_params() -> None:
    text = "http://a/?utm_source=x&id=1&fbclid=y&UTM_x=1"
    assert n(text, remove_params=TRACKING_PARAMS) == "http://a/?id=1&UTM_x=1"
    assert n("http://a/?utm_medium=x", remove_params=TRACKING_PARAMS) == "http://a/"
    assert n("http://a/?x=1&y=2", remove_params="x") == "http://a/?y=2"
    assert n("http://a/?x=1&y=2", remove_params=lambda name: name == "y") == "http://a/?x=1"
    # Names are compared decoded.
    assert n("http://a/?g%63lid=1&k", remove_params=["gclid"]) == "http://a/?k"


def test_form_query() -> None:
    assert n("http://a/?q=a%20b+c&x=%7e&&y", form_query=True) == "http://a/?q=a+b+c&x=~&y"
    assert n("http://a/?q=a/b:c", form_query=True) == "http://a/?q=a%2Fb%3Ac"
    assert n("http://a/?q=%FF", form_query=True) == "http://a/?q=%FF"


def test_strip_host_dot() -> None:
    assert n("http://example.com./", strip_host_dot=True) == "http://example.com/"
    assert n("http://example.com../", strip_host_dot=True) == "http://example.com/"
    assert n("http://./", strip_host_dot=True) == "http://./"


def test_idna() -> None:
    assert n("http://B%C3%BCcher.example/", idna="a-label") == "http://xn--bcher-kva.example/"
    # U-labels are for display: the result is an IRI, whatever the input.
    shown = normalize("HTTP://xn--bcher-kva.Example:80/%7e", idna="u-label")
    assert type(shown) is IRI and str(shown) == "http://bücher.example/~"
    assert type(normalize(URI("http://a/"), idna="u-label")) is IRI
    iri = normalize(IRI("http://Bücher.example/"), idna="a-label")
    assert type(iri) is IRI and str(iri) == "http://xn--bcher-kva.example/"
    assert str(normalize(IRI("http://xn--bcher-kva.example/"), idna="u-label")) == (
        "http://bücher.example/"
    )
    # ASCII hostnames are left as they are (underscores included).
    assert n("http://my_host.example/", idna="a-label") == "http://my_host.example/"


def test_idna_failure_is_a_uri_error() -> None:
    with pytest.raises(URIError, match="internationalized domain name"):
        normalize("http://xn--zz.example/", idna="a-label")
    with pytest.raises(URIError, match="not UTF-8"):
        normalize("http://%FF.example/", idna="u-label")


def test_unicode_step() -> None:
    # RFC 3987 §5.3.2.2: "re\u0301sume\u0301" is canonically equivalent to "résumé".
    decomposed = IRI("http://www.example.org/re\u0301sume\u0301.html")
    assert str(normalize(decomposed, unicode="NFC")) == "http://www.example.org/résumé.html"
    assert str(normalize(IRI("http://a/ｆｏｏ"), unicode="NFKC")) == "http://a/foo"
    # A delimiter never comes out of a character: U+FF0F FULLWIDTH SOLIDUS is data.
    assert str(normalize(IRI("http://a/x／y"), unicode="NFKC")) == "http://a/x%2Fy"
    assert n("http://a/x", unicode="NFC") == "http://a/x"


def test_step_arguments_are_checked() -> None:
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        normalize("http://a/", drop_frag=True)
    with pytest.raises(ValueError, match="idna"):
        normalize("http://a/", idna="punycode")
    with pytest.raises(TypeError):
        normalize("http://a/", sort_query="yes")
    with pytest.raises(ValueError, match="unknown level"):
        normalize("http://a/", level="protocol")
    assert STEPS[0] == "unicode" and "drop_fragment" in STEPS


# --- types ----------------------------------------------------------------------------------


def test_types() -> None:
    assert type(normalize("HTTP://A")) is URI
    uri = URI("http://a/")
    assert normalize(uri) is uri
    assert type(normalize(IRI("HTTP://Ä.example/%7e"))) is IRI
    assert str(normalize(IRI("HTTP://ÄB.example/%7e"))) == "http://Äb.example/~"
    assert URI("HTTP://A").normalize() == "http://a/"
    assert n("http://A", "string") == "http://A"
    with pytest.raises(URIError):
        normalize("http://a b/")


# --- laws --------------------------------------------------------------------------------


def _steps() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {},
        optional={
            "drop_fragment": st.just(True),
            "sort_query": st.just(True),
            "drop_empty_query": st.just(True),
            "remove_params": st.sampled_from([TRACKING_PARAMS, ("a", "b*")]),
            "form_query": st.just(True),
            "strip_host_dot": st.just(True),
        },
    )


@given(known_scheme_references(), st.sampled_from(LEVELS))
def test_idempotent_reparses_equivalent(text: str, level: str) -> None:
    once = normalize(text, level=level)
    assert URI(str(once)) == once
    assert normalize(once, level=level) == once
    assert normalize(text, level="scheme") == normalize(once, level="scheme")


@given(known_scheme_references(), _steps())
def test_steps_idempotent(text: str, steps: dict[str, Any]) -> None:
    once = normalize(text, **steps)
    assert normalize(once, **steps) == once
    assert URI(str(once)) == once


def test_quick_path_reports_errors_at_the_input() -> None:
    # Invalid input that looks like a URL with an empty path: the error is the input's.
    with pytest.raises(URIError) as info:
        normalize("http://a b")
    assert info.value.text == "http://a b" and info.value.position == 8


@given(iri_references(), st.sampled_from([{}, {"unicode": "NFC"}, {"unicode": "NFKC"}]))
def test_iri_laws(text: str, steps: dict[str, Any]) -> None:
    once = normalize(IRI(text), **steps)
    assert type(once) is IRI
    assert normalize(once, **steps) == once


# --- the command -------------------------------------------------------------------------------


def test_cli_normalize_unique(capsys: pytest.CaptureFixture[str], monkeypatch: Any) -> None:
    import io

    from urikit.cli import main

    lines = [
        "HTTP://Example.com",
        "http://example.com:80/",
        "http://[::1",
        "http://a/%7e",
        "http://a/~",
        "http://x/?utm_source=1",
        "http://x",
    ]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    status = main(["normalize", "--unique", "--remove-tracking", "--drop-empty-query"])
    out = capsys.readouterr().out.splitlines()
    assert status == 1  # one input was invalid
    assert out[0] == "http://example.com/"
    assert out[1].startswith("error: http://[::1")
    assert [line for line in out if line.startswith("http")] == [
        "http://example.com/",
        "http://a/~",
        "http://x/",
    ]


def test_cli_normalize_levels_and_original(capsys: pytest.CaptureFixture[str]) -> None:
    from urikit.cli import main

    assert main(["normalize", "--level", "syntax", "HTTP://A:80"]) == 0
    assert capsys.readouterr().out == "http://a:80\n"
    assert main(["normalize", "--unique", "--original", "HTTP://A", "http://a/"]) == 0
    assert capsys.readouterr().out == "HTTP://A\n"
    assert main(["normalize", "--json", "http://a/#x", "--drop-fragment"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record == {"input": "http://a/#x", "ok": True, "normalized": "http://a/"}


def test_cli_compare(capsys: pytest.CaptureFixture[str]) -> None:
    from urikit.cli import main

    assert main(["compare", "example://a/b/c/%7A", "eXAMPLE://a/./b/../b/c/%7a"]) == 0
    assert capsys.readouterr().out == "syntax\n"
    assert main(["compare", "http://a/b%2Fc", "http://a/b/c"]) == 1
    assert capsys.readouterr().out == "different\n"
    assert main(["compare", "http://a/#x", "http://a/", "--drop-fragment", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rung"] == "protocol"
    assert main(["compare", "http://a b", "http://a/"]) == 1
    assert capsys.readouterr().out.startswith("error: http://a b")


def test_cli_unique_iris_by_their_uri_form(capsys: pytest.CaptureFixture[str]) -> None:
    from urikit.cli import main

    args = ["normalize", "--iri", "--unique", "http://a/é", "http://a/%C3%A9", "HTTP://A/%c3%a9"]
    assert main(args) == 0
    assert capsys.readouterr().out == "http://a/é\n"
    assert main(["normalize", "--original", "http://a b"]) == 1
    assert capsys.readouterr().out.startswith("error: http://a b")


_REAL_URLS = Path(__file__).parent.parent / "bench" / "urls.txt"


def test_a_port_of_thousands_of_digits_is_kept_not_an_error() -> None:
    # §3.2.3: port = *DIGIT; int() of such a string would fail, a comparison does not
    text = "http://a:" + "1" * 5000 + "/"
    assert str(normalize(text)) == text
    assert str(normalize("http://a:" + "0" * 4000 + "80/x")) == "http://a/x"
