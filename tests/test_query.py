"""Query parameters (RFC 3986 §3.4) under the two codecs, and byte-exact edits."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import queries

from urikit import IRI, URI, URIError
from urikit._shortcuts import set_as_written as _set_as_written
from urikit.query import (
    MAX_PARAMS,
    MAX_QUERY_LENGTH,
    _encode_pairs,
    _set_in_pieces,
    add_query_param,
    encode_param,
    has_query_param,
    query_param,
    query_param_all,
    query_params,
    remove_query_param,
    remove_query_params,
    set_query_param,
    with_query_params,
)
from urikit.types import Codec

# An AWS Signature Version 4 presigned URL: its signature covers the query
# exactly as written (lower-case hex, "%2F" in the credential).
SIGNED = (
    "https://examplebucket.s3.amazonaws.com/test.txt"
    "?X-Amz-Algorithm=AWS4-HMAC-SHA256"
    "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request"
    "&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
    "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404"
)
SIGNED_QUERY = str(URI(SIGNED).query)

# Text for names and values: any character, with the query's delimiters likely.
TEXT = st.text(
    st.characters(blacklist_categories=("Cs",)) | st.sampled_from("&=+#%?/ ;~"), max_size=12
)


# -- reading -----------------------------------------------------------------------


def test_order_and_duplicates_are_kept() -> None:
    uri = URI("http://h/?b=2&a=1&b=3")
    assert uri.query_params() == [("b", "2"), ("a", "1"), ("b", "3")]
    assert uri.query_param("b") == "2"
    assert uri.query_param_all("b") == ["2", "3"]
    assert uri.query_param_all("z") == []


def test_valueless_empty_and_absent_are_three_things() -> None:
    uri = URI("http://h/?a&b=&c=1")
    assert uri.query_params() == [("a", None), ("b", ""), ("c", "1")]
    assert uri.has_query_param("a")
    assert uri.query_param("a", "default") is None
    assert uri.query_param("b", "default") == ""
    assert not uri.has_query_param("z")
    assert uri.query_param("z", "default") == "default"


def test_no_query_and_empty_query_have_no_params() -> None:
    assert URI("http://h/").query_params() == []
    assert URI("http://h/?").query_params() == []
    assert URI("http://h/?#frag").query_params() == []


def test_empty_pairs_are_skipped() -> None:
    assert URI("http://h/?&&a=1&&b=2&").query_params() == [("a", "1"), ("b", "2")]


def test_empty_name_with_equals_is_a_parameter() -> None:
    assert URI("http://h/?=x&=").query_params() == [("", "x"), ("", "")]


def test_only_ampersand_separates() -> None:
    assert URI("http://h/?a=1;b=2").query_params() == [("a", "1;b=2")]


def test_only_the_first_equals_separates() -> None:
    assert URI("http://h/?a=b=c").query_params() == [("a", "b=c")]


def test_str_is_parsed_as_uri() -> None:
    assert query_params(URI("http://h/?a=1").query) == [("a", "1")]
    with pytest.raises(URIError):
        query_params("a=%zz")


# -- the two codecs -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "form", "rfc3986"),
    [
        ("q=a+b", "a b", "a+b"),
        ("q=a%20b", "a b", "a b"),
        ("q=a%2Bb", "a+b", "a+b"),
        ("q=1+1%3D2", "1 1=2", "1+1=2"),
        ("q=caf%C3%A9", "café", "café"),
        ("q=%26%3D%23", "&=#", "&=#"),
    ],
)
def test_plus_is_space_only_under_form(query: str, form: str, rfc3986: str) -> None:
    uri = URI("http://h/?" + query)
    assert uri.query_param("q") == form
    assert uri.query_param("q", codec="rfc3986") == rfc3986


def test_names_are_decoded_too() -> None:
    uri = URI("http://h/?a+b=1&c%20d=2")
    assert uri.query_params() == [("a b", "1"), ("c d", "2")]
    assert uri.query_params(codec="rfc3986") == [("a+b", "1"), ("c d", "2")]
    assert uri.has_query_param("a b")
    assert uri.has_query_param("a+b", codec="rfc3986")
    assert not uri.has_query_param("a+b")


def test_unknown_codec_is_a_value_error() -> None:
    uri = URI("http://h/?a=1")
    for call in (
        lambda: uri.query_params(codec="utf-8"),
        lambda: uri.query_param("a", codec="html"),
        lambda: uri.add_query_param("a", "1", codec="x"),
        lambda: uri.remove_query_param("a", codec="x"),
    ):
        with pytest.raises(ValueError, match="unknown query codec"):
            call()


def test_invalid_utf8_is_an_error_unless_asked_otherwise() -> None:
    uri = URI("http://h/?name=caf%E9")
    with pytest.raises(URIError) as info:
        uri.query_params()
    assert info.value.rule == "query"
    assert info.value.text == "name=caf%E9"
    assert info.value.position == 8
    assert query_params(uri.query, errors="replace") == [("name", "caf\ufffd")]
    assert query_params(uri.query, errors="surrogateescape") == [("name", "caf\udce9")]


def test_lookup_with_invalid_utf8_in_another_parameter_works() -> None:
    uri = URI("http://h/?a=%FF&b=1&b&b=%FE")
    assert uri.query_param("b") == "1"
    assert uri.has_query_param("b")
    assert query_param_all(uri.query, "b", errors="replace") == ["1", None, "\ufffd"]
    assert query_param(uri.query, "c", "none") == "none"
    with pytest.raises(URIError) as info:
        uri.query_param_all("b")  # a value returned is still decoded strictly
    assert info.value.rule == "query"
    assert info.value.position == 14


def test_editing_a_query_with_invalid_utf8_elsewhere_works() -> None:
    uri = URI("http://h/?legacy=caf%E9&a=1")
    assert str(uri.remove_query_param("a")) == "http://h/?legacy=caf%E9"
    assert str(uri.set_query_param("a", "2")) == "http://h/?legacy=caf%E9&a=2"


# -- limits ---------------------------------------------------------------------------


def test_too_many_parameters() -> None:
    query = "&".join(["a=1"] * (MAX_PARAMS + 1))
    uri = URI("http://h/?" + query)
    with pytest.raises(URIError, match="max_params=10000"):
        uri.query_params()
    with pytest.raises(URIError, match="max_params"):
        uri.add_query_param("b", "2")
    assert len(query_params(uri.query, max_params=MAX_PARAMS + 1)) == MAX_PARAMS + 1
    with pytest.raises(URIError, match="max_params=2"):
        query_params("a&b&c", max_params=2)


def test_too_long_a_query() -> None:
    uri = URI("http://h/?a=" + "x" * MAX_QUERY_LENGTH)
    with pytest.raises(URIError, match="max_length"):
        uri.query_params()
    with pytest.raises(URIError, match="max_length=8"):
        query_params("a=123456789", max_length=8)
    with pytest.raises(URIError, match="max_length"):
        URI("http://h/").add_query_param("a", "x" * MAX_QUERY_LENGTH)


def test_with_too_many_pairs() -> None:
    with pytest.raises(URIError, match="max_params"):
        URI("http://h/").with_query_params([("a", "1")] * (MAX_PARAMS + 1))


# -- encoding -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "value", "form", "rfc3986"),
    [
        ("q", "a b", "q=a+b", "q=a%20b"),
        ("q", "a+b", "q=a%2Bb", "q=a+b"),
        ("q", "a&b=c", "q=a%26b%3Dc", "q=a%26b%3Dc"),
        ("q", "#%?", "q=%23%25%3F", "q=%23%25?"),
        ("a=b", "", "a%3Db=", "a%3Db="),
        ("flag", None, "flag", "flag"),
        ("", "x", "=x", "=x"),
        ("k", "é", "k=%C3%A9", "k=%C3%A9"),
    ],
)
def test_encode_param(name: str, value: str | None, form: str, rfc3986: str) -> None:
    assert encode_param(name, value) == form
    assert encode_param(name, value, "rfc3986") == rfc3986


def test_an_empty_valueless_name_cannot_be_written() -> None:
    with pytest.raises(ValueError, match="empty name"):
        URI("http://h/").add_query_param("", None)


def test_names_must_be_text_and_values_scalars() -> None:
    with pytest.raises(TypeError):
        URI("http://h/").add_query_param(1, "a")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        add_query_param(None, "a", object())  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        add_query_param(None, "a", b"x")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        add_query_param(None, "a", [["x"]])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        URI("http://h/").with_query_params([("a", "1", "2")])  # type: ignore[list-item]


@given(name=TEXT, value=st.none() | TEXT, codec=st.sampled_from(["form", "rfc3986"]))
def test_written_parameters_read_back(name: str, value: str | None, codec: str) -> None:
    if name == "" and value is None:
        return
    uri = URI("http://h/p").with_query_params([(name, value)], codec=codec)
    assert uri.query_params(codec) == [(name, value)]


# -- edits keep every untouched byte ----------------------------------------------------


def test_signed_url_survives_an_added_parameter() -> None:
    uri = URI(SIGNED).add_query_param("response-content-type", "text/plain")
    assert str(uri) == SIGNED + "&response-content-type=text%2Fplain"


def test_signed_url_survives_set_and_remove_of_other_parameters() -> None:
    uri = URI(SIGNED + "&x=a+b&tracking=1")
    assert str(uri.remove_query_param("tracking")) == SIGNED + "&x=a+b"
    assert str(uri.set_query_param("x", "c d")) == SIGNED + "&x=c+d&tracking=1"
    assert str(URI(SIGNED + "&utm=1").remove_query_param("utm")) == SIGNED


def test_unusual_spellings_are_not_normalized() -> None:
    uri = URI("http://h/?a=%7e%7E~&b=%2b+&c=x")
    assert str(uri.set_query_param("c", "y")) == "http://h/?a=%7e%7E~&b=%2b+&c=y"
    assert str(uri.remove_query_param("c")) == "http://h/?a=%7e%7E~&b=%2b+"


def test_set_replaces_every_occurrence_at_the_first_place() -> None:
    uri = URI("http://h/?a=1&b=2&a=3&c=4&a")
    assert str(uri.set_query_param("a", "x")) == "http://h/?a=x&b=2&c=4"
    assert str(uri.set_query_param("a", None)) == "http://h/?a&b=2&c=4"


def test_set_appends_when_absent() -> None:
    assert str(URI("http://h/?b=2").set_query_param("a", "1")) == "http://h/?b=2&a=1"
    assert str(URI("http://h/").set_query_param("a", "1")) == "http://h/?a=1"
    assert str(URI("http://h/?").set_query_param("a", "1")) == "http://h/?a=1"


def test_remove_removes_every_occurrence() -> None:
    uri = URI("http://h/?a=1&b=2&a=3&a")
    assert str(uri.remove_query_param("a")) == "http://h/?b=2"


def test_remove_of_the_last_parameter_removes_the_query() -> None:
    assert str(URI("http://h/?a=1#f").remove_query_param("a")) == "http://h/#f"
    assert str(URI("http://h/?a=1&a=2").remove_query_param("a")) == "http://h/"


def test_remove_keeps_empty_pieces_it_did_not_touch() -> None:
    assert str(URI("http://h/?a=1&&b=2").remove_query_param("b")) == "http://h/?a=1&"


def test_remove_absent_name_returns_the_same_reference() -> None:
    uri = URI("http://h/?a=1")
    assert uri.remove_query_param("b") is uri
    assert URI("http://h/").remove_query_param("b") == "http://h/"
    assert str(URI("http://h/?").remove_query_param("b")) == "http://h/?"


def test_add_appends_and_keeps_duplicates() -> None:
    uri = URI("http://h/?a=1")
    assert str(uri.add_query_param("a", "2")) == "http://h/?a=1&a=2"
    assert str(uri.add_query_param("b", None)) == "http://h/?a=1&b"
    # The empty piece is kept, so that removing "b" gives back "a=1&".
    assert str(URI("http://h/?a=1&").add_query_param("b", "2")) == "http://h/?a=1&&b=2"
    assert str(URI("http://h/").add_query_param("q", "x y+z")) == "http://h/?q=x+y%2Bz"
    plus = URI("http://h/").add_query_param("q", "x y+z", codec="rfc3986")
    assert str(plus) == "http://h/?q=x%20y+z"


def test_edits_match_decoded_names_under_the_codec() -> None:
    uri = URI("http://h/?a+b=1&a%20b=2&x=3")
    assert str(uri.remove_query_param("a b")) == "http://h/?x=3"
    assert str(uri.remove_query_param("a+b", codec="rfc3986")) == "http://h/?a%20b=2&x=3"
    assert str(uri.remove_query_param("a%20b")) == str(uri)


def test_edits_keep_the_rest_of_the_reference() -> None:
    uri = URI("https://user@h:8443/p;q?a=1#frag")
    assert str(uri.set_query_param("a", "2")) == "https://user@h:8443/p;q?a=2#frag"
    assert str(URI("/rel?a=1#f").add_query_param("b", "2")) == "/rel?a=1&b=2#f"


def test_with_query_params_replaces_the_whole_query() -> None:
    uri = URI("http://h/p?old=1#f")
    assert str(uri.with_query_params({"a": "1", "b": None})) == "http://h/p?a=1&b#f"
    assert str(uri.with_query_params([("a", "1"), ("a", "2")])) == "http://h/p?a=1&a=2#f"
    assert str(uri.with_query_params([])) == "http://h/p#f"
    assert with_query_params([("q", "a b")], codec="rfc3986") == "q=a%20b"


def test_functions_take_and_give_query_text() -> None:
    assert add_query_param(None, "a", "1") == "a=1"
    assert set_query_param("a=0", "a", "1") == "a=1"
    assert remove_query_param("a=0", "a") is None


def test_iri_keeps_its_class_and_characters() -> None:
    iri = IRI("http://h/?q=café&x=1")
    edited = iri.set_query_param("x", "ü")
    assert isinstance(edited, IRI)
    assert str(edited) == "http://h/?q=café&x=%C3%BC"
    assert edited.query_params() == [("q", "café"), ("x", "ü")]


@given(query=queries(), name=TEXT, value=st.none() | TEXT)
def test_add_keeps_the_original_query_as_a_prefix(query: str, name: str, value: str | None) -> None:
    if name == "" and value is None:
        return
    uri = URI("http://h/p?" + query + "#f")
    added = uri.add_query_param(name, value)
    assert str(added.query).startswith(query)
    assert added.fragment == "f"
    before = query_params(uri.query, errors="surrogateescape")
    assert query_params(added.query, errors="surrogateescape") == [*before, (name, value)]


def _pieces(query: str | None) -> list[str]:
    return [] if query is None else query.split("&")


@given(query=queries(), name=st.sampled_from(["a", "b", "a b", "", "x"]))
def test_remove_deletes_whole_pieces_and_nothing_else(query: str, name: str) -> None:
    uri = URI("http://h/?" + query)
    removed = uri.remove_query_param(name)
    before = query_params(uri.query, errors="surrogateescape")
    after = query_params(removed.query, errors="surrogateescape")
    assert after == [pair for pair in before if pair[0] != name]
    kept = _pieces(removed.query)
    original = _pieces(query)
    # The pieces left are pieces of the original, in their order, byte for byte.
    it = iter(original)
    assert all(any(piece == other for other in it) for piece in kept)


@given(query=queries(), name=st.sampled_from(["a", "b", "x"]), value=st.none() | TEXT)
def test_set_gives_one_value_in_place(query: str, name: str, value: str | None) -> None:
    uri = URI("http://h/?" + query)
    edited = uri.set_query_param(name, value)
    after = query_params(edited.query, errors="surrogateescape")
    assert [v for k, v in after if k == name] == [value]
    before = query_params(uri.query, errors="surrogateescape")
    assert [p for p in after if p[0] != name] == [p for p in before if p[0] != name]
    names_before = [k for k, _ in before]
    if name in names_before:
        assert [k for k, _ in after].index(name) == names_before.index(name)


# -- values other than text, repeated names ----------------------------------------------


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (True, "v=true"),
        (False, "v=false"),
        (0, "v=0"),
        (-12, "v=-12"),
        (1.5, "v=1.5"),
        (1e100, "v=1e%2B100"),
        (0.1, "v=0.1"),
        (None, "v"),
        ("", "v="),
    ],
)
def test_values_other_than_text(value: bool | int | float | None, written: str) -> None:
    assert add_query_param(None, "v", value) == written


def test_non_finite_floats_are_refused() -> None:
    for value in (float("nan"), float("inf"), float("-inf")):
        with pytest.raises(ValueError, match="finite") as info:
            add_query_param(None, "v", value)
        assert not isinstance(info.value, URIError)


def test_sequences_repeat_the_name() -> None:
    assert add_query_param("a=1", "t", ["x", 2, None]) == "a=1&t=x&t=2&t"
    assert add_query_param("a=1", "t", []) == "a=1"
    assert set_query_param("t=0&a=1&t=9", "t", ("x", "y")) == "t=x&t=y&a=1"
    assert set_query_param("t=0&a=1", "t", []) == "a=1"
    assert with_query_params({"t": ["x", "y"], "n": 3}) == "t=x&t=y&n=3"
    assert URI("http://h/").with_query_params({"on": True}) == "http://h/?on=true"


# -- removing by pattern or predicate ------------------------------------------------------


def test_remove_by_glob_matches_decoded_names() -> None:
    query = "utm_source=a&id=1&utm%5Fmedium=b&UTM_x=c&&utm_term"
    assert remove_query_params(query, "utm_*") == "id=1&UTM_x=c&"
    assert remove_query_params(query, "nothing*") == query
    assert remove_query_params(None, "*") is None
    assert remove_query_params("a=1&b=2", "*") is None


def test_remove_by_names_is_exact() -> None:
    assert remove_query_params("a*=1&ab=2&c=3", {"a*", "c"}) == "ab=2"
    assert remove_query_params("a+b=1&x", ["a b"]) == "x"
    assert remove_query_params("a+b=1&x", ["a+b"], codec="rfc3986") == "x"


def test_remove_by_predicate() -> None:
    assert remove_query_params("a=1&_b=2&c", lambda name: name.startswith("_")) == "a=1&c"


# -- argument errors and text errors -------------------------------------------------------


def test_bad_arguments_are_type_or_value_errors_not_uri_errors() -> None:
    calls = [
        lambda: remove_query_params("a", 3),  # type: ignore[arg-type]
        lambda: remove_query_params("a", [1]),  # type: ignore[list-item]
        lambda: query_param("a", None),  # type: ignore[arg-type]
        lambda: remove_query_param("a", None),  # type: ignore[arg-type]
        lambda: with_query_params("a=1"),  # type: ignore[arg-type]
        lambda: query_params(URI("http://h/?a")),  # type: ignore[arg-type]
        lambda: add_query_param(None, "", None),
        lambda: query_params("a", "utf-8"),  # type: ignore[arg-type]
    ]
    for call in calls:
        with pytest.raises((TypeError, ValueError)) as info:
            call()
        assert not isinstance(info.value, URIError)


def test_bad_text_is_a_uri_error_with_its_position() -> None:
    with pytest.raises(URIError) as info:
        query_params("ok=1&a=%zz")
    assert info.value.position == 8  # the first character that is not a hex digit


# -- the law: adding then removing a new name gives back the query -----------------------


@given(
    query=st.none() | queries() | st.sampled_from(["", "&", "a=b&", "&&", "x&&y"]),
    value=st.none() | TEXT | st.integers() | st.booleans() | st.lists(st.none() | TEXT, max_size=3),
    codec=st.sampled_from(["form", "rfc3986"]),
)
def test_add_then_remove_is_the_identity(query: str | None, value: object, codec: str) -> None:
    name = "zz new"
    if has_query_param(query, name, codec=codec):  # type: ignore[arg-type]
        return
    if remove_query_params(query, "zz*", codec=codec) != query:  # type: ignore[arg-type]
        return  # the glob would remove a pair of the query too
    added = add_query_param(query, name, value, codec=codec)  # type: ignore[arg-type]
    assert remove_query_param(added, name, codec=codec) == query  # type: ignore[arg-type]
    assert remove_query_params(added, "zz*", codec=codec) == query  # type: ignore[arg-type]


def test_add_then_remove_keeps_empty_pieces_and_empty_queries() -> None:
    for query in ("a=b&", "&", "", "&&a"):
        uri = URI("http://h/?" + query)
        assert uri.add_query_param("c", "d").remove_query_param("c") == uri


def test_iri_edits_may_keep_iri_characters() -> None:
    assert add_query_param("q=café", "x", "ü é", iri=True) == "q=café&x=ü+é"
    assert add_query_param(None, "x", "ü é", codec="rfc3986", iri=True) == "x=ü%20é"
    assert add_query_param(None, "x", "\u200f", iri=True) == "x=%E2%80%8F"


# --- the edit puts the new query text in place (RFC 3986 §3.4, §5.3) -----------------------


@pytest.mark.parametrize("cls", [URI, IRI])
@pytest.mark.parametrize(
    "text",
    [
        "http://a/b?c=1#f", "http://a/b?c=1", "http://a/b#f", "http://a/b", "?c", "#f", "",
        "//u@h:1/p?q=1&q=2#f?g", "mailto:a@b?subject=x", "urn:x:y", "p?&&#",
    ],
)  # fmt: skip
@pytest.mark.parametrize("query", [None, "", "k=v", "a=1&b&c=", "k=%C3%A9"])
def test_the_new_query_is_spliced_in_place(
    cls: type[URI | IRI], text: str, query: str | None
) -> None:
    ref = cls(text)
    replaced = ref._replace_query(query)
    start, end = ref._span(7)
    if start < 0:
        start = end = ref._span(6)[1]
    else:
        start -= 1
    expected = cls(text[:start] + ("" if query is None else "?" + query) + text[end:])
    assert replaced is not None and type(replaced) is cls
    assert str(replaced) == str(expected)
    assert replaced.parts == expected.parts
    assert [replaced._span(g) for g in range(9)] == [expected._span(g) for g in range(9)]


@pytest.mark.parametrize("query", ["a b", "#", "%2", "k=\u00e9"])
def test_a_text_that_is_no_query_is_not_spliced(query: str) -> None:
    assert URI("http://a/?x#f")._replace_query(query) is None
    with pytest.raises(URIError):
        URI("http://a/?x#f")._with_query(query, "x")


def test_an_iri_query_may_hold_iprivate() -> None:
    assert IRI("http://a/")._replace_query("\ue000") == "http://a/?\ue000"
    assert URI("http://a/")._replace_query("\ue000") is None
    assert IRI("http://a/")._replace_query("\u200e") is None  # RFC 3987 §4.1


# -- the fast path of set_query_param against the piece-by-piece edit -----------------------

CORPUS = (Path(__file__).resolve().parent.parent / "bench" / "urls.txt").read_text("utf-8")
# Names and values written as they are, and some that are not (so the fast path declines).
PLAIN = st.sampled_from(["a", "b", "x", "a_1", "Z9", "_", "utm_source", "a b", "a+b", "%61", ""])
# Query text dense in the delimiters and in the escapes that decode to "a".
DENSE = st.lists(
    st.sampled_from(["a", "b", "x", "=", "&", "+", "%61", "%41", "%", "_", "é"]), max_size=12
).map("".join)


def _outcome(edit: Callable[[], str | None]) -> tuple[str, str | None]:
    try:
        return ("ok", edit())
    except (URIError, TypeError, ValueError) as exc:
        return (type(exc).__name__, str(exc))


def _check_fast_path(query: str, name: str, value: str, codec: Codec) -> bool:
    """The fast path, when it answers, answers as the piece-by-piece edit; did it answer?"""
    fast = _outcome(lambda: _set_as_written(query, name, value))
    if fast == ("ok", None):
        return False
    pairs = _encode_pairs(name, value, codec, False)
    assert fast == _outcome(lambda: _set_in_pieces(query, name, pairs, codec))
    assert fast == _outcome(lambda: set_query_param(query, name, value, codec=codec))
    return True


@given(
    query=queries() | DENSE,
    name=PLAIN | TEXT,
    value=PLAIN | TEXT,
    codec=st.sampled_from(["form", "rfc3986"]),
)
def test_set_fast_path_agrees_with_pieces(query: str, name: str, value: str, codec: Codec) -> None:
    if query:
        _check_fast_path(query, name, value, codec)


def test_set_fast_path_agrees_with_pieces_on_the_corpus() -> None:
    answered = 0
    for line in CORPUS.splitlines():
        query = line.partition("#")[0].partition("?")[2]
        if not query:
            continue
        names = {piece.partition("=")[0] for piece in query.split("&")} | {"a", "utm_source"}
        # Mutations: the first name written with an escape, a "+", or moved to the end.
        first = query.partition("&")[0]
        mutated = [query, "%61" + query, query + "&" + first, query.replace("=", "+=", 1)]
        for text in mutated:
            for name in names:
                for codec in ("form", "rfc3986"):
                    answered += _check_fast_path(text, name, "x", codec)
    assert answered > 1000  # the corpus takes the fast path, so the comparison means something


@pytest.mark.parametrize("cls", [URI, IRI])
def test_set_on_references_agrees_with_pieces_on_the_corpus(cls: type[URI]) -> None:
    for line in CORPUS.splitlines():
        try:
            uri = cls(line)
        except URIError:
            continue
        query = uri.query
        if not query:
            continue
        for name in {piece.partition("=")[0] for piece in query.split("&")} | {"a"}:
            edited = uri.set_query_param(name, "x")
            expected = _set_in_pieces(query, name, _encode_pairs(name, "x", "form", False), "form")
            assert (edited.query, edited.fragment, edited.path) == (
                expected,
                uri.fragment,
                uri.path,
            )


def test_set_fast_path_cases() -> None:
    # Replaced in place, the rest kept byte for byte; appended when absent.
    assert _set_as_written("a=1&b=2", "a", "x") == "a=x&b=2"
    assert _set_as_written("a&b=2", "a", "x") == "a=x&b=2"
    assert _set_as_written("b=2", "a", "x") == "b=2&a=x"
    assert _set_as_written("ab=2", "a", "x") == "ab=2&a=x"
    assert _set_as_written("&&", "a", "x") == "&&&a=x"
    # Declined: a second piece of the name, a "%", a value to encode, a long query.
    assert _set_as_written("a=1&a=2", "a", "x") is None
    assert _set_as_written("%61=1", "a", "x") is None
    assert _set_as_written("a=1", "a", "x y") is None
    assert _set_as_written("b=1&" * MAX_PARAMS, "a", "x") is None
    assert set_query_param("%61=1&b=2", "a", "x") == "a=x&b=2"
    assert set_query_param("a=1&b=2&a=3", "a", "x") == "a=x&b=2"


@pytest.mark.parametrize("cls", [URI, IRI])
def test_a_query_text_with_a_hash_is_refused_where_it_stands(cls: type[URI]) -> None:
    """A "#" would end the query and start a fragment (RFC 3986 §3.4, §3.5): the edit
    refuses it at its position rather than reading another query."""
    with pytest.raises(URIError) as info:
        cls("http://a/b?x=1")._with_query("a#b", "x=1")
    assert (info.value.position, info.value.rule) == (12, "query")
