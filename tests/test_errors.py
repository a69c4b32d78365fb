"""URIError: where and why (RFC 3986 Appendix A), checked against an independent oracle.

The error position is the length of the longest viable prefix: ``text[:position]``
begins some valid reference and ``text[:position + 1]`` begins none; when the text's
authority holds no "@", of the references without a userinfo (``urikit.diagnose``).  The
oracle (``abnf_oracle``) transcribes Appendix A rule by rule and runs it as an
NFA, so it decides both questions without sharing code with ``urikit``.
"""

from __future__ import annotations

import pickle

import abnf_oracle as oracle
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from strategies import authority_text, grammar_text, uri_references

from urikit import URI, URIError, is_valid
from urikit.grammar import RULES
from urikit.validate import RULE_NAMES, check

# --- positions and rules, by hand --------------------------------------------------------

# (text, position, rule): position of the first character that cannot belong to a parse
POSITIONS = [
    ("http://a b", 8, "host"),
    ("a b", 1, None),
    ("1a:b", 2, "segment-nz-nc"),  # §4.2: no scheme, colon in the first segment
    (":", 0, None),
    ("http://[::1", 11, None),  # end of input: the address could still be completed
    ("http://[::1]x", 12, None),
    ("http://[::1:::]", 12, None),
    ("http://[1:2:3:4:5:6:7:8:9]", 23, None),
    ("http://[1::2::3]", 13, "IPv6address"),
    ("http://[v1]", 10, "IPvFuture"),
    ("http://[vx.a]", 9, "IPvFuture"),
    ("http://[V1]", 10, "IPvFuture"),  # ABNF strings are case-insensitive (RFC 5234 §2.3)
    ("http://[V1.x", 12, None),
    ("http://[v1.x]x", 13, None),
    ("http://[fe80::1%eth0]", 16, "IPv6addrz"),
    ("http://[fe80::1%25]", 18, "ZoneID"),
    ("http://[1.2.3.4]", 9, None),
    ("http://h:80a/", 11, "port"),  # no "@" in the authority: no userinfo reading
    ("http://h:80a", 11, "port"),
    ("http://example.com:80a/", 21, "port"),  # a bad port, at the "a" (no "@": no userinfo reading)
    ("http://h:80a@x:y/", 15, "port"),  # an "@" follows: "h:80a" is a userinfo
    ("http://h:8 @x/", 10, None),
    ("http://u@h:80a/", 13, "port"),
    ("//h:8x", 5, "port"),
    ("a:b//h:8x[", 9, None),  # a path, not an authority
    ("http://h:8x?@", 10, "port"),  # the "@" is in the query
    ("http://h/%", 10, None),
    ("http://h/%4", 11, None),
    ("http://h/%4g", 11, None),
    ("http://h/%g4", 10, None),
    ("http://h/a b", 10, None),
    ("http://h/?q#f#", 13, "fragment"),
    ("//a@b@c", 5, None),
    ("//a:b/", 4, "port"),  # "a:b" is neither host:port nor (without "@") a userinfo
    ("//a:1@b:c", 8, "port"),
    ("http://[", 8, None),
    ("%", 1, None),
    ("\x00", 0, None),
    ("http://h/\u00e9", 9, None),
    ("http://h\ud800", 8, None),
    ("a:b[c", 3, None),
    ("a://b[c", 5, None),
    ("//[v1.:]x", 8, None),
]


@pytest.mark.parametrize(("text", "position", "rule"), POSITIONS)
def test_error_positions(text: str, position: int, rule: str | None) -> None:
    with pytest.raises(URIError) as info:
        URI(text)
    error = info.value
    assert error.position == position
    assert error.position == oracle.error_position(text)[0]
    assert error.text == text
    if rule is not None:
        assert error.rule == rule
    assert isinstance(error.rule, str) and error.rule


def test_uri_error_is_a_value_error() -> None:
    assert issubclass(URIError, ValueError)
    with pytest.raises(ValueError):
        URI("a b")


def test_message_names_the_character_and_draws_a_caret() -> None:
    with pytest.raises(URIError) as info:
        URI("http://exa mple.com/")
    message = str(info.value)
    first, line, caret = message.split("\n")
    assert "position 10" in first and "U+0020" in first and "host" in first
    assert line.strip() == "http://exa mple.com/"
    assert caret.index("^") == line.index("http") + 10
    assert info.value.reason in first


def test_message_at_end_of_input() -> None:
    with pytest.raises(URIError) as info:
        URI("http://[::1")
    assert "end of input" in str(info.value)
    line, caret = str(info.value).split("\n")[1:]
    assert caret.index("^") == line.index("h") + len("http://[::1")


def test_caret_for_long_input_is_cut_around_the_position() -> None:
    text = "http://h/" + "a" * 1000 + " " + "b" * 1000
    with pytest.raises(URIError) as info:
        URI(text)
    assert info.value.position == 1009
    line, caret = str(info.value).split("\n")[1:]
    assert len(line) < 200 and line.strip().startswith("...") and line.endswith("...")
    assert line[caret.index("^")] == " " and line[caret.index("^") - 1] == "a"


def test_caret_hides_controls_but_the_message_names_them() -> None:
    with pytest.raises(URIError) as info:
        URI("a\tb\nc")
    first, line, caret = str(info.value).split("\n")
    assert "U+0009" in first
    assert "\t" not in line and line[caret.index("^")] == "?"


def test_caret_counts_wide_characters_and_hides_combining_marks() -> None:
    with pytest.raises(URIError) as info:
        URI("http://例え.jp/")
    first, line, caret = str(info.value).split("\n")
    assert info.value.position == 7 and "U+4F8B" in first
    assert caret.index("^") == line.index("例")
    with pytest.raises(URIError) as info:
        URI("a\u0301b")
    first, line, caret = str(info.value).split("\n")
    assert info.value.position == 1 and "U+0301" in first and "\u0301" not in first
    assert line.strip() == "a?b" and line[caret.index("^")] == "?"
    with pytest.raises(URIError) as info:
        check("例え b", "IRI-reference")
    assert info.value.position == 2
    line, caret = str(info.value).split("\n")[1:]
    assert caret.index("^") == line.index(" b") + 2  # two wide characters: four columns


def test_error_pickles() -> None:
    with pytest.raises(URIError) as info:
        URI("http://h:8a/")
    error = info.value
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is URIError
    assert (again.position, again.rule, again.text, again.reason) == (
        error.position,
        error.rule,
        error.text,
        error.reason,
    )
    assert str(again) == str(error)
    plain = URIError("just a reason")
    assert str(plain) == "just a reason" and plain.position is None
    assert str(pickle.loads(pickle.dumps(plain))) == "just a reason"


def test_constructed_error() -> None:
    e = URIError("bad", text="abc", position=1, rule="scheme")
    assert (e.position, e.rule, e.text) == (1, "scheme", "abc")
    assert "'b' (U+0062) at position 1 in scheme: bad" in str(e)


@pytest.mark.parametrize("value", [b"x", None, 1.5, object()])
def test_type_errors(value: object) -> None:
    with pytest.raises(TypeError):
        URI(value)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        is_valid(value)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        check(value)  # type: ignore[arg-type]


def test_unknown_rule_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown rule"):
        is_valid("x", "no-such-rule")


# --- the oracle ---------------------------------------------------------------------------


def test_oracle_agrees_with_rfc_examples() -> None:
    """The oracle itself: a few facts of Appendix A, so a broken oracle fails loudly."""
    assert oracle.matches("foo://example.com:8042/over/there?name=ferret#nose")
    assert oracle.matches("urn:example:animal:ferret:nose")
    assert not oracle.matches("1a:b")
    assert oracle.viable_prefix("http://[::1") == 11
    assert oracle.viable_prefix("http://a b") == 8
    assert oracle.matches("::1", "IPv6address") and not oracle.matches("::1::", "IPv6address")
    assert oracle.matches("é", "IRI-reference", iri=True) and not oracle.matches("é")


def _assert_position(text: str, rule: str = "URI-reference", iri: bool = False) -> None:
    """``text`` is valid exactly when the oracle says so, else the position is the oracle's."""
    length, whole = oracle.error_position(text, rule, iri)
    if rule == "URI-reference":
        try:
            URI(text)
        except URIError as error:
            assert not whole, f"{text!r} is valid but URI() raised {error}"
            assert 0 <= error.position <= len(text)
            assert error.position == length, (text, error.position, length)
            assert error.rule in RULE_NAMES, error.rule
        else:
            assert whole, f"{text!r} is not a URI-reference but URI() accepted it"
    assert is_valid(text, rule) == whole, (text, rule)
    if not whole:
        with pytest.raises(URIError) as info:
            check(text, rule)
        assert info.value.position == length, (text, rule, info.value.position, length)
        assert info.value.rule in RULE_NAMES, info.value.rule


@given(grammar_text())
@example("http://[1:2:3:4:5:6:7:1.2.3.4]/")
@example("//u@[::1%25x]:/p?q#f")
@example("a:%4")
def test_error_position_is_the_longest_viable_prefix(text: str) -> None:
    _assert_position(text)


@given(authority_text())
@example("http://[1:2:3:4:5:6:7::8]/")
@example("http://[::1]%23")
def test_error_position_in_authorities(text: str) -> None:
    _assert_position(text)


@given(st.text(st.characters(exclude_categories=()), max_size=20))
def test_arbitrary_text_raises_only_uri_error(text: str) -> None:
    _assert_position(text)


@given(uri_references(), st.integers(0, 40), grammar_text(max_size=3))
def test_mutated_references(text: str, at: int, insert: str) -> None:
    """Near-valid input: a valid reference with a few characters spliced in."""
    at = min(at, len(text))
    _assert_position(text[:at] + insert + text[at:])


COMPONENT_RULES = sorted(
    name
    for name in oracle.URI_RULES
    if name not in ("URI-reference",) and RULES.get(name) is not None
)


@given(st.sampled_from(COMPONENT_RULES), grammar_text(max_size=12))
def test_every_rule_agrees_with_the_oracle(rule: str, text: str) -> None:
    _assert_position(text, rule)


IRI_RULES = ["IRI-reference", "IRI", "irelative-ref", "ihost", "ipath", "iquery", "ifragment"]


@given(
    st.sampled_from(IRI_RULES),
    st.lists(
        st.sampled_from(["é", "\ue000", "\ufff0", "\U000f0000", "\ud800", "%", "[", ":"])
        | grammar_text(max_size=3),
        max_size=8,
    ).map("".join),
)
def test_iri_rules_agree_with_the_oracle(rule: str, text: str) -> None:
    length, whole = oracle.error_position(text, rule, True)
    assert is_valid(text, rule) == whole, (text, rule)
    if not whole:
        with pytest.raises(URIError) as info:
            check(text, rule)
        assert info.value.position == length, (text, rule)


def test_non_ascii_in_a_uri_says_how_to_read_it() -> None:
    # RFC 3986 §2: a URI is ASCII; RFC 3987 §3.1 maps an IRI to one.
    with pytest.raises(URIError) as info:
        URI("https://Bücher.example/")
    assert info.value.position == 9 and info.value.rule == "host"
    assert "IRI(text)" in info.value.reason and "URI.lenient" in info.value.reason


def test_iri_rules_cite_rfc_3987() -> None:
    from urikit import IRI

    with pytest.raises(URIError) as info:
        IRI("x y")
    assert info.value.rule == "isegment-nz-nc"
    assert "RFC 3987 §2.2" in info.value.reason


# --- ports above 65535 (RFC 3986 §3.2.3 sets no bound; TCP and UDP ports do) -----------------


@pytest.mark.parametrize(
    ("text", "rule", "refused"),
    [
        ("http://h:70000/", "URI-reference", True),
        ("https://u@h:0065536?q", "URI", True),
        ("ws://h:" + "9" * 40, "absolute-URI", True),
        ("http://例え:70000/", "IRI-reference", True),
        ("http://h:65535/", "URI", False),
        ("http://h:0000065535/", "URI", False),
        ("foo://h:70000/", "URI", False),  # no registered default port: not a TCP/UDP service
        ("//h:70000/", "relative-ref", False),  # no scheme to ask
        ("//h:70000/", "URI-reference", False),
    ],
)
def test_a_port_above_65535_for_a_scheme_with_a_default_port(
    text: str, rule: str, refused: bool
) -> None:
    assert is_valid(text, rule)  # the grammar (§3.2.3) sets no bound
    check(text, rule)
    assert is_valid(text, rule, ports=True) is not refused
    if refused:
        with pytest.raises(URIError) as info:
            check(text, rule, ports=True)
        error = info.value
        assert (error.rule, error.position) == ("port", text.rindex(":") + 1)
        assert "65535" in error.reason and "TCP or UDP" in error.reason
        assert "default port" in error.reason
    else:
        check(text, rule, ports=True)
    assert not is_valid("http://h:7x/", rule, ports=True)


def test_urikit_validate_flags_a_port_above_65535(capsys: pytest.CaptureFixture[str]) -> None:
    from urikit.cli import main

    assert main(["validate", "--rule", "uri", "http://h:70000/", "http://h:80/"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("error: http://h:70000/\t9\tport\tthe port 70000 is above 65535")
    assert out[1] == "valid: http://h:80/"
    assert main(["validate", "--any-port", "http://h:70000/"]) == 0
    assert capsys.readouterr().out == "valid: http://h:70000/\n"
