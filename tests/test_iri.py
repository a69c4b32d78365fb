"""IRIs (RFC 3987): syntax (§2.2, §4.1) and the IRI <-> URI conversions (§3.1, §3.2).

RFC examples are quoted verbatim; the RFC's XML notation ``&#xE9;`` is
written here as the escape ``\\u00e9``.
"""

from __future__ import annotations

import pickle

import pytest

from urikit import IRI, URI, URIError, is_valid, mapping
from urikit.components import Parts


def _parts(ref: URI | IRI) -> Parts:
    return Parts(*(getattr(ref, name) for name in Parts._fields))


def iri_to_uri(text: str | URI | IRI, *, idna: bool = False, nfc: bool = False) -> URI:
    """RFC 3987 §3.1 on a reference read as an IRI, through ``urikit.mapping``."""
    ref = IRI(text)
    return URI(mapping.iri_to_uri(str(ref), _parts(ref), idna=idna, nfc=nfc))


def uri_to_iri(text: str | URI | IRI, *, idna: bool = False) -> IRI:
    """RFC 3987 §3.2 on a reference read as an IRI, through ``urikit.mapping``."""
    ref = IRI(text)
    return IRI(mapping.uri_to_iri(str(ref), _parts(ref), idna=idna))


# -- RFC 3987 §2.2: syntax -------------------------------------------------------------

VALID = [
    "http://r\u00e9sum\u00e9.example.org",
    "http://\u4f8b\u3048.\u30c6\u30b9\u30c8/\u30d1\u30b9?\u30af\u30a8\u30ea#\u65ad\u7247",
    "http://example.com/\U00010300\U00010301\U00010302",
    "http://us\u00e9r:p\u00e4ss@host/",
    "urn:isbn:\u00e9",
    "mailto:\u00fc@example.org",
    "//ex.org/\u00e9",
    "\u00e9/\u00fc",
    "?\ue000",
    "http://a/?\ue000\uf8ff",
    "http://a/?\U000f0000\U000ffffd\U00100000\U0010fffd",
    "http://a/\u00a0",
    "http://a/\ud7ff\uf900\ufdcf\ufdf0\uffef",
    "http://a/\U0001fffd\U000e1000\U000efffd",
    "http://a/%C3%A9",
    "",
]

INVALID = [
    # (text, position): iprivate only in iquery
    ("http://a/\ue000", 9),
    ("http://a/#\ue000", 10),
    ("http://\ue000/", 7),
    ("http://a/?q#\U00100000", 12),
    # outside ucschar
    ("http://a/\u0080", 9),
    ("http://a/\u009f", 9),
    ("http://a/\ufdd0", 9),
    ("http://a/\ufffe", 9),
    ("http://a/\uffff", 9),
    ("http://a/\U0001fffe", 9),
    ("http://a/\U000e0001", 9),
    # where the grammar has no ucschar
    ("\u00e9:foo", 1),
    ("h\u00e9://a", 2),  # a relative path until the ":"
    ("http://a:\u00e9/", 9),  # no "@" in the authority: a port has no ucschar
    ("http://a:\u00e9 @h/", 10),  # an "@" follows: "a:\u00e9" may be a userinfo
    ("http://[::\u00e9]/", 10),
    # ASCII that is not allowed in URIs is not allowed in IRIs either
    ("http://a/b c", 10),
    ("http://a/<", 9),
]


@pytest.mark.parametrize("text", VALID)
def test_2_2_valid(text: str) -> None:
    iri = IRI(text)
    assert str(iri) == text
    assert is_valid(text, "IRI-reference")


@pytest.mark.parametrize(("text", "position"), INVALID)
def test_2_2_invalid(text: str, position: int) -> None:
    with pytest.raises(URIError) as info:
        IRI(text)
    assert info.value.position == position
    assert not is_valid(text, "IRI-reference")


def test_2_2_iprivate_only_in_iquery() -> None:
    assert IRI("http://a/?\ue000").query == "\ue000"
    for text in ("http://a/\ue000", "http://a/#\ue000", "http://\ue000@a/", "http://\ue000/"):
        with pytest.raises(URIError):
            IRI(text)


def test_2_2_rules() -> None:
    assert is_valid("http://\u00e9/\u00fc?q#f", "IRI")
    assert not is_valid("//\u00e9/\u00fc", "IRI")
    assert is_valid("http://\u00e9/\u00fc?q", "absolute-IRI")
    assert not is_valid("http://\u00e9/\u00fc#f", "absolute-IRI")
    assert is_valid("//\u00e9/\u00fc#f", "irelative-ref")
    assert not is_valid("http://\u00e9/", "irelative-ref")
    assert not is_valid("http://\u00e9/", "URI-reference")


def test_2_2_every_uri_is_an_iri() -> None:
    for text in ("http://a/b?c#d", "mailto:x@y", "../g", "//[::1]:80/"):
        assert IRI(text) == URI(text)


BIDI_FORMATTING = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u061c\u2066\u2067\u2068\u2069"


@pytest.mark.parametrize("char", BIDI_FORMATTING)
def test_4_1_no_bidi_formatting_characters(char: str) -> None:
    # §4.1: "IRIs MUST NOT contain bidirectional formatting characters (LRM, RLM,
    # LRE, RLE, LRO, RLO, and PDF)"; ALM and the isolates are the same kind.
    for text, position in ((f"http://a/b{char}c", 10), (f"{char}", 0), (f"?q={char}", 3)):
        with pytest.raises(URIError) as info:
            IRI(text)
        assert info.value.position == position
        assert info.value.rule == "ucschar"


def test_iri_has_the_uri_api() -> None:
    iri = IRI("http://\u00fcser@r\u00e9sum\u00e9.example.org:8080/p\u00e4th/?q=\u00e9#fr\u00e4g")
    assert iri.scheme == "http"
    assert iri.userinfo == "\u00fcser"
    assert iri.host == "r\u00e9sum\u00e9.example.org"
    assert iri.host_type == "reg-name"
    assert iri.port == "8080"
    assert iri.path == "/p\u00e4th/"
    assert iri.query == "q=\u00e9"
    assert iri.fragment == "fr\u00e4g"
    assert iri.is_absolute is False
    assert iri.kind == "uri"
    assert IRI("\u00e9/x").kind == "relative-path"
    assert IRI("http://a/").query is None
    assert IRI("http://a/?").query == ""
    assert repr(IRI("http://a/\u00e9")) == "IRI('http://a/\u00e9')"


def test_iri_value_semantics() -> None:
    iri = IRI("http://a/\u00e9")
    assert pickle.loads(pickle.dumps(iri)) == iri
    assert type(pickle.loads(pickle.dumps(iri))) is IRI
    assert hash(IRI("http://a/")) == hash(URI("http://a/"))
    assert IRI(iri) is not None and IRI(URI("http://a/")) == "http://a/"
    with pytest.raises(AttributeError):
        iri.path = "/x"  # type: ignore[misc]


def test_iri_editing_stays_an_iri() -> None:
    iri = IRI("http://a/\u00e9")
    edited = iri.replace(query="\u00fc=1")
    assert type(edited) is IRI
    assert str(edited) == "http://a/\u00e9?\u00fc=1"
    built = IRI.build(scheme="http", host="\u00e9.org", path="/a b", encode=True)
    assert str(built) == "http://\u00e9.org/a%20b"
    with pytest.raises(URIError):
        iri.replace(path="/\ue000")


def test_iri_lenient_keeps_ucschar() -> None:
    repaired = IRI.lenient("http://a/\u00e9 b")
    assert str(repaired.uri) == "http://a/\u00e9%20b"
    assert [v.code for v in repaired.reports] == ["whitespace"]


# -- RFC 3987 §3.1: mapping of IRIs to URIs ----------------------------------------


def test_3_1_resume_idna() -> None:
    iri = IRI("http://r\u00e9sum\u00e9.example.org")
    assert str(iri.to_uri(idna=True)) == "http://xn--rsum-bpad.example.org"
    assert str(iri.to_uri()) == "http://r%C3%A9sum%C3%A9.example.org"


def test_3_1_idn_in_the_query_is_not_converted() -> None:
    iri = IRI("http://validator.w3.org/check?uri=http%3A%2F%2Fr\u00e9sum\u00e9.example.org")
    expected = "http://validator.w3.org/check?uri=http%3A%2F%2Fr%C3%A9sum%C3%A9.example.org"
    assert str(iri.to_uri()) == expected
    assert str(iri.to_uri(idna=True)) == expected


def test_3_1_existing_percent_encodings_are_kept() -> None:
    iri = IRI("http://www.example.org/red%09ros\u00e9#red")
    assert str(iri.to_uri()) == "http://www.example.org/red%09ros%C3%A9#red"


def test_3_1_non_bmp() -> None:
    iri = IRI("http://example.com/\U00010300\U00010301\U00010302")
    assert str(iri.to_uri()) == "http://example.com/%F0%90%8C%80%F0%90%8C%81%F0%90%8C%82"


def test_3_1_step_1_nfc_only_when_asked() -> None:
    # "Vi&#x1EC7;t Nam" is NFC; "Vi&#xEA;&#x323;t Nam" comes from windows-1258.
    nfc = IRI("http://example.org/Vi\u1ec7t%20Nam")
    transcoded = IRI("http://example.org/Vi\u00ea\u0323t%20Nam")
    assert transcoded.to_uri() != nfc.to_uri()
    assert transcoded.to_uri(nfc=True) == nfc.to_uri()
    assert str(nfc.to_uri()) == "http://example.org/Vi%E1%BB%87t%20Nam"


def test_3_1_nfc_result_is_a_valid_uri() -> None:
    # Under NFC, U+1FEF GREEK VARIA becomes "`", which a URI must percent-encode.
    assert str(IRI("http://a/\u1fef").to_uri(nfc=True)) == "http://a/%60"
    assert str(IRI("http://a/\u1fef").to_uri()) == "http://a/%E1%BF%AF"


def test_3_1_characters_that_must_not_be_converted() -> None:
    # '"#", "%", "[", "]" ... MUST NOT be converted'
    text = "http://[::1]:80/%41%2f?%25#f"
    assert str(IRI(text).to_uri()) == text
    assert str(IRI(text).to_uri(idna=True, nfc=True)) == text


def test_3_1_is_identity_on_uris() -> None:
    for text in ("http://a/b%c3%a9?%E9#x", "urn:a:b", "", "//h/%7e"):
        assert str(IRI(text).to_uri()) == text
        assert type(IRI(text).to_uri()) is URI


def test_3_1_idempotent() -> None:
    iri = IRI("http://\u00e9.org/\u00fc?\ue000#\u00e4")
    once = iri.to_uri()
    assert IRI(once).to_uri() == once
    assert str(once) == "http://%C3%A9.org/%C3%BC?%EE%80%80#%C3%A4"


def test_3_1_idna_leaves_ip_literals_and_ascii_labels() -> None:
    assert str(IRI("http://[::1]/\u00e9").to_uri(idna=True)) == "http://[::1]/%C3%A9"
    assert str(IRI("http://[v7.a]/\u00e9").to_uri(idna=True)) == "http://[v7.a]/%C3%A9"
    assert str(IRI("http://127.0.0.1/\u00e9").to_uri(idna=True)) == "http://127.0.0.1/%C3%A9"
    assert str(IRI("http://WWW.r\u00e9sum\u00e9.ORG./").to_uri(idna=True)) == (
        "http://WWW.xn--rsum-bpad.ORG./"
    )
    zone = "http://[fe80::1%25en%C3%A90]/"
    assert str(IRI(zone).to_uri(idna=True)) == zone


def test_3_1_idna_decodes_percent_encoded_host_first() -> None:
    iri = IRI("http://r%C3%A9sum%C3%A9.example.org/r%C3%A9sum%C3%A9")
    assert str(iri.to_uri()) == str(iri)
    assert str(iri.to_uri(idna=True)) == "http://xn--rsum-bpad.example.org/r%C3%A9sum%C3%A9"


def test_3_1_idna_failure_is_an_error_at_the_label() -> None:
    # UTS #46 CheckJoiners (C2): a ZERO WIDTH JOINER needs a virama before it.
    with pytest.raises(URIError) as info:
        IRI("http://user@ok.a\u200d.org/").to_uri(idna=True)
    assert info.value.rule == "ireg-name"
    assert info.value.position == 15
    assert "C2" in info.value.reason
    # without idna the same IRI maps
    assert str(IRI("http://user@ok.a\u200d.org/").to_uri()) == "http://user@ok.a%E2%80%8D.org/"


def test_3_1_idna_is_the_browsers_uts46_not_idna2008() -> None:
    """Symbols, an underscore and hyphens in places 3-4 pass UTS #46 as the URL Standard
    calls it (UseSTD3ASCIIRules, CheckHyphens false), where IDNA 2008 refuses them."""
    from urikit.whatwg import URL

    for text in ("https://i\u2764.ws/", "http://a_\u00e9/", "http://ab--\u00e9.example/"):
        host = IRI(text).to_uri(idna=True).host
        assert host == URL(text).hostname, text
    assert IRI("https://i\u2764.ws/").to_uri(idna=True).host == "xn--i-7iq.ws"
    # A full-width symbol that maps to '"' gives no reg-name: a clear error.
    with pytest.raises(URIError, match="reg-name"):
        IRI("http://a\uff02b.example/").to_uri(idna=True)


def test_3_1_idna_uts46_mapping() -> None:
    assert str(IRI("http://R\u00c9SUM\u00c9.example.org").to_uri(idna=True)) == (
        "http://xn--rsum-bpad.example.org"
    )


# -- RFC 3987 §3.2: converting URIs to IRIs ------------------------------------------


def test_3_2_1_example_1() -> None:
    uri = URI("http://www.example.org/D%C3%BCrst")
    assert str(uri.to_iri()) == "http://www.example.org/D\u00fcrst"
    assert type(uri.to_iri()) is IRI


def test_3_2_1_example_2() -> None:
    uri = URI("http://www.example.org/D%FCrst")
    assert str(uri.to_iri()) == "http://www.example.org/D%FCrst"


def test_3_2_1_example_3() -> None:
    uri = URI("http://xn--99zt52a.example.org/%e2%80%ae")
    assert str(uri.to_iri()) == "http://xn--99zt52a.example.org/%E2%80%AE"


def test_3_2_1_tounicode() -> None:
    uri = URI("http://xn--99zt52a.example.org/%e2%80%ae")
    assert str(uri.to_iri(idna=True)) == "http://\u7d0d\u8c46.example.org/%E2%80%AE"


def test_3_2_no_other_encoding_is_guessed() -> None:
    uri = URI("http://www.example.org/r%E9sum%E9.html")
    assert str(uri.to_iri()) == "http://www.example.org/r%E9sum%E9.html"


def test_6_4_examples() -> None:
    assert str(URI("http://www.example.org/r%C3%A9sum%C3%A9.html").to_iri()) == (
        "http://www.example.org/r\u00e9sum\u00e9.html"
    )
    assert str(URI("http://www.example.org/r%E9sum%E9.xml#r%C3%A9sum%C3%A9").to_iri()) == (
        "http://www.example.org/r%E9sum%E9.xml#r\u00e9sum\u00e9"
    )


@pytest.mark.parametrize(
    ("uri", "iri"),
    [
        # step 2: "%", reserved and other ASCII stay as written
        ("http://a/%25%2f%2F%41%7e%20", "http://a/%25%2f%2F%41%7e%20"),
        # lower-case hex is decoded too
        ("http://a/%c3%bc", "http://a/\u00fc"),
        # step 3: not strictly legal UTF-8 is re-encoded
        ("http://a/%fc", "http://a/%FC"),
        ("http://a/%C0%AF", "http://a/%C0%AF"),  # overlong "/"
        ("http://a/%ED%A0%80", "http://a/%ED%A0%80"),  # surrogate
        ("http://a/%F4%90%80%80", "http://a/%F4%90%80%80"),  # beyond U+10FFFF
        ("http://a/%E2%82", "http://a/%E2%82"),  # truncated
        ("http://a/%80%C3%A9%BF", "http://a/%80\u00e9%BF"),
        ("http://a/%F0%90%8C%80", "http://a/\U00010300"),
        # step 4: §2.2 iprivate only in the query; outside ucschar
        ("http://a/%EE%80%80?%EE%80%80#%EE%80%80", "http://a/%EE%80%80?\ue000#%EE%80%80"),
        ("http://a/%C2%80%C2%9F", "http://a/%C2%80%C2%9F"),
        ("http://a/%EF%BF%BE%EF%B7%90", "http://a/%EF%BF%BE%EF%B7%90"),
        # step 4: §4.1 bidi formatting characters
        (
            "http://a/%E2%80%8E%e2%80%8f%E2%81%A6%D8%9C",
            "http://a/%E2%80%8E%E2%80%8F%E2%81%A6%D8%9C",
        ),
        # step 4: §6.1 b, RFC 3491's exclusions (spaces, invisible controls)
        (
            "http://a/%C2%A0%E3%80%80%E2%80%8B%EF%BB%BF",
            "http://a/%C2%A0%E3%80%80%E2%80%8B%EF%BB%BF",
        ),
        ("http://a/%EF%BF%BD", "http://a/%EF%BF%BD"),
        # components: host, userinfo, query, fragment; never an IP literal
        ("http://%C3%BC@%CF%80.example.com/", "http://\u00fc@\u03c0.example.com/"),
        ("http://[fe80::1%25en%C3%A90]/%C3%A9", "http://[fe80::1%25en%C3%A90]/\u00e9"),
        ("?%C3%A9#%C3%A9", "?\u00e9#\u00e9"),
        ("x:%C3%A9", "x:\u00e9"),
    ],
)
def test_3_2_steps(uri: str, iri: str) -> None:
    assert str(uri_to_iri(URI(uri))) == iri


def test_3_2_tounicode_failure_keeps_the_label() -> None:
    assert str(uri_to_iri("http://xn--abc.XN--99ZT52A.org/xn--99zt52a", idna=True)) == (
        "http://xn--abc.\u7d0d\u8c46.org/xn--99zt52a"
    )
    assert str(uri_to_iri("http://xn--99zt52a.org/")) == "http://xn--99zt52a.org/"


def test_3_2_accepts_iris() -> None:
    assert str(uri_to_iri("http://\u00e9/%C3%A9")) == "http://\u00e9/\u00e9"
    iri = IRI("http://\u00e9/")
    assert uri_to_iri(iri) == iri


def test_3_2_round_trip_examples() -> None:
    for text in (
        "http://www.example.org/D%C3%BCrst",
        "http://www.example.org/D%FCrst",
        "http://www.example.org/r%E9sum%E9.xml#r%C3%A9sum%C3%A9",
        "http://[fe80::1%25en%C3%A90]/%C3%A9?%EE%80%80#%E2%80%AE",
    ):
        assert str(URI(text).to_iri().to_uri()) == text
    # §3.2: "except for potential case differences in percent-encoding"
    assert str(URI("http://a/%c3%bc%fc%2f").to_iri().to_uri()) == "http://a/%C3%BC%FC%2f"


def test_errors_on_bad_input() -> None:
    with pytest.raises(URIError):
        uri_to_iri("http://a b/")
    with pytest.raises(URIError):
        iri_to_uri("http://a/\u202e")
    with pytest.raises(TypeError):
        iri_to_uri(b"http://a/")  # type: ignore[arg-type]
