"""The data: URL scheme (RFC 2397)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urikit import URI, URIError
from urikit.datauri import DataURI, data_uri, parse_data

# -- RFC 2397 §4 examples ------------------------------------------------------------


def test_rfc2397_section4_brief_note() -> None:
    d = parse_data("data:,A%20brief%20note")
    assert d == DataURI("text/plain", (("charset", "US-ASCII"),), False, b"A brief note")
    assert d.charset == "US-ASCII"
    assert d.text() == "A brief note"


def test_rfc2397_section4_greek_is_invalid_as_printed() -> None:
    # The example as printed has "%fg", which is not a percent-encoding (RFC 3986 §2.1).
    with pytest.raises(URIError):
        parse_data("data:text/plain;charset=iso-8859-7,%be%fg%be")
    d = parse_data("data:text/plain;charset=iso-8859-7,%be%e3%be")
    assert d.charset == "iso-8859-7"
    assert d.text() == "ΎγΎ"


def test_rfc2397_section4_commas_after_the_first_are_data() -> None:
    d = parse_data("data:application/vnd-xxx-query,select_vcount,fcol_from_fieldtable/local")
    assert d.media_type == "application/vnd-xxx-query"
    assert d.parameters == ()
    assert d.data == b"select_vcount,fcol_from_fieldtable/local"


def test_rfc2397_section4_base64_gif() -> None:
    d = parse_data("data:image/gif;base64,R0lGODdhMAAwAPAAAAAAAP///ywAAAAAMAAw")
    assert d.base64
    assert d.media_type == "image/gif"
    assert d.data.startswith(b"GIF87a0\x000\x00")


# -- media type (§2, §3) -------------------------------------------------------------


def test_parameters_without_type_mean_text_plain() -> None:
    d = parse_data("data:;charset=utf-8,caf%C3%A9")
    assert d.media_type == "text/plain"
    assert d.parameters == (("charset", "utf-8"),)
    assert d.text() == "café"


def test_type_without_charset_has_none() -> None:
    d = parse_data("data:text/html,%3Ch1%3E")
    assert d.charset is None
    assert d.data == b"<h1>"


def test_names_are_case_insensitive_values_are_not() -> None:
    d = parse_data("data:Text/HTML;CharSet=UTF-8;BASE64,YQ==")
    assert d.media_type == "text/html"
    assert d.parameters == (("charset", "UTF-8"),)
    assert d.base64
    assert d.content_type == "text/html;charset=UTF-8"


def test_quoted_and_encoded_parameter_values() -> None:
    d = parse_data("data:text/plain;name=%22a%3Bb%2C%20c%5C%22%22;x=1,abc")
    assert d.parameters == (("name", 'a;b, c"'), ("x", "1"))
    assert d.content_type == 'text/plain;name="a;b, c\\"";x=1'


def test_query_characters_are_data_and_fragment_is_not() -> None:
    d = parse_data("data:,a?b=c#frag")
    assert d.data == b"a?b=c"


def test_empty_data() -> None:
    assert parse_data("data:,").data == b""
    assert parse_data("data:;base64,").data == b""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("http://h/", "not a data: URL"),
        ("data:text/plain", 'needs a ","'),
        ("data:text,x", "type/subtype"),
        ("data:text/plain;charset,x", "attribute=value"),
        ("data:text/plain;charset=,x", "neither a token"),
        ("data:;base64,YQ", "base64"),
        ("data:;base64,Y!==", "base64"),
        ("data:text/plain;base64;x=y,", "attribute=value|neither"),
    ],
)
def test_invalid(text: str, message: str) -> None:
    with pytest.raises(URIError, match=message):
        parse_data(text)


def test_error_position_points_into_the_header() -> None:
    with pytest.raises(URIError) as info:
        parse_data("data:text/plain;charset,x")
    assert info.value.position == 16


# -- building ------------------------------------------------------------------------


def test_data_uri_percent_encoding() -> None:
    uri = data_uri(b"hello, world", "text/plain;charset=utf-8")
    assert isinstance(uri, URI)
    assert str(uri) == "data:text/plain;charset=utf-8,hello%2C%20world"


def test_data_uri_base64() -> None:
    assert str(data_uri(b"\x00\x01\x02\x03", base64=True)) == (
        "data:application/octet-stream;base64,AAECAw=="
    )
    assert str(data_uri(b"ab", base64=False)) == "data:application/octet-stream,ab"


def test_data_uri_chooses_the_shorter() -> None:
    assert ";base64," in str(data_uri(bytes(range(256))))
    assert ";base64," not in str(data_uri(b"plain text"))


def test_data_uri_empty_media_type_is_left_out() -> None:
    assert str(data_uri(b"x", "")) == "data:,x"


def test_data_uri_encodes_header_data() -> None:
    uri = data_uri(b"abc", 'text/plain;name="a;b, c"')
    assert str(uri) == "data:text/plain;name=%22a%3Bb%2C%20c%22,abc"
    assert parse_data(uri).parameters == (("name", "a;b, c"),)


@pytest.mark.parametrize("media_type", ["text", "text/plain;charset", ";charset=x", "a b/c"])
def test_data_uri_refuses_bad_media_types(media_type: str) -> None:
    with pytest.raises(URIError):
        data_uri(b"x", media_type)


def test_data_uri_refuses_base64_in_media_type_and_non_bytes() -> None:
    with pytest.raises(ValueError, match="base64=True"):
        data_uri(b"x", "text/plain;base64")
    with pytest.raises(TypeError):
        data_uri("text")  # type: ignore[arg-type]


@given(
    data=st.binary(max_size=64),
    media_type=st.sampled_from(["application/octet-stream", "text/plain;charset=utf-8", ""]),
    base64=st.sampled_from([None, True, False]),
)
def test_round_trip(data: bytes, media_type: str, base64: bool | None) -> None:
    uri = data_uri(data, media_type, base64=base64)
    d = parse_data(uri)
    assert d.data == data
    if base64 is not None:
        assert d.base64 is base64
    if media_type:
        assert d.content_type == media_type
    else:
        assert d.content_type == "text/plain;charset=US-ASCII"
