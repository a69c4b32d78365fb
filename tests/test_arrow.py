"""The column functions of ``urikit.arrow`` against the scalar API, row by row.

The oracle is ``URI(text)`` (or its ``URIError``) and the scalar functions; the
inputs are the vectors of tests/vectors and the real URLs of bench/urls.txt,
with nulls, as ``string``, ``large_string`` and ``string_view`` columns, sliced
and chunked.  Every test runs on both kernels: the compiled one (skipped when
``urikit._columns`` is not built, unless ``URIKIT_REQUIRE_EXTENSION=1``) and the
pure one.
"""

from __future__ import annotations

import array
import itertools
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import iri_references, known_scheme_references, uri_references

pa = pytest.importorskip("pyarrow")

import urikit  # noqa: E402
from urikit import IRI, URI, URIError  # noqa: E402
from urikit import _arrow_kernel as kernels  # noqa: E402
from urikit import arrow as ua  # noqa: E402
from urikit._contracts import SCANNED_RULES, ColumnOperation  # noqa: E402
from urikit.schemes import DEFAULT_REGISTRY, Scheme, SchemeRegistry  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "tests" / "vectors"
URLS = (ROOT / "bench" / "urls.txt").read_text(encoding="utf-8").splitlines()
SYNTAX = [case["input"] for case in json.loads((VECTORS / "uri_syntax.json").read_text())]
NORMALIZATION = json.loads((VECTORS / "normalization.json").read_text())
RESOLUTION = json.loads((VECTORS / "resolution.json").read_text())["cases"]
IRIS = ["http://résumé.example/ü?q=ü#ü", "http://[::1]/\u200e", "//ü/\ue000?\ue000", "a\ud7ff"]
ROWS: list[str | None] = [None, *SYNTAX, None, *URLS, *IRIS, "", None]
REQUIRED = os.environ.get("URIKIT_REQUIRE_EXTENSION") == "1"


def _compiled() -> Any:
    try:
        from urikit import _columns
    except ImportError:
        if REQUIRED:
            pytest.fail("URIKIT_REQUIRE_EXTENSION=1 but urikit._columns is not importable")
        pytest.skip("urikit._columns is not built")
    return kernels.CompiledKernel(_columns)


@pytest.fixture(params=["compiled", "pure"], autouse=True)
def kernel(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    chosen = _compiled() if request.param == "compiled" else kernels.PureKernel()
    monkeypatch.setattr(kernels, "KERNEL", chosen)
    yield request.param


def columns(rows: list[str | None]) -> Iterator[Any]:
    """``rows`` as each kind of string column, whole, sliced and chunked."""
    for type_ in (pa.string(), pa.large_string(), pa.string_view()):
        whole = pa.array(rows, type_)
        yield whole
        padded = pa.array(["x", *rows, "y"], type_)
        yield padded.slice(1, len(rows))
        third = len(rows) // 3
        yield pa.chunked_array([whole.slice(0, third), whole.slice(third)], type_)


def scalar(text: str | None, iri: bool = False) -> URI | IRI | URIError | None:
    if text is None:
        return None
    try:
        return (IRI if iri else URI)(text)
    except URIError as error:
        return error


@pytest.mark.parametrize("iri", [False, True], ids=["uri", "iri"])
def test_parse_answers_as_the_value_type(iri: bool) -> None:
    for column in columns(ROWS):
        got = ua.parse(column, iri=iri).to_pylist()
        assert len(got) == len(ROWS)
        for text, row in zip(ROWS, got, strict=True):
            want = scalar(text, iri)
            if want is None:
                assert row is None
            elif isinstance(want, URIError):
                assert row["valid"] is False, text
                assert all(row[name] is None for name in kernels.COMPONENTS)
                assert (row["error_position"], row["error"], row["error_rule"]) == (
                    want.position,
                    want.reason,
                    want.rule,
                ), text
            else:
                assert row["valid"] is True
                assert row["error"] is row["error_position"] is row["error_rule"] is None
                for name in kernels.COMPONENTS:
                    assert row[name] == getattr(want, name), (text, name)


def test_parse_builds_the_fields_named() -> None:
    whole = ua.parse(pa.array(ROWS)).to_pylist()
    for fields in (["host", "path"], ["error", "scheme", "valid"], ["error_rule"], ["fragment"]):
        for column in columns(ROWS):
            got = ua.parse(column, fields=fields)
            assert got.type.names == fields
            for row, full in zip(got.to_pylist(), whole, strict=True):
                assert row == (None if full is None else {name: full[name] for name in fields})
    for bad in (["host", "host"], ["hostname"], []):
        with pytest.raises(ValueError, match="fields"):
            ua.parse(pa.array(ROWS), fields=bad)
    with pytest.raises(URIError, match="row 1: "):
        ua.parse(pa.array(["a:", "bad uri"]), fields=["host"], errors="raise")


def test_components_host_type_and_port_number() -> None:
    for column in columns(ROWS):
        answers = {name: getattr(ua, name)(column).to_pylist() for name in kernels.COMPONENTS}
        host_types = ua.host_type(column).to_pylist()
        ports = ua.port_number(column).to_pylist()
        for i, text in enumerate(ROWS):
            want = scalar(text)
            ok = isinstance(want, URI)
            for name in kernels.COMPONENTS:
                assert answers[name][i] == (getattr(want, name) if ok else None), (text, name)
            assert host_types[i] == (want.host_type if ok else None), text
            assert ports[i] == (port_number(want) if ok else None), text


def port_number(u: URI) -> int | None:
    """``u.port_number`` as an int64 column holds it: null where it raises."""
    try:
        return u.port_number
    except URIError:
        return None


def test_port_numbers_above_65535_are_null_or_raise() -> None:
    rows = [
        "http://h:0065535/",
        "http://h:65536/",
        "http://h:9223372036854775808/",
        "http://h:" + "9" * 25,
    ]
    assert ua.port_number(pa.array(rows)).to_pylist() == [65535, None, None, None]
    with pytest.raises(URIError, match=r"row 1: .*above 65535"):
        ua.port_number(pa.array(rows), errors="raise")


@pytest.mark.parametrize(
    "rule",
    [*SCANNED_RULES, "host", "IPv4address", "path", "query", "ihost"],
)
def test_is_valid_answers_as_is_valid(rule: str) -> None:
    rows = ROWS if rule in SCANNED_RULES else [*ROWS[:300], "1.2.3.4", "a%2", None]
    for column in columns(rows):
        got = ua.is_valid(column, rule).to_pylist()
        assert got == [None if t is None else urikit.is_valid(t, rule) for t in rows]


def test_is_valid_refuses_an_unknown_rule() -> None:
    with pytest.raises(ValueError, match="unknown rule"):
        ua.is_valid(pa.array(["a"]), "no-such-rule")


def test_errors_raise_names_the_row() -> None:
    column = pa.chunked_array([["http://a/", None], ["http://b/", "bad uri"]])
    for function in (ua.parse, ua.host, ua.host_type, ua.normalize):
        with pytest.raises(URIError, match="row 3: ") as caught:
            function(column, errors="raise")
        assert caught.value.reason.startswith("row 3: expected")
        assert caught.value.position == 3 and caught.value.text == "bad uri"


@pytest.mark.parametrize("level", ["scheme", "syntax", "string"])
def test_normalize_answers_as_normalize(level: str) -> None:
    inputs = [case[0] for case in NORMALIZATION["normalized"]]
    inputs += [u for pair in NORMALIZATION["equivalent"] for u in pair[:2]]
    rows = [*ROWS, *inputs, "http://EXAMPLE.com", "http://a:80", "https://a:0443/x", "http://a"]
    for column in columns(rows):
        got = ua.normalize(column, level=level).to_pylist()
        for text, answer in zip(rows, got, strict=True):
            want = scalar(text)
            if isinstance(want, URI):
                assert answer == str(urikit.normalize(text, level=level)), text  # type: ignore[arg-type]
            else:
                assert answer is None, text


#: Rows whose normal form the compiled kernel writes itself (RFC 3986 §6.2.2.1,
#: §6.2.3 and the registry's rules), or must leave to the scalar API.
NORMAL_FORMS = [
    "HTTP://Example.COM",
    "Http://u:P@Example.com:0080/a?Q#F",
    "http://a:/",
    "http://a:000",
    "http://a:0/",
    "https://a:443",
    "https://a:0443/x",
    "https://a:4430/x",
    "ws://a:80",
    "foo://A:80",
    "//H:00/x",
    "//h:",
    "file:/etc/x",
    "FILE:/etc/x",
    "file:etc/x",
    "file://LocalHost/x",
    "file://localhost:/x",
    "file://localhost:1/x",
    "file://u@localhost/x",
    "file://localhost",
    "file://localhostx/y",
    "file://Host",
    "file:",
    "mailto:A@B.COM,c@D",
    "mailto:a@b.com",
    "mailto:A@x@Y.org",
    "mailto:,A@B,,",
    "mailto:a@%42.com",
    "mailto:?to=A@B.COM",
    "mailto:NOBODY",
    "urn:ISBN:0451450523",
    "URN:isbn:X",
    "urn:ISBN",
    "urn:%49SBN:x",
    "urn:a:B:C",
    "http://a/./b",
    "http://a/b/..",
    "http://a/.b/c.",
    "http://a/..b",
    "x:a/./b",
    "x:/a/./b",
    "a/./b",
    "./a",
    ".",
    "..",
    "a/..b/c",
    "http://a/%7e",
    "http://a/%7E",
    "http://a/%2f",
    "http://a/%2F",
    "http://%41/",
    "http://[::1]/",
    "http://[v1.X]/",
    "http://a?%41",
    "bad uri",
    "http://é/",
]


@pytest.mark.parametrize("level", ["scheme", "syntax"])
def test_normalize_forms_the_kernel_writes(level: str) -> None:
    for column in columns([*NORMAL_FORMS, None]):
        got = ua.normalize(column, level=level).to_pylist()
        for text, answer in zip([*NORMAL_FORMS, None], got, strict=True):
            want = scalar(text)
            expected = str(urikit.normalize(text, level=level)) if isinstance(want, URI) else None  # type: ignore[arg-type]
            assert answer == expected, text


#: Rows whose normal form the compiled core writes (``uk_normalize_ucs1``): triplets
#: (RFC 3986 §6.2.2.1, §6.2.2.2), dot-segments (§6.2.2.3), ports and empty paths
#: (§6.2.3) and the registry's rules, in every component.
CORE_FORMS = [
    "http://a/%7e",
    "HTTP://A/%7Euser/%2f?%41#%7a",
    "http://a/b/../c",
    "http://a/./b/.",
    "https://example.com/../../etc/passwd",
    "x:/a/./b",
    "//A/b/../c",
    "/a/%62/../c",
    "http://%41%62/",
    "http://u%7e@a:00080/",
    "mailto:A@%42.COM,c@D",
    "urn:%49SBN:x",
    "file://LocalHost/%7e/./x",
    "file:/a/../b",
    "http://[::1]/",
    "http://[v1.X]/a/../b",
    "HTTP://[2001:DB8:0:0:1::1%25Eth%30]:080",  # RFC 5952 text, RFC 6874 zone
    "http://[::ffff:C000:280]/",
]
#: Rows only the scalar API answers: relative-path references with dot-segments, whose
#: meaning needs a base (§5.2.4).
SCALAR_FORMS = ["a/./b", "./a", "..", "a/b/.."]


@pytest.mark.parametrize("kernel", ["compiled"], indirect=True)  # the pure one asks for all
@pytest.mark.parametrize("level", ["syntax", "scheme"])
def test_the_kernel_writes_triplets_and_dot_segments(kernel: str, level: str) -> None:
    rows = [*CORE_FORMS, *SCALAR_FORMS]
    asked: list[str] = []

    def fallback(row: int, text: str) -> str:
        asked.append(text)
        return str(urikit.normalize(text, level=level))  # type: ignore[arg-type]

    operation = (
        ColumnOperation.NORMALIZE_SYNTAX if level == "syntax" else ColumnOperation.NORMALIZE_SCHEME
    )
    column = pa.array(rows, pa.string())
    request = kernels.Request(operation, fallback, registry=DEFAULT_REGISTRY)
    got = kernels.KERNEL.map(column, request).to_pylist()
    assert asked == SCALAR_FORMS
    assert got == [str(urikit.normalize(text, level=level)) for text in rows]  # type: ignore[arg-type]


def _one_change_from_normal() -> list[str]:
    """Normal references with one octet or triplet that makes them not normal (RFC 3986
    §6.2.2: a triplet, an upper-case letter in the scheme or host, a dot-segment), or
    that does not ("." inside a segment, an upper-case letter in the path), at every
    offset up to 140: the compiled kernel tests a row for plain normality 16 octets
    a step, 64 to a word (with a = 54, the "/" of "/." ends the first word)."""
    rows = []
    for a in range(141):
        for change in ("%7e", "%7E", "%2F", "/./", "/..", "/.", "x.", "A"):
            for b in (0, 1, 17):
                rows.append("http://h/" + "x" * a + change + "y" * b)
        rows.append("http://" + "h" * a + "H/p")
        rows.append("http://" + "h" * a + ".H/p")
        rows.append("s" * a + "S://h/p")
        rows.append("s" * (a + 1) + ":/" + "x" * a + "/.")
        rows.append("a" * a + "/./b")
        rows.append("./" + "x" * a)  # a dot-segment that begins the path
    return rows


@pytest.mark.parametrize("level", ["scheme", "syntax"])
def test_normalize_one_change_from_normal(level: str) -> None:
    rows = _one_change_from_normal()
    want = [str(urikit.normalize(text, level=level)) for text in rows]  # type: ignore[arg-type]
    # each row followed by more of the buffer, then each the last of its buffer
    assert ua.normalize(pa.array(rows, pa.string()), level=level).to_pylist() == want
    for text, answer in zip(rows[::97], want[::97], strict=True):
        assert ua.normalize(pa.array([text], pa.string()), level=level)[0].as_py() == answer


def test_normalize_rows_of_many_schemes() -> None:
    """The kernel remembers the rules of the schemes it has looked up (RFC 3986
    §6.2.3), by their length and first and last letters: schemes that share all
    three ("gs" and "ws", "file" and "wss"), one spelled in upper case, and schemes
    longer than it remembers, interleaved."""
    schemes = ["ws", "gs", "wss", "file", "http", "HTTP", "https", "Https", "coap+tcp"]
    schemes += ["chrome-extension", "a", "z", "git+ssh", "ftp", "sftp"]
    rows = [
        f"{scheme}://h:{port}{path}"
        for scheme, port, path in itertools.product(schemes, ["", "80", "443", "0021"], ["", "/p"])
    ]
    rows = [row for _, row in sorted(enumerate(rows), key=lambda pair: (pair[0] * 7919) % 131)]
    want = [str(urikit.normalize(text)) for text in rows]
    assert ua.normalize(pa.array(rows, pa.string())).to_pylist() == want


def test_normalize_with_a_registry_of_its_own() -> None:
    """The scheme codes of another registry (RFC 3986 §6.2.3): a default port, an
    empty path that is "/", a rule of its own, and case rules the kernel defers."""
    registry = (
        SchemeRegistry()
        .with_scheme(Scheme("alpha", default_port=81, empty_path_is_root=True))
        .with_scheme(Scheme("beta", special_rules=frozenset({"urn-nid"})))
        .with_scheme(Scheme("gamma", case_insensitive=frozenset({"host", "path"})))
        .with_scheme(Scheme("http", default_port=8080))
    )
    rows = [
        "ALPHA://H:81",
        "alpha://h:0081/a/./b",
        "alpha://h:80",
        "beta:NID:X/%7e",
        "Gamma://H/P",
        "http://a:80/",
        "http://a:8080",
        "mailto:a@B.COM",
        "https://a:443",
        None,
    ]
    for column in columns(rows):
        got = ua.normalize(column, registry=registry).to_pylist()
        want = [None if t is None else str(urikit.normalize(t, registry=registry)) for t in rows]
        assert got == want


@settings(max_examples=80, deadline=None)
@given(st.lists(st.one_of(st.none(), known_scheme_references(), uri_references()), max_size=30))
def test_generated_normal_forms(rows: list[str | None]) -> None:
    for level in ("scheme", "syntax"):
        got = ua.normalize(pa.array(rows, pa.string()), level=level).to_pylist()  # type: ignore[arg-type]
        for text, answer in zip(rows, got, strict=True):
            want = None if text is None else str(urikit.normalize(text, level=level))  # type: ignore[arg-type]
            assert answer == want, text


def test_normalize_vectors_and_steps() -> None:
    for text, level, expected, _ in NORMALIZATION["normalized"]:
        assert ua.normalize(pa.array([text]), level=level).to_pylist() == [expected]
    rows = ["HTTP://a/b?utm_source=x&k=1#top", "http://a/?b=2&a=1", None, "bad uri"]
    got = ua.normalize(pa.array(rows), drop_fragment=True, remove_params=["utm_*"]).to_pylist()
    assert got == ["http://a/b?k=1", "http://a/?b=2&a=1", None, None]
    with pytest.raises(TypeError, match="unexpected"):
        ua.normalize(pa.array(rows), drop_fragments=True)


def test_resolve_with_a_column_of_bases_and_one_base() -> None:
    bases = [case["base"] for case in RESOLUTION]
    refs = [case["ref"] for case in RESOLUTION]
    expected = [str(urikit.resolve(b, r)) for b, r in zip(bases, refs, strict=True)]
    assert ua.resolve(pa.array(bases), pa.array(refs)).to_pylist() == expected
    got = ua.resolve("http://a/b/c/d;p?q", pa.array(["../g", None, "bad uri", "#f"])).to_pylist()
    assert got == ["http://a/b/g", None, None, "http://a/b/c/d;p?q#f"]


PAIRS = [
    line.split("\t") for line in (ROOT / "bench" / "pairs.txt").read_text("utf-8").splitlines()
]
ONE_BASE = [
    "http://a/b/c/d;p?q",  # RFC 3986 §5.4
    "HTTP://u:p@A.example:8080/x/./y/../z?q#f",
    "foo:a/b",  # no authority
    "foo:",  # an empty path
    "file:///",
    "http://a",  # an empty path after an authority
    PAIRS[0][0],
]


def _resolved(base: str, ref: str | None, strict: bool) -> str | None:
    if ref is None:
        return None
    try:
        return str(urikit.resolve(base, ref, strict=strict))
    except URIError:
        return None


@pytest.mark.parametrize("base", ONE_BASE)
@pytest.mark.parametrize("strict", [True, False])
def test_resolve_against_one_base_answers_as_resolve(base: str, strict: bool) -> None:
    """Against one absolute URI the compiled kernel resolves in C (RFC 3986 §5.2);
    every row, invalid and non-ASCII ones among them, answers as ``urikit.resolve``."""
    refs = [case["ref"] for case in RESOLUTION]
    rows = [*refs, None, "bad uri", "ü", "http:g", "HTTP:g", "//x/./y", "a" * 40, *URLS[:300]]
    rows += [ref for _, ref in PAIRS[:300]]
    want = [_resolved(base, ref, strict) for ref in rows]
    for column in columns(rows):
        assert ua.resolve(base, column, strict=strict).to_pylist() == want
    assert ua.resolve(URI(base), pa.array(rows), strict=strict).to_pylist() == want


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.none(), uri_references()), max_size=20), st.sampled_from(ONE_BASE))
def test_generated_references_against_one_base(rows: list[str | None], base: str) -> None:
    got = ua.resolve(base, pa.array(rows, pa.string())).to_pylist()  # type: ignore[arg-type]
    assert got == [_resolved(base, ref, True) for ref in rows]


def _resolved_each(base: str | None, ref: str | None, strict: bool) -> str | None:
    return None if base is None else _resolved(base, ref, strict)


@pytest.mark.parametrize("strict", [True, False])
def test_resolve_against_a_column_of_bases_answers_as_resolve(strict: bool) -> None:
    """Row by row against a column of bases, resolved in C where the base is an
    absolute URI and the row a URI reference (RFC 3986 §5.2); null bases, relative
    or invalid bases and invalid rows answer as ``urikit.resolve`` does."""
    pairs: list[tuple[str | None, str | None]] = [(b, r) for b, r in PAIRS[:600]]
    pairs += [(case["base"], case["ref"]) for case in RESOLUTION]
    pairs += [
        (None, "g"), ("http://a/b", None), (None, None), ("/relative", "g"), ("bad base", "g"),
        ("http://a/b", "bad uri"), ("http://ü/", "g"), ("http://a/b", "ü"),
        ("HTTP://a/b", "http:g"),
    ]  # fmt: skip
    bases = [b for b, _ in pairs]
    refs = [r for _, r in pairs]
    want = [_resolved_each(b, r, strict) for b, r in pairs]
    for column, base_column in zip(columns(refs), columns(bases), strict=True):
        assert ua.resolve(base_column, column, strict=strict).to_pylist() == want
    # chunked differently from the references
    third = len(bases) // 3
    chunked = pa.chunked_array([pa.array(bases[:third]), pa.array(bases[third:])])
    assert ua.resolve(chunked, pa.array(refs), strict=strict).to_pylist() == want
    large = pa.array(bases, pa.large_string())
    assert ua.resolve(large, pa.array(refs, pa.string_view()), strict=strict).to_pylist() == want


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.one_of(st.none(), st.sampled_from(ONE_BASE), uri_references()),
            st.one_of(st.none(), uri_references()),
        ),
        max_size=20,
    )
)
def test_generated_references_against_generated_bases(
    pairs: list[tuple[str | None, str | None]],
) -> None:
    bases = pa.array([b for b, _ in pairs], pa.string())
    refs = pa.array([r for _, r in pairs], pa.string())
    got = ua.resolve(bases, refs).to_pylist()
    assert got == [_resolved_each(b, r, True) for b, r in pairs]


def test_resolve_against_a_column_of_bases_raises_naming_the_row() -> None:
    with pytest.raises(URIError, match="row 1: "):
        ua.resolve(pa.array(["http://a/", "rel"]), pa.array(["g", "g"]), errors="raise")
    with pytest.raises(ValueError, match="2 bases for 1 references"):
        ua.resolve(pa.array(["http://a/", "http://b/"]), pa.array(["g"]))


def test_resolve_against_one_base_raises_naming_the_row() -> None:
    column = pa.array(["g", None, "bad uri"])
    with pytest.raises(URIError, match="row 2: "):
        ua.resolve("http://a/b", column, errors="raise")
    # a relative base is a bad base for every row, as for urikit.resolve
    assert ua.resolve("/a/b", pa.array(["g", None])).to_pylist() == [None, None]


def test_relativize_inverts_resolve() -> None:
    base = "http://a/b/c/d;p?q"
    targets = [str(urikit.resolve(base, case["ref"])) for case in RESOLUTION[:40]]
    relative = ua.relativize(base, pa.array(targets)).to_pylist()
    assert relative == [str(urikit.relativize(base, t)) for t in targets]
    assert ua.resolve(base, pa.array(relative)).to_pylist() == targets


def test_to_uri_answers_as_the_iri_mapping() -> None:
    rows = [*IRIS, *URLS[:500], None, "bad iri", "http://ü.example/"]
    for idna in (False, True):
        got = ua.to_uri(pa.array(rows), idna=idna).to_pylist()
        for text, answer in zip(rows, got, strict=True):
            want = scalar(text, iri=True)
            if isinstance(want, IRI):
                try:
                    assert answer == str(want.to_uri(idna=idna)), text
                except URIError:
                    assert answer is None
            else:
                assert answer is None


def test_query_param_and_audit_codes() -> None:
    rows = ["http://a/?q=1&q=2", "http://a/?x=%20", "http://a/", None, "bad uri", *URLS[:200]]
    got = ua.query_param(pa.array(rows), "q").to_pylist()
    assert got[:5] == ["1", None, None, None, None]
    for text, answer in zip(rows[5:], got[5:], strict=True):
        assert answer == URI(text).query_param("q")
    codes = ua.audit_codes(pa.array(rows)).to_pylist()
    assert codes == [None if t is None else [f.code for f in urikit.audit(t)] for t in rows]


def test_inputs_through_the_capsule_interface() -> None:
    class Capsule:
        def __init__(self, array: Any) -> None:
            self.array = array

        def __arrow_c_array__(self, requested_schema: Any = None) -> Any:
            return self.array.__arrow_c_array__(requested_schema)

    rows = ["http://a/b", None, "x:"]
    assert ua.scheme(Capsule(pa.array(rows))).to_pylist() == ["http", None, "x"]
    assert ua.scheme(rows).to_pylist() == ["http", None, "x"]
    assert ua.path(pa.chunked_array([], pa.string())).to_pylist() == []
    with pytest.raises(TypeError, match="column of string"):
        ua.host(pa.array([1, 2]))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.none(), uri_references(), iri_references()), max_size=30))
def test_generated_references(rows: list[str | None]) -> None:
    got = ua.parse(pa.array(rows, pa.string()), iri=True).to_pylist()
    for text, row in zip(rows, got, strict=True):
        want = scalar(text, iri=True)
        if isinstance(want, IRI):
            assert [row[name] for name in kernels.COMPONENTS] == [
                getattr(want, name) for name in kernels.COMPONENTS
            ]
        else:
            assert (row is None) == (want is None)


AUTHORITIES = [
    "//a:b:c@d/p",
    "//a:1",
    "//a:b@c:2/p?q#f",
    "//u%41:p%3A@h%2e/x",
    "//h:x/",
    "//h:",
    "//:@:",
    "//@",
    "//a@b@c",
    "//[::1]:80/a",
    "//[v1.x]",
    "//h:80:90",
    "//h%4",
    "//h/ü",
    "http://0123456789ab:65536",
    "http://0123456789abc/0123456789ab",
    "s://a%25:b%3a%40@host.example.org:8080/0123456789abcdef?012#345",
    "a",
    "",
]


def test_authorities_and_view_lengths() -> None:
    """Userinfo, host and port in every arrangement, and components of 12 and 13
    octets (the longest string a view holds inline and the shortest it does not),
    with the last row at the end of its data."""
    for rows in (AUTHORITIES, [*AUTHORITIES, *AUTHORITIES[:5]], AUTHORITIES[::-1]):
        for column in columns(rows):
            got = ua.parse(column).to_pylist()
            for text, row in zip(rows, got, strict=True):
                want = scalar(text)
                if isinstance(want, URIError):
                    assert row["valid"] is False, text
                else:
                    assert [row[name] for name in kernels.COMPONENTS] == [
                        getattr(want, name) for name in kernels.COMPONENTS
                    ], text


def exact(rows: list[str]) -> Any:
    """``rows`` as a ``string`` column whose data buffer is a ``bytes`` of exactly their
    octets, so that the sanitizers see a read past its end."""
    octets = [row.encode() for row in rows]
    offsets = array.array("i", itertools.accumulate((len(o) for o in octets), initial=0))
    buffers = [None, pa.py_buffer(offsets.tobytes()), pa.py_buffer(b"".join(octets))]
    return pa.Array.from_buffers(pa.string(), len(rows), buffers)


def assert_parsed_as_the_value_type(rows: list[str | None]) -> None:
    texts = [row for row in rows if row is not None]
    cases = [(rows, column) for column in columns(rows)] + [(texts, exact(texts))]
    for inputs, column in cases:
        got = ua.parse(column)
        got.validate(full=True)
        for text, row in zip(inputs, got.to_pylist(), strict=True):
            want = scalar(text)
            if want is None:
                assert row is None
            elif isinstance(want, URIError):
                assert row["valid"] is False, text
                assert (row["error_position"], row["error"]) == (want.position, want.reason)
            else:
                assert [row[name] for name in kernels.COMPONENTS] == [
                    getattr(want, name) for name in kernels.COMPONENTS
                ], text


#: Runs of every class of the scanner, 1 to 40 octets long, so that each ends before,
#: at and after every octet of a 16-octet step.
RUNS = [
    "s" + "c" * 20 + "://" + "u" * 17 + "@" + "h" * 33 + ":8080/" + "p" * 40,
    "s://h" * 3 + "/" + "?q" * 20 + "#" + "f" * 39,
    "//" + "0123456789abcdef" * 2 + "/x:y" * 9,
    "rel" * 13 + "/seg%41" * 5 + "?%7e" * 7,
    "s:" + "o" * 15 + "%zz",
]


def test_runs_end_at_the_end_of_the_row() -> None:
    """Every prefix of long runs, one row after the other, then the other way round:
    the octets after a row in its data buffer continue its runs (or, near the end of
    the buffer, are not there), and none of them counts."""
    for text in RUNS:
        prefixes: list[str | None] = [text[:k] for k in range(len(text) + 1)]
        assert_parsed_as_the_value_type(prefixes)
        assert_parsed_as_the_value_type(prefixes[::-1])
        assert_parsed_as_the_value_type([p for row in prefixes for p in (row, " \x00<> ")])


def test_components_near_the_end_of_the_data() -> None:
    """Components of 0 to 14 octets in the last row, which ends 0 to 20 octets before
    the end of its data: its views are written by the checked path, the rows before it
    by the wide one."""
    for length in range(15):
        last = f"s://{'h' * length}/{'p' * length}?{'q' * length}#{'f' * length}"
        for after in range(21):
            rows: list[str | None] = [last, last, "x" * after]
            assert_parsed_as_the_value_type(rows)
            assert_parsed_as_the_value_type(rows[:2] if after == 0 else [*rows[:2], None])


#: Rows that are not references, each failing in another place and for another reason
#: (RFC 3986 §3.1-§3.5, §2.1): the position counts characters, non-ASCII ones too.
INVALID = [
    "bad uri",
    "http://a/ü<",
    "ü:x",
    "http://[::1",
    "http://h:x/",
    "http://a/%zz",
    "//a/b c",
    "a:b:c/d e",
    "http://a\u00e9/x y",
    "é" * 20 + " ",
    "http://[v1.x]/\u202e",
    "http://u@h@i/",
]


@pytest.mark.parametrize("iri", [False, True], ids=["uri", "iri"])
def test_errors_of_rows_that_are_not_references(iri: bool) -> None:
    """The error fields of ``parse`` hold each row's ``URIError`` as the scalar API
    raises it, many rows and few, with rows that are references and nulls among them
    (the compiled kernel locates them in C, with the position in characters)."""
    rows: list[str | None] = [*INVALID, None, "http://a/", *INVALID[::-1]]
    rows = rows * 3 + URLS[:200] + rows
    for column in columns(rows):
        got = ua.parse(column, iri=iri, fields=["error_position", "error", "error_rule"])
        got.validate(full=True)
        for text, row in zip(rows, got.to_pylist(), strict=True):
            want = scalar(text, iri)
            if want is None:
                assert row is None
            elif isinstance(want, URIError):
                assert row == {
                    "error_position": want.position,
                    "error": want.reason,
                    "error_rule": want.rule,
                }, text
            else:
                assert row == {"error_position": None, "error": None, "error_rule": None}


def test_errors_of_rows_that_are_not_utf8() -> None:
    """A row whose octets are not UTF-8 (Arrow leaves that to the writer) is an invalid
    row, explained by its first ill-formed octet (RFC 3629 §4) as the command explains a
    line of them; the other rows are answered."""
    offsets = array.array("i", [0, 3, 5])
    data = pa.py_buffer(b"a\xffbhi")
    column = pa.Array.from_buffers(pa.string(), 2, [None, pa.py_buffer(offsets.tobytes()), data])
    for iri in (False, True):
        got = ua.parse(column, iri=iri).to_pylist()
        assert got[0]["valid"] is False and got[0]["path"] is None
        assert (got[0]["error_position"], got[0]["error"], got[0]["error_rule"]) == (
            1,
            "invalid UTF-8 octet 0xFF at byte 1",
            "UTF8-char",
        )
        assert got[1]["valid"] is True and got[1]["path"] == "hi"
        with pytest.raises(URIError, match="row 0: invalid UTF-8 octet 0xFF at byte 1"):
            ua.parse(column, iri=iri, errors="raise")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.none(), uri_references()), max_size=30))
def test_generated_uri_references(rows: list[str | None]) -> None:
    for column in columns(rows):
        got = ua.parse(column, fields=["valid", *kernels.COMPONENTS]).to_pylist()
        for text, row in zip(rows, got, strict=True):
            want = scalar(text)
            if isinstance(want, URI):
                assert row["valid"] is True
                assert [row[name] for name in kernels.COMPONENTS] == [
                    getattr(want, name) for name in kernels.COMPONENTS
                ]
            else:
                assert (row is None) == (want is None)
