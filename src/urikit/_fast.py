"""The fast paths: the answers for common inputs, found without taking them apart.

Each function here is a shortcut for an algorithm written out plainly
elsewhere, and answers only where it is sure (else ``None``, and the caller
takes the plain road): :func:`normal_match` and :func:`quick_normal_form` for
normalization (``normalize.py``, RFC 3986 §6.2.2, §6.2.3), :func:`target_text`
for resolution (``resolve.py``, §5.2.2).  ``tests/test_fast.py`` checks each
against the plain algorithm on generated and real inputs.

With the compiled core (``_store.speedups``), :data:`resolved` and
:data:`normal_reference` are its operations over the scanner's spans
(``_speedups_ops.h``), which build the resulting value without parsing it
again, and :func:`quick_normal_form` is its normalization; on the pure path
:data:`resolved` is :func:`resolved_by_match`, which reads the matches of the
grammar without building a value for its operands, :data:`normal_reference` is
``None``, and the patterns below answer.  ``tests/test_compiled.py`` holds the
compiled operations to the plain algorithms.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from functools import cache, partial
from typing import Final, Protocol, TypeVar

from ._contracts import (
    SCHEME_DEFER,
    SCHEME_EMPTY_PATH_IS_ROOT,
    SCHEME_PORT_SHIFT,
    SCHEME_RULE_FLAGS,
)
from ._store import PureStore, speedups
from .components import Parts
from .grammar import URI_GRAMMAR
from .normalize import HOST_ONLY_CASE, triplet_changes
from .resolve import transform_references
from .schemes import DEFAULT_REGISTRY, Scheme, SchemeRegistry

__all__ = [
    "normal_match",
    "normal_reference",
    "quick_normal_form",
    "resolved",
    "resolved_against",
    "resolved_by_match",
    "scheme_codes",
    "target_text",
]

# --- normalization (§6.2.2, §6.2.3) ----------------------------------------------------

# These patterns are sufficient tests for "nothing to rewrite" on text that is
# parsed as well; they are not grammar rules.  Each matches the start of a URL
# with a lower-case scheme (group 1) and, when there is an authority, a host
# with no upper-case letter, IP literal or "%".  _PLAIN_START, the common case,
# tried first: no userinfo and no port, and group 2 matches when the path is
# empty; or no authority at all.  _AUTHORITY_START: any authority like that,
# with its port (group 2) if it has one without leading zeros; the path
# follows at ``end()``.  Their repetitions, and those of :func:`_normal_reference`,
# are possessive ("*+", or an atomic group) from Python 3.11 on: what each repeats
# excludes the delimiter that follows it, so giving characters back could never
# make a match, and the engine keeps no state to try.  Python 3.10 has neither
# and reads the plain forms, which match the same text.
_POSSESSIVE: Final = sys.version_info >= (3, 11)
_STAR: Final = "*+" if _POSSESSIVE else "*"


def _atomic(pattern: str) -> str:
    return f"(?>{pattern})" if _POSSESSIVE else f"(?:{pattern})"


_SCHEME_START: Final = rf"([a-z][a-z0-9+.\-]{_STAR}):"
_HOST_START: Final = rf"[^A-Z\[:/?#%@]{_STAR}"
_PLAIN_START: Final = rf"{_SCHEME_START}(?://{_HOST_START}(?:/|()(?![^?#]))|(?!//))"
_AUTHORITY_START: Final = re.compile(
    rf"{_SCHEME_START}//(?:[^/?#@]*@)?{_HOST_START}(?::([1-9][0-9]*))?(?![^/?#])"
)


def _normal_reference(triplets: bool) -> str:
    """A pattern for the common URI that is valid and already in normal form,
    but for the "/" that an empty path may need at the scheme level (§6.2.3),
    when its path holds no "/." and it holds no triplet that
    :data:`_CHANGING_TRIPLET` finds: a lower-case scheme (the special schemes
    are excluded separately), no userinfo or port, a lower-case reg-name host
    without "%" and a path that is empty or rooted after it.  Path, query and
    fragment hold triplets only with ``triplets``; the pattern without them is
    the faster one.

    Its language is a subset of URI-reference and its groups are those of
    :attr:`Grammar.reference <urikit.grammar.Grammar.reference>`, so a match
    stands in for the full parse; the userinfo and port groups (3 and 5) are
    there only to keep the numbering and never take part ("(){0}").  The
    optional parts are written as alternatives with an empty one ("(?:x|)"
    for "(?:x)?", the same language and groups), which the engine tries with
    less work.
    """
    g = URI_GRAMMAR
    if triplets:
        path, query, fragment = (_atomic(g.sources[name]) for name in ("path", "query", "fragment"))
    else:
        path, query, fragment = (
            f"[{chars}]{_STAR}" for chars in (g.path_chars, g.query_chars, g.fragment_chars)
        )
    host = g.reg_name_chars.replace("A-Z", "")
    return (
        rf"{_SCHEME_START}(?://((){{0}}([{host}]{_STAR})(){{0}})(?![^/?#])|(?!//))"
        rf"({path})(?:\?({query})|)(?:#({fragment})|)"
    )


def _changing_triplet_pattern() -> re.Pattern[str]:
    """A pattern that finds a triplet that §6.2.2.1 or §6.2.2.2 would rewrite."""
    changing: dict[str, str] = {}
    for pair in triplet_changes():
        changing[pair[0]] = changing.get(pair[0], "") + pair[1]
    return re.compile("%(?:" + "|".join(f"{hi}[{lo}]" for hi, lo in changing.items()) + ")")


_CHANGING_TRIPLET: Final = _changing_triplet_pattern()
# A complete "." or ".." segment (§3.3) of a path that begins with "/"; it may
# also find one in the query or fragment, which only sends the text the long way.
_DOT_SEGMENT: Final = re.compile(r"/\.\.?(?![^/?#])")


class _Tables:
    """What normalization needs of one registry, computed once.

    ``schemes`` maps each lower-case name to its :class:`Scheme`; ``special``
    holds the names of the schemes with case rules of their own, which only
    the full path applies; for every other scheme, ``plain`` matches
    :data:`_PLAIN_START`, and ``normal`` and ``normal_encoded`` fully match
    the patterns of :func:`_normal_reference` without and with triplets;
    ``rooted`` holds the names of the schemes whose empty path is "/".
    """

    __slots__ = (
        "changing_triplet",
        "normal",
        "normal_encoded",
        "plain",
        "registry",
        "rooted",
        "schemes",
        "special",
    )

    def __init__(self, registry: SchemeRegistry) -> None:
        self.registry = registry
        self.schemes: dict[str, Scheme] = dict(registry.items())
        self.special = frozenset(
            name
            for name, spec in self.schemes.items()
            if spec.special_rules or spec.case_insensitive not in HOST_ONLY_CASE
        )
        names = "|".join(re.escape(name) for name in sorted(self.special))
        exclude = f"(?!(?:{names}):)" if names else ""
        self.plain: Callable[[str], re.Match[str] | None] = re.compile(exclude + _PLAIN_START).match
        self.normal, self.normal_encoded = (
            re.compile(exclude + _normal_reference(triplets)).fullmatch
            for triplets in (False, True)
        )
        self.rooted = frozenset(
            name for name, spec in self.schemes.items() if spec.empty_path_is_root
        )
        self.changing_triplet = _CHANGING_TRIPLET.search

    def quick_normal_form(self, text: str, rank: int) -> str | None:
        """The normal form of ``text`` at ``rank`` (1 or 2) found without taking
        it apart, or ``None`` when this quick test is unsure.

        ``text`` itself when it is already normal: no triplet to rewrite, no
        dot-segment, and a start that needs nothing.  With "/" after the
        authority when only its empty path needs one (§6.2.3).  The full path
        is the oracle: tests check that both agree.
        """
        if "%" in text and _CHANGING_TRIPLET.search(text):
            return None
        if "/." in text and _DOT_SEGMENT.search(text):
            return None
        start = self.plain(text)
        if start is not None:
            if start.lastindex == 1 or rank == 1:
                return text
        else:
            start = _AUTHORITY_START.match(text)
            if start is None or start[1] in self.special:
                return None
            if rank == 1:
                return text
            port = start[2]
            if port is not None:
                spec = self.schemes.get(start[1])
                if spec is not None and port.lstrip("0") == str(spec.default_port):
                    return None
        return self.with_root_path(text, start[1], start.end())

    def normal_match(self, text: str) -> re.Match[str] | None:
        """:func:`normal_match` for this registry (``uri.normalize`` reads the
        default's in its own frame, as these lines do)."""
        # The pattern without triplets fails on a "%", and is the faster one.
        m = self.normal(text)
        if m is None and "%" in text and self.changing_triplet(text) is None:
            m = self.normal_encoded(text)
        if m is None:
            return None
        # A dot-segment to remove (§6.2.2.3) can only be in a path after an authority
        # or rooted, and there it follows a "/"; the dots of a rootless path after a
        # scheme are data, and those of the query and fragment too.
        path = m[6]
        if "/." in path:
            return None
        if path or m[2] is None or m[1] not in self.rooted:
            return m
        return self.normal_encoded(self.with_root_path(text, m[1], m.end(2)))

    def with_root_path(self, text: str, scheme: str, end: int) -> str:
        """``text`` with "/" at ``end``, just after the authority, when the
        path there is empty and ``scheme`` says that means "/" (§6.2.3)."""
        if scheme not in self.rooted or text[end : end + 1] == "/":
            return text
        return text[:end] + "/" + text[end:]


@cache
def default_tables() -> _Tables:
    """The tables of the default registry, compiled on first use (not at import)."""
    return _Tables(DEFAULT_REGISTRY)


#: The tables of other registries, each kept with its registry (so the key stays its own).
_OTHER_TABLES: Final[dict[int, _Tables]] = {}


def _tables(registry: SchemeRegistry) -> _Tables:
    if registry is DEFAULT_REGISTRY:
        return default_tables()
    tables = _OTHER_TABLES.get(id(registry))
    if tables is None or tables.registry is not registry:
        if len(_OTHER_TABLES) >= 16:
            _OTHER_TABLES.clear()
        tables = _OTHER_TABLES[id(registry)] = _Tables(registry)
    return tables


def normal_match(text: str, registry: SchemeRegistry = DEFAULT_REGISTRY) -> re.Match[str] | None:
    """For a common URI already in normal form at the scheme level, but for the
    "/" its empty path may need: a full match of the patterns of
    :func:`_normal_reference`, of ``text`` or of ``text`` with that "/".  The
    match has the groups of ``Grammar.reference``, so it is also the parse.
    ``None`` when unsure.
    """
    return _tables(registry).normal_match(text)


def quick_normal_form(
    text: str, level: str, registry: SchemeRegistry = DEFAULT_REGISTRY
) -> str | None:
    """The normal form of the valid reference ``text`` at ``level`` ("syntax" or
    "scheme"), when this quick test is sure of it; ``text`` itself when it is
    already normal."""
    if speedups is not None:
        codes = scheme_codes(registry) if level == "scheme" else None
        normal: str | None = speedups.normalize(None, text, codes)
        return normal
    return _tables(registry).quick_normal_form(text, 2 if level == "scheme" else 1)


# --- the compiled operations -------------------------------------------------------------


def _scheme_code(spec: Scheme) -> int:
    """What the compiled normalization needs of one scheme (§6.2.3), as one int in the
    layout of ``_contracts``: (default port + 1) << ``SCHEME_PORT_SHIFT``, with
    ``SCHEME_EMPTY_PATH_IS_ROOT`` when its empty path is "/", ``SCHEME_DEFER`` when it
    has case rules beyond the host or more than one rule of its own (which only
    ``normalize.scheme_based`` applies), and the flag of its one special rule."""
    port = 0 if spec.default_port is None else spec.default_port + 1
    code = port << SCHEME_PORT_SHIFT
    if spec.empty_path_is_root:
        code |= SCHEME_EMPTY_PATH_IS_ROOT
    if spec.case_insensitive not in HOST_ONLY_CASE or len(spec.special_rules) > 1:
        code |= SCHEME_DEFER
    for rule in spec.special_rules:
        code |= SCHEME_RULE_FLAGS.get(rule, SCHEME_DEFER)
    return code


#: The scheme codes of registries other than the default, each kept with its registry.
_OTHER_CODES: Final[dict[int, tuple[SchemeRegistry, dict[str, int]]]] = {}


def _codes_of(registry: SchemeRegistry) -> dict[str, int]:
    return {name: _scheme_code(spec) for name, spec in registry.items()}


def scheme_codes(registry: SchemeRegistry) -> dict[str, int]:
    """The lower-case name of each scheme of ``registry`` -> its :func:`_scheme_code`."""
    if registry is DEFAULT_REGISTRY:
        return _DEFAULT_CODES
    kept = _OTHER_CODES.get(id(registry))
    if kept is None or kept[0] is not registry:
        if len(_OTHER_CODES) >= 16:
            _OTHER_CODES.clear()
        kept = _OTHER_CODES[id(registry)] = (registry, _codes_of(registry))
    return kept[1]


_DEFAULT_CODES: Final = _codes_of(DEFAULT_REGISTRY)


_S = TypeVar("_S", bound=PureStore)


class _Resolved(Protocol):
    def __call__(self, cls: type[_S], base: str, ref: str, strict: bool, /) -> _S | None: ...


class _NormalReference(Protocol):
    def __call__(
        self, cls: type[_S], text: str, level: str, registry: SchemeRegistry, /
    ) -> _S | None: ...


def resolved_by_match(cls: type[_S], base: str, ref: str, strict: bool, /) -> _S | None:
    """The target of the str ``ref`` against the str ``base`` (§5.2.2) as a ``cls``,
    from the matches of its grammar; ``None`` when either is not a reference or
    ``base`` has no scheme.  The pure path's :data:`resolved`.

    The match of each text is read as it is, with no value built for the base or
    the reference: :func:`target_text` answers the common references (for a URI),
    an absolute reference without dot-segments is its own target, and every
    other one goes to ``resolve.transform_references``.
    """
    fullmatch = cls._fullmatch
    bm = fullmatch(base)
    if bm is None or bm.start(1) < 0:
        return None
    if not cls._iri:
        text = target_text(base, bm.span, ref)
        if text is not None and (m := fullmatch(text)) is not None:
            return cls._from_match(m)
    return resolved_against(cls, bm, ref, strict)


def resolved_against(cls: type[_S], bm: re.Match[str], ref: str, strict: bool, /) -> _S | None:
    """:func:`resolved_by_match` after its shortcut: the target of the str ``ref``
    against the base whose full match is ``bm`` (it has a scheme), as a ``cls``;
    ``None`` when ``ref`` is not a reference.  ``uri.resolve`` tries the shortcut in
    its own frame and comes here when it does not answer."""
    if ref == "":  # 5.2.2: the base, without its fragment
        end = bm.start(8)
        return cls._from_match(bm) if end < 0 else cls._parse(bm.string[: end - 1])
    rm = cls._fullmatch(ref)
    if rm is None:
        return None
    r_scheme = rm[1]
    if r_scheme is not None and (strict or r_scheme.lower() != bm[1].lower()):
        path = rm[6]
        if "/." not in path and path[:1] != ".":
            # 5.2.2: T is R, as remove_dot_segments leaves the path as it is (5.2.4)
            return cls._from_match(rm)
    text = transform_references(
        tuple.__new__(Parts, bm.groups()), tuple.__new__(Parts, rm.groups()), strict=strict
    )
    return cls._from_match(bm) if text == bm.string else cls._parse(text)


#: ``resolved(cls, base, ref, strict)``: the target of the str ``ref`` against the
#: str ``base`` (§5.2.2) as a ``cls``, or ``None`` when either is not a reference
#: or ``base`` has no scheme: the compiled operation, or :func:`resolved_by_match`.
resolved: Final[_Resolved] = resolved_by_match if speedups is None else speedups.resolve

#: ``normal_reference(cls, text, level, registry)``: the normal form of the str
#: ``text`` at ``level`` ("syntax" or "scheme", §6.2.2, §6.2.3) as a ``cls``, built
#: from the compiled operation's spans; ``None`` when ``text`` is not a reference or
#: the readable path must answer; ``None`` itself on the pure path.
normal_reference: Final[_NormalReference | None] = (
    None
    if speedups is None
    else partial(speedups.normalize_in, DEFAULT_REGISTRY, _DEFAULT_CODES, scheme_codes)
)


# --- resolution (§5.2.2) -----------------------------------------------------------------


def target_text(base: str, span: Callable[[int], tuple[int, int]], ref: str) -> str | None:
    """The target of the common references, as text, without parsing them; else ``None``.

    ``base`` is the text of a base URI (it has a scheme) and ``span(g)`` the span
    of its group ``g`` of ``Grammar.reference``, as ``re.Match.span`` gives it
    (the references of ``uri.py`` have the same ``_span``).  Each case below is
    §5.2.2 for a reference without scheme or dot-segments (or with only leading
    "../" and "./", or that is only "." or ".." after them): the target is a
    prefix of the base followed by the reference (or by what follows its
    leading "../" and "./").  There the grammar reads the reference by the
    rules it would be read by alone, so matching the target also validates it;
    the caller falls back to parsing the reference when the target does not
    match.
    """
    if ref == "":
        return None
    first = ref[0]
    if first == "#":  # the base document, with the fragment of R
        end = span(8)[0]
        return (base if end < 0 else base[: end - 1]) + ref
    start, end = span(6)
    if first == "?":  # T.path = Base.path; T.query = R.query
        return base[:end] + ref
    if first == "/":
        if "/." in ref:  # maybe a dot-segment (the query is not told apart here)
            return None
        if ref[1:2] == "/":  # a network-path reference: T.scheme = Base.scheme
            return base[: span(1)[1] + 1] + ref
        return base[:start] + ref  # an absolute-path reference
    path = base[start:end]
    if path[:1] == "/" and "/." not in path:
        directory = path[: path.rfind("/") + 1]  # 5.2.3
    elif path == "" and span(2)[0] >= 0:
        directory = "/"  # 5.2.3: an authority and an empty path
    else:
        return None
    if first != ".":
        if "/." in ref:
            return None
        colon = ref.find(":")
        if colon >= 0 and "/" not in (head := ref[:colon]) and "?" not in head and "#" not in head:
            return None  # a scheme, or a colon in the first segment (§4.2)
        return base[:start] + directory + ref
    skip = 0
    while ref.startswith("../", skip):  # 5.2.4 2A then 2C: up one segment, not above the root
        skip += 3
    rest = ref[skip:]
    if rest == "..":  # 2C on the last segment: as "../"
        skip += 3
        rest = ""
    elif rest == ".":  # 2B on the last segment: as "./"
        rest = ""
    elif rest[:2] == "./" and not skip:  # 2A then 2B
        rest = rest[2:]
    elif not skip:
        return None
    if rest[:1] == "." or rest[:1] == "/" or "/." in rest:
        return None
    if skip:
        directory = path.rsplit("/", skip // 3 + 1)[0] + "/"
    return base[:start] + directory + rest
