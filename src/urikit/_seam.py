"""The seam: the one place that chooses, for each concept, the compiled core or the readable Python.

urikit is written twice: once as readable Python, the RFC's steps named as the RFC
names them (the reference implementation, in the modules below this one), and once in
C (``urikit._speedups``), which passes the same tests.  This module is the only one
that imports the compiled core and the only one that reads the switch.  The readable
modules below it call readable Python only; every module above it reaches a concept
through the entry here, which has the readable function's parameters and is bound,
once, to one of the two:

* the switch: the environment variable ``URIKIT_NO_EXTENSIONS``, read when urikit is
  imported.  Set to anything other than ``""`` or ``"0"``, it means pure Python;
  otherwise the compiled core is used when ``urikit._speedups`` can be imported.
  :data:`compiled` says which.
* where the compiled function answers only where it is sure (``None`` otherwise: a
  lone surrogate, an octet that is not UTF-8), the entry asks it first and the
  readable function answers the rest, so both bindings give every answer.

``docs/architecture.md`` has the table of the entries: concept, readable function, C
function, and the test that holds them together.  Four entries are bound by their
first call, because what they read (the scheme registry, the operations of floor 2,
the reports) loads on first use too.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from functools import partial
from types import ModuleType
from typing import TYPE_CHECKING, Final, Protocol, TypeVar

from . import percent
from ._contracts import (
    LENIENT_CODES,
    SCHEME_DEFER,
    SCHEME_EMPTY_PATH_IS_ROOT,
    SCHEME_PORT_SHIFT,
    SCHEME_RULE_FLAGS,
)
from ._store import PureStore
from ._store import scan as _readable_scan
from .components import Parts
from .errors import URIError
from .grammar import IRI_GRAMMAR, URI_GRAMMAR, Grammar
from .grammar import chars_in as _readable_chars_in

if TYPE_CHECKING:
    from .report import Report
    from .schemes import Scheme, SchemeRegistry
    from .types import Level

__all__ = [
    "Store",
    "chars_in",
    "column_core",
    "compiled",
    "encode_forbidden",
    "forbidden_runs",
    "form_decode",
    "normalized",
    "percent_decode",
    "percent_encode",
    "reference_error",
    "resolved",
    "scan",
    "scheme_codes",
    "suffix_lookup",
    "template_core",
    "triplet_concerns",
    "triplet_find",
    "triplet_runs",
    "validating",
    "whatwg_core",
]


def _compiled_core() -> ModuleType | None:
    """``urikit._speedups``, unless the switch says pure Python or it cannot be imported."""
    if os.environ.get("URIKIT_NO_EXTENSIONS", "") not in ("", "0"):
        return None
    try:
        from ._speedups import Reference  # noqa: F401
    except ImportError:
        return None
    # The module as this package loaded it: a copy of urikit under another name (the
    # tests load two) has its own.
    return sys.modules[f"{__name__.rpartition('.')[0]}._speedups"]


_C: Final = _compiled_core()

#: Whether the compiled core (``urikit._speedups``) is used.
compiled: Final[bool] = _C is not None

_S = TypeVar("_S", bound=PureStore)


# --- the value's storage and its scanner (RFC 3986 §3, Appendix A) ---------------------

if TYPE_CHECKING:
    Store = PureStore
else:
    #: What ``URI`` and ``IRI`` stand on: ``_speedups.Reference`` or ``_store.PureStore``.
    Store = PureStore if _C is None else _C.Reference

#: ``scan(text, iri)``: the sixteen ends of the components of an (I)RI-reference, or
#: ``None`` when ``text`` is not one (``_store.scan``, ``_speedups.scan``).
scan: Final[Callable[[str, bool], tuple[int, ...] | None]] = (
    _readable_scan if _C is None else _C.scan
)

#: ``validating(is_valid)``: ``is_valid`` with the eight reference rules answered by one
#: scan in C, every other call left to it (``is_valid`` itself on the pure path).
validating: Final[Callable[[Callable[[str, str], bool]], Callable[[str, str], bool]]] = (
    Store._validator
)


def _reference_error(text: str, iri: bool) -> URIError | None:
    """The error of ``diagnose.locate`` for the URI-reference rule (with ``iri``,
    IRI-reference), or ``None`` when ``text`` is a reference."""
    grammar = IRI_GRAMMAR if iri else URI_GRAMMAR
    if grammar.reference.fullmatch(text) is not None:
        return None
    from .diagnose import locate  # the walk that says where: loaded on the first error

    return locate(text, grammar, "IRI-reference" if iri else "URI-reference")


#: ``reference_error(text, iri)``: where and why ``text`` is not a URI-reference (with
#: ``iri``, an IRI-reference), or ``None`` when it is one.
reference_error: Final[Callable[[str, bool], URIError | None]] = (
    _reference_error if _C is None else _C.locate
)


# --- percent-encoding (§2.1, §2.4) ----------------------------------------------------


def _compiled_percent_encode(
    data: str | bytes,
    component: str = "path",
    *,
    encoded: bool = False,
    iri: bool = False,
    safe: str = "",
) -> str:
    """``percent.percent_encode``, text encoded in C when it holds no lone surrogate."""
    assert _C is not None
    if isinstance(data, str) and (not iri or data.isascii()):
        done: str | None = _C.percent_encode(
            data, percent.kept_octets(component, iri, safe), encoded
        )
        if done is not None:
            return done
    return percent.percent_encode(data, component, encoded=encoded, iri=iri, safe=safe)


def _compiled_percent_decode(text: str, *, encoding: str = "utf-8", errors: str = "strict") -> str:
    """``percent.percent_decode``, UTF-8 decoded in C when every "%" starts a triplet and
    the octets are UTF-8 (whatever the error policy: there is no error)."""
    assert _C is not None
    if encoding == "utf-8" and "%" in text:
        done: str | None = _C.percent_decode(text)
        if done is not None:
            return done
    return percent.percent_decode(text, encoding=encoding, errors=errors)


def _compiled_form_decode(text: str, *, encoding: str = "utf-8", errors: str = "strict") -> str:
    """``percent.form_decode`` over the compiled decoding: "+" is a space (RFC 1630)."""
    return _compiled_percent_decode(text.replace("+", " "), encoding=encoding, errors=errors)


#: ``percent_encode(data, component="path", *, encoded, iri, safe)`` (``percent``).
percent_encode: Final = percent.percent_encode if _C is None else _compiled_percent_encode
#: ``percent_decode(text, *, encoding, errors)`` (``percent``).
percent_decode: Final = percent.percent_decode if _C is None else _compiled_percent_decode
#: ``form_decode(text, *, encoding, errors)`` (``percent``).
form_decode: Final = percent.form_decode if _C is None else _compiled_form_decode

#: ``triplet_runs(text, start, end)``: the runs of triplets and their octets.
triplet_runs: Final[Callable[[str, int, int], list[tuple[int, int, bytes]]]] = (
    percent.triplet_runs if _C is None else _C.triplet_runs
)
#: ``triplet_concerns(text, start, end)``: the runs of a control or not UTF-8.
triplet_concerns: Final[Callable[[str, int, int], list[tuple[int, int, bytes]]]] = (
    percent.triplet_concerns if _C is None else _C.triplet_concerns
)


class _TripletFind(Protocol):
    def __call__(
        self, text: str, start: int, end: int, wanted: bytes, then: bytes | None = None, /
    ) -> int: ...


#: ``triplet_find(text, start, end, wanted, then=None)``: the first triplet of some octets.
triplet_find: Final[_TripletFind] = percent.triplet_find if _C is None else _C.triplet_find

#: ``chars_in(text, chars)``: the characters of ``chars`` that ``text`` holds
#: (``grammar.chars_in``, ``_speedups.chars_in``).
chars_in: Final[Callable[[str, str], str]] = _readable_chars_in if _C is None else _C.chars_in


# --- the other readings: the URL Standard, the Public Suffix List, URI Templates ------


def whatwg_core() -> ModuleType | None:
    """``urikit._whatwg``, the compiled parser of the URL Standard, or ``None`` for the
    readable one (``whatwg._pure``): the switch read when urikit was imported, and
    whether the module can be imported.  ``urikit.whatwg`` asks once, when imported."""
    if _C is None:
        return None
    try:
        from ._whatwg import Store  # noqa: F401
    except ImportError:
        return None
    return sys.modules[f"{__name__.rpartition('.')[0]}._whatwg"]


def template_core() -> ModuleType | None:
    """``urikit._template``, the compiled syntax check and router of URI Templates (RFC
    6570), or ``None`` for the readable ones (``template.syntax.parse``,
    ``template.routing.Router``): the switch read when urikit was imported, and whether
    the module can be imported.  ``urikit.template.backend`` asks once, when imported."""
    if _C is None:
        return None
    try:
        from ._template import Router  # noqa: F401
    except ImportError:
        return None
    return sys.modules[f"{__name__.rpartition('.')[0]}._template"]


def column_core() -> ModuleType | None:
    """``urikit._columns``, the compiled column kernel (the scanner, the locator and the
    operations of the compiled core over Arrow buffers), or ``None`` for the readable
    kernel of ``urikit._arrow_kernel``: the switch read when urikit was imported, and
    whether the module can be imported.  ``urikit._arrow_kernel`` asks once."""
    if _C is None:
        return None
    try:
        from ._columns import split  # noqa: F401
    except ImportError:
        return None
    return sys.modules[f"{__name__.rpartition('.')[0]}._columns"]


def suffix_lookup(
    edge_start: object, edge_labels: object, edge_targets: object, values: object
) -> Callable[[str, bool, int], object] | None:
    """The lookup in C of an ASCII host in a compiled Public Suffix List
    (``_speedups.sites_find`` over ``sites_table``), or ``None`` on the readable path,
    where ``sites.SuffixList`` walks its trie."""
    if _C is None:
        return None
    table = _C.sites_table(edge_start, edge_labels, edge_targets, values)
    found: Callable[[str, bool, int], object] = partial(_C.sites_find, table)
    return found


# --- the scheme codes the compiled normalization reads (§6.2.3) ----------------------


def _scheme_code(spec: Scheme) -> int:
    """What the compiled normalization needs of one scheme (§6.2.3), as one int in the
    layout of ``_contracts``: (default port + 1) << ``SCHEME_PORT_SHIFT``, with
    ``SCHEME_EMPTY_PATH_IS_ROOT`` when its empty path is "/", ``SCHEME_DEFER`` when it
    has case rules beyond the host or more than one rule of its own (which only
    ``normalization.scheme_based`` applies), and the flag of its one special rule."""
    from .normalization import HOST_ONLY_CASE

    port = 0 if spec.default_port is None else spec.default_port + 1
    code = port << SCHEME_PORT_SHIFT
    if spec.empty_path_is_root:
        code |= SCHEME_EMPTY_PATH_IS_ROOT
    if spec.case_insensitive not in HOST_ONLY_CASE or len(spec.special_rules) > 1:
        code |= SCHEME_DEFER
    for rule in spec.special_rules:
        code |= SCHEME_RULE_FLAGS.get(rule, SCHEME_DEFER)
    return code


#: The scheme codes of the registries asked for, each kept with its registry.
_CODES: Final[dict[int, tuple[SchemeRegistry, dict[str, int]]]] = {}


def scheme_codes(registry: SchemeRegistry) -> dict[str, int]:
    """The lower-case name of each scheme of ``registry`` -> its code for the compiled
    normalization (:func:`_scheme_code`)."""
    kept = _CODES.get(id(registry))
    if kept is None or kept[0] is not registry:
        if len(_CODES) >= 16:
            _CODES.clear()
        codes = {name: _scheme_code(spec) for name, spec in registry.items()}
        kept = _CODES[id(registry)] = (registry, codes)
    return kept[1]


# --- the entries bound on first use ---------------------------------------------------


class _Resolved(Protocol):
    def __call__(self, cls: type[_S], base: str, ref: str, strict: bool, /) -> _S | None: ...


class _Normalized(Protocol):
    def __call__(
        self, cls: type[_S], text: str, level: Level, registry: SchemeRegistry | None, /
    ) -> _S | None: ...


class _EncodeForbidden(Protocol):
    def __call__(
        self, grammar: Grammar, body: str, offset: int, delimited: bool, reports: list[Report], /
    ) -> tuple[str, str]: ...


class _ForbiddenRuns(Protocol):
    def __call__(
        self, grammar: Grammar, body: str, offset: int, delimited: bool, limit: int | None, /
    ) -> tuple[list[tuple[int, int, int]], int | None]: ...


def _parts(ref: PureStore) -> Parts:
    return tuple.__new__(Parts, ref._groups())


def _bind_resolved() -> _Resolved:
    from .resolution import transform_references

    def resolved(cls: type[_S], base: str, ref: str, strict: bool, /) -> _S | None:
        """§5.2.2 by ``resolution.transform_references`` on the components of both."""
        base_ref = cls._scan(base)
        if base_ref is None or base_ref.scheme is None:
            return None
        reference = cls._scan(ref)
        if reference is None:
            return None
        text = transform_references(_parts(base_ref), _parts(reference), strict=strict)
        return base_ref if text == base else cls._parse(text)

    return resolved


def _bind_normalized() -> _Normalized:
    from .schemes import DEFAULT_REGISTRY

    if _C is not None:
        normalize_in: _Normalized = partial(
            _C.normalize_in, None, scheme_codes(DEFAULT_REGISTRY), scheme_codes
        )
        return normalize_in
    from .normalization import compose, normal_components

    def normalized(
        cls: type[_S], text: str, level: Level, registry: SchemeRegistry | None, /
    ) -> _S | None:
        """§6.2.2 and §6.2.3 by ``normalization.normal_components`` on the components of
        ``text``: a text whose components it leaves as they are is its own normal form."""
        m = cls._fullmatch(text)
        if m is None:
            return None
        scheme, authority, userinfo, host, port, path, query, fragment = m.groups()
        normal = normal_components(
            (scheme, authority, userinfo, host, port, path, query, fragment),
            level,
            DEFAULT_REGISTRY if registry is None else registry,
            cls._iri,
        )
        if normal == (scheme, userinfo, host, port, path, query, fragment):
            return cls._from_match(m)
        return cls._parse(compose(normal))

    return normalized


#: The report codes of ``_speedups.lenient_encode``, by its numbers.
_ENCODE_CODES: Final = LENIENT_CODES


def _bind_encode_forbidden() -> _EncodeForbidden:
    from . import character_repairs as repairs
    from .report import Report

    if _C is None:
        readable: _EncodeForbidden = repairs.encode_forbidden
        return readable
    core = _C

    def encode_forbidden(
        grammar: Grammar, body: str, offset: int, delimited: bool, reports: list[Report], /
    ) -> tuple[str, str]:
        """The repairs made in one pass in C; the compiled scanner checks the repaired
        text whatever its runs of triplets, so it is its own skeleton."""
        encoded = core.lenient_encode(
            body,
            grammar.iri,
            delimited,
            repairs.authority(body)[1],
            body.find("#"),
            repairs.MAX_REPORTS,
        )
        if isinstance(encoded, int):
            repairs.refuse_surrogate(body, encoded)
        out: str
        out, runs, rest = encoded
        severities = repairs.SEVERITIES
        for number, start, end in runs:
            code = _ENCODE_CODES[number]
            message = repairs.message(code, body, start, end)
            reports.append(
                Report(code, message, severities[code], (offset + start, offset + end), True)
            )
        for number, start, end, chars in rest:
            code = _ENCODE_CODES[number]
            message = repairs.summary(code, chars)
            reports.append(
                Report(code, message, severities[code], (offset + start, offset + end), True)
            )
        reports.sort(key=lambda r: r.span[0])
        return out, out

    return encode_forbidden


def _bind_forbidden_runs() -> _ForbiddenRuns:
    from . import character_repairs as repairs

    if _C is None:

        def readable(
            grammar: Grammar, body: str, offset: int, delimited: bool, limit: int | None, /
        ) -> tuple[list[tuple[int, int, int]], int | None]:
            """The pieces ``character_repairs.encode_forbidden`` replaces, all of them."""
            runs: list[tuple[int, int, int]] = []
            repairs.encode_forbidden(grammar, body, offset, delimited, [], runs)
            return runs, None

        return readable
    core = _C

    def forbidden_runs(
        grammar: Grammar, body: str, offset: int, delimited: bool, limit: int | None, /
    ) -> tuple[list[tuple[int, int, int]], int | None]:
        """The runs of the repairs, from one pass in C: white space removed, anything
        else three characters an octet of its UTF-8.  With a ``limit``, the runs before
        the first run past the first ``limit`` runs of a kind of repair, and where that
        run begins (so that a text of a million repairs is not listed whole for the
        first of them); ``None`` when every run is listed."""
        bound = len(body) + 1 if limit is None else limit
        encoded = core.lenient_encode(
            body, grammar.iri, delimited, repairs.authority(body)[1], body.find("#"), bound
        )
        if isinstance(encoded, int):
            repairs.refuse_surrogate(body, encoded)
        before = min((offset + first for _, first, _, _ in encoded[2]), default=None)
        pieces = []
        for number, first, last in encoded[1]:
            if before is not None and offset + first >= before:
                continue  # past a kind of repair whose later runs are not listed
            piece = body[first:last]
            if _ENCODE_CODES[number] == "embedded-whitespace":
                length = 0
            else:  # three characters for each octet of UTF-8 (§2.1, §2.5)
                length = 3 * (len(piece) if piece.isascii() else len(piece.encode("utf-8")))
            pieces.append((offset + first, offset + last, length))
        pieces.sort()
        return pieces, before

    return forbidden_runs


# Each entry below is first a function that binds it, puts the binding in its place
# and answers through it: what the binding reads loads on the first call.


def _resolved_first(cls: type[_S], base: str, ref: str, strict: bool, /) -> _S | None:
    global resolved
    resolved = _bind_resolved()
    return resolved(cls, base, ref, strict)


def _normalized_first(
    cls: type[_S], text: str, level: Level, registry: SchemeRegistry | None, /
) -> _S | None:
    global normalized
    normalized = _bind_normalized()
    return normalized(cls, text, level, registry)


def _encode_forbidden_first(
    grammar: Grammar, body: str, offset: int, delimited: bool, reports: list[Report], /
) -> tuple[str, str]:
    global encode_forbidden
    encode_forbidden = _bind_encode_forbidden()
    return encode_forbidden(grammar, body, offset, delimited, reports)


def _forbidden_runs_first(
    grammar: Grammar, body: str, offset: int, delimited: bool, limit: int | None, /
) -> tuple[list[tuple[int, int, int]], int | None]:
    global forbidden_runs
    forbidden_runs = _bind_forbidden_runs()
    return forbidden_runs(grammar, body, offset, delimited, limit)


#: ``resolved(cls, base, ref, strict)``: the target of the str ``ref`` against the str
#: ``base`` (RFC 3986 §5.2.2) as a ``cls``; ``None`` when either is not a reference of
#: ``cls``'s grammar or ``base`` has no scheme.
resolved: _Resolved = _resolved_first if _C is None else _C.resolve
#: ``normalized(cls, text, level, registry)``: the normal form of the str ``text`` at
#: ``level`` ("syntax" or "scheme", §6.2.2, §6.2.3; ``registry`` ``None`` for the
#: default) as a ``cls``; ``None`` when ``text`` is not a reference, or (with the
#: compiled core) when the readable road on the value must answer.
normalized: _Normalized = _normalized_first
#: ``encode_forbidden(grammar, body, offset, delimited, reports)``: the character
#: repairs of a lenient reading and the skeleton that checks them
#: (``character_repairs.encode_forbidden``).
encode_forbidden: _EncodeForbidden = _encode_forbidden_first
#: ``forbidden_runs(grammar, body, offset, delimited, limit)``: where those repairs
#: replace what, ``(start, end, length)`` in input positions, and the position of the
#: first run left unlisted past ``limit`` runs of a kind (``None`` if none is).
forbidden_runs: _ForbiddenRuns = _forbidden_runs_first
