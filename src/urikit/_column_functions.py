"""The column functions: one table, from which every column adapter is built.

Each row of :data:`FUNCTIONS` says what one column function is, once: its name, the
shape of its arguments, its keyword options, the type of its answer, the scalar API's
answer for one row (its meaning, and the fallback of the column kernel), and the
operation of the column kernel that answers it.  :mod:`urikit.arrow` builds a function
of Arrow columns from each row, and the adapters (:mod:`urikit.polars`,
:mod:`urikit.pandas`, :mod:`urikit.duckdb`, :mod:`urikit.spark`, :mod:`urikit.dask`)
build theirs from the same rows, over :mod:`urikit.arrow`; a row added here is a
function in all six.  ``tests/test_column_functions.py`` checks that every row is in
every adapter, answering as its scalar function.

A scalar function takes the row's text (after the base, for :attr:`Shape.BASE_AND_COLUMN`;
before the text argument, for :attr:`Shape.COLUMN_AND_TEXT`) and the options given
(the others have the same defaults there), and returns the answer or raises
:class:`~urikit.URIError`: the row's answer is then null, or with ``errors="raise"`` the
error, naming the row.
"""

from __future__ import annotations

import enum
import functools
import inspect
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, TypeVar

from . import IRI, URI, SchemeRegistry, audit, is_valid, normalize, relativize, resolve
from ._contracts import ColumnOperation
from .schemes import DEFAULT_REGISTRY

__all__ = [
    "FUNCTIONS",
    "Answer",
    "Call",
    "ColumnFunction",
    "Operation",
    "Option",
    "Shape",
    "by_name",
    "router",
    "variables_json",
]

_T = TypeVar("_T")


class Shape(enum.Enum):
    """The arguments of a column function before its keyword options."""

    #: ``f(col)``
    COLUMN = "column"
    #: ``f(col, text)``: one text for every row (``rule``, ``name``)
    COLUMN_AND_TEXT = "column and text"
    #: ``f(base, col)``: one base, or a column of bases row by row
    BASE_AND_COLUMN = "base and column"
    #: ``f(col, value)``: one value for every row that is a sequence of texts or an
    #: object (the templates of ``template_match``), not one text
    COLUMN_AND_VALUE = "column and value"


class Answer(enum.Enum):
    """The type of a column function's answer for a row (as Arrow, polars, pandas,
    DuckDB and Spark each spell it)."""

    STRING = "string"
    BOOL = "bool"
    INT64 = "int64"
    #: one of ``urikit._contracts.HOST_TYPES``, dictionary-encoded in Arrow
    HOST_TYPE = "host type"
    STRING_LIST = "list of strings"
    #: the components, ``valid`` and the error: ``urikit.arrow.PARSE_TYPE``
    PARSE = "parse"
    #: the URL Standard's getters, ``valid`` and the error: ``urikit.arrow.WHATWG_TYPE``
    WHATWG = "whatwg"
    #: the index of the template matched and its variables as a JSON object:
    #: ``urikit.arrow.TEMPLATE_MATCH_TYPE``
    TEMPLATE_MATCH = "template match"


class Operation(enum.Enum):
    """What the column kernel does for a column function (``urikit._arrow_kernel``)."""

    #: one scan: the fields of ``parse``
    PARSE = "parse"
    #: one scan: the output of the split named as the function (a component,
    #: ``host_type``, ``port_number``)
    SPLIT = "split"
    #: one scan for the reference rules of ``urikit._contracts.SCANNED_RULES``
    RULE = "rule"
    #: the compiled operation :attr:`ColumnFunction.plan` chooses, the scalar
    #: function for the rows it leaves
    MAP = "map"
    #: one scan for the query; the scalar function for the rows whose query may hold
    #: the parameter named (its name as written, or a name with "%" or "+" in it)
    PARAM = "param"
    #: one scan for the host; :attr:`ColumnFunction.host` of the distinct hosts
    HOST = "host"
    #: one router (:class:`urikit.template.Router`) for the column, each row matched
    ROUTE = "route"
    #: the scalar function for every row
    SCALAR = "scalar"


@dataclass(frozen=True)
class Option:
    """A keyword option of a column function and its default.  ``local``: only the
    functions of one process take it (``errors``, a ``registry``); those of Spark and
    Dask, which run on workers, do not."""

    name: str
    default: Any
    local: bool = False


def _reference(text: str, iri: bool) -> URI | IRI:
    return IRI(text) if iri else URI(text)


def _component(name: str) -> Callable[..., Any]:
    def component(text: str, *, iri: bool = False, **_: Any) -> Any:
        return getattr(_reference(text, iri), name)

    component.__name__ = name
    return component


#: The protocol-based steps of ``urikit.normalize`` (RFC 3986 §6.2.4), none taken.
NO_STEPS: Final = MappingProxyType(
    {
        "unicode": None,
        "idna": None,
        "strip_host_dot": False,
        "remove_params": None,
        "remove_tracking": False,
        "form_query": False,
        "sort_query": False,
        "drop_empty_query": False,
        "drop_fragment": False,
    }
)
#: The rung of ``normalize`` the compiled kernel writes for each level (RFC 3986 §6.2).
NORMAL_OPERATIONS: Final = MappingProxyType(
    {
        "string": ColumnOperation.ITSELF,
        "syntax": ColumnOperation.NORMALIZE_SYNTAX,
        "scheme": ColumnOperation.NORMALIZE_SCHEME,
    }
)


def _normalized(
    text: str, *, level: str = "scheme", registry: SchemeRegistry = DEFAULT_REGISTRY,
    iri: bool = False, **steps: Any,
) -> str:  # fmt: skip
    if iri:
        return str(IRI(text).normalize(level=level, registry=registry, **steps))  # type: ignore[call-overload]
    return str(normalize(text, level=level, registry=registry, **steps))  # type: ignore[arg-type]


def _normal_plan(options: Mapping[str, Any]) -> ColumnOperation:
    """The compiled normal form for URIs without steps (RFC 3986 §6.2.2, §6.2.3)."""
    plain = all(options[name] == default for name, default in NO_STEPS.items())
    if options["level"] not in NORMAL_OPERATIONS:
        raise ValueError(
            f"level must be one of {sorted(NORMAL_OPERATIONS)}, not {options['level']!r}"
        )
    if not plain or options["iri"]:
        return ColumnOperation.SCALAR
    return NORMAL_OPERATIONS[options["level"]]


def _resolved(base: Any, text: str, *, strict: bool = True, spec: str = "rfc3986", **_: Any) -> str:
    return str(resolve(base, text, strict=strict, spec=spec))  # type: ignore[call-overload]


def _resolve_plan(options: Mapping[str, Any]) -> ColumnOperation:
    """RFC 3986 §5.2 in C for each URI reference, against one base or a base a row."""
    return ColumnOperation.RESOLVE if options["spec"] == "rfc3986" else ColumnOperation.SCALAR


def _relativized(base: Any, text: str, **_: Any) -> str:
    return str(relativize(base, text))


def _to_uri(text: str, *, idna: bool = False, nfc: bool = False, **_: Any) -> str:
    return str(IRI(text).to_uri(idna=idna, nfc=nfc))


def _to_uri_plan(options: Mapping[str, Any]) -> ColumnOperation:
    """A row that is already a URI is its own answer (RFC 3987 §3.1), but with idna."""
    return ColumnOperation.SCALAR if options["idna"] else ColumnOperation.ITSELF


def _query_param(text: str, name: str, *, codec: str = "form", iri: bool = False, **_: Any) -> Any:
    return _reference(text, iri).query_param(name, codec=codec)  # type: ignore[arg-type]


def _is_valid(text: str, rule: str, **_: Any) -> bool:
    return is_valid(text, rule)


def _audit_codes(
    text: str | bytes, *, registry: SchemeRegistry = DEFAULT_REGISTRY, **_: Any
) -> list[str]:
    # Octets that are not UTF-8 are read as a browser decodes them, each ill-formed
    # sequence a U+FFFD (which no URI or IRI holds, so ``invalid`` is among the codes).
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return [finding.code for finding in audit(text, registry=registry)]


#: The readings of ``parse``: RFC 3986 (the default) and the URL Standard's.
READINGS: Final = ("rfc3986", "whatwg")


def _parsed(
    text: str, *, iri: bool = False, reading: str = "rfc3986", **_: Any
) -> URI | IRI | tuple[str, ...]:
    """The reference of RFC 3986 (RFC 3987 with ``iri``), or with ``reading="whatwg"``
    the getters of the URL Standard's URL as ``urikit.whatwg.components`` gives them."""
    if reading == "whatwg":
        if iri:
            raise ValueError('reading="whatwg" reads URLs: iri=True belongs to RFC 3987')
        from .whatwg import components

        return components(text)
    if reading != "rfc3986":
        raise ValueError(f"reading must be one of {list(READINGS)}, not {reading!r}")
    return _reference(text, iri)


def _registrable_domain(text: str, *, private: bool = True, iri: bool = False, **_: Any) -> Any:
    from .sites import registrable_domain

    return registrable_domain(_reference(text, iri), private=private)


def _public_suffix(text: str, *, private: bool = True, iri: bool = False, **_: Any) -> Any:
    from .sites import public_suffix

    return public_suffix(_reference(text, iri), private=private)


def _hosts_registrable_domain(hosts: list[str], *, private: bool = True, **_: Any) -> list[Any]:
    from .sites import default_list

    find = default_list().registrable_domain
    return [find(host, private=private) for host in hosts]


def _hosts_public_suffix(hosts: list[str], *, private: bool = True, **_: Any) -> list[Any]:
    from .sites import default_list

    find = default_list().public_suffix
    return [find(host, private=private) for host in hosts]


def router(templates: Any) -> Any:
    """The :class:`urikit.template.Router` of ``templates``: a router itself, or a
    sequence of templates (texts or ``URITemplate`` s), made once for each sequence
    (a column function is called again for each batch).  A malformed or ambiguous
    template raises its ``TemplateError``; anything else is a ``TypeError``."""
    from .template import Router, URITemplate

    if isinstance(templates, Router):
        return templates
    if isinstance(templates, (str, bytes)) or not hasattr(templates, "__iter__"):
        raise TypeError(
            "templates is a sequence of templates or a urikit.template.Router,"
            f" not {type(templates).__name__}"
        )
    texts = tuple(str(t) if isinstance(t, URITemplate) else t for t in templates)
    for t in texts:
        if not isinstance(t, str):
            raise TypeError(f"a template is a str or URITemplate, not {type(t).__name__}")
    return _router(texts)


@functools.lru_cache(maxsize=32)
def _router(texts: tuple[str, ...]) -> Any:
    from .template import Router

    return Router(texts)


def variables_json(variables: Mapping[str, Any]) -> str:
    """The variables of a match as a JSON object (RFC 8259), in the template's order."""
    return json.dumps(variables, ensure_ascii=False, separators=(",", ":"))


def _template_match(text: str, templates: Any, **_: Any) -> dict[str, Any] | None:
    """The template of ``templates`` that ``text`` matches (the most specific,
    ``Router.match``): its index and its variables as JSON; ``None`` when none does."""
    found = router(templates).match(text)
    if found is None:
        return None
    return {"index": found.index, "variables": variables_json(found.variables)}


@dataclass(frozen=True)
class Call:
    """The arguments of one call of a column function: the base (for
    :attr:`Shape.BASE_AND_COLUMN`, else ``None``), the column, the text (for
    :attr:`Shape.COLUMN_AND_TEXT`, else ``()``) and the options, defaults filled in."""

    base: Any
    col: Any
    text: tuple[Any, ...]
    options: dict[str, Any]


@dataclass(frozen=True)
class ColumnFunction:
    """One column function: see the module's docstring."""

    name: str
    doc: str
    result: Answer
    scalar: Callable[..., Any]
    operation: Operation
    shape: Shape = Shape.COLUMN
    options: tuple[Option, ...] = ()
    #: For :attr:`Shape.COLUMN_AND_TEXT` and :attr:`Shape.COLUMN_AND_VALUE`: the text's
    #: name and its default (none: required).
    text: tuple[str, Any] | None = None
    #: For :attr:`Operation.MAP`: the compiled operation for the options given.
    plan: Callable[[Mapping[str, Any]], ColumnOperation] | None = None
    #: The scalar function refuses every row that is not an URI-reference.
    uri_only: bool = False
    #: The scalar function takes the octets (``bytes``) of a row that is not UTF-8 too;
    #: for the other functions such a row is invalid.
    reads_octets: bool = False
    #: For :attr:`Operation.HOST`: the answers for a list of the texts of rows' hosts.
    host: Callable[..., Any] | None = None
    #: An option whose value chooses the type of the answer, and the type for each
    #: value (``parse``'s ``reading``); ``result`` is the type for its default.
    variant: tuple[str, Mapping[Any, Answer]] | None = None
    defaults: Mapping[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "defaults", MappingProxyType({o.name: o.default for o in self.options})
        )

    def answer(self, options: Mapping[str, Any]) -> Answer:
        """The type of the answer for the options given (:attr:`variant`); a value the
        variant does not know is a ``ValueError``."""
        if self.variant is None:
            return self.result
        name, answers = self.variant
        value = options.get(name, self.defaults[name])
        if value not in answers:
            raise ValueError(f"{name} must be one of {list(answers)}, not {value!r}")
        return answers[value]

    def signature(self, local: bool = True) -> inspect.Signature:
        """The parameters of the function of Arrow columns: ``base`` (for
        :attr:`Shape.BASE_AND_COLUMN`), the column ``col``, the text (for
        :attr:`Shape.COLUMN_AND_TEXT`), then the options, keyword-only; without the
        options of one process (:attr:`Option.local`) unless ``local``."""
        positional = inspect.Parameter.POSITIONAL_OR_KEYWORD
        parameters = []
        if self.shape is Shape.BASE_AND_COLUMN:
            parameters.append(inspect.Parameter("base", positional))
        parameters.append(inspect.Parameter("col", positional))
        if self.text is not None:
            name, default = self.text
            given = inspect.Parameter.empty if default is None else default
            parameters.append(inspect.Parameter(name, positional, default=given))
        parameters += [
            inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY, default=option.default)
            for option in self.options
            if local or not option.local
        ]
        return inspect.Signature(parameters)

    def bind(self, args: tuple[Any, ...], kwargs: dict[str, Any], local: bool = True) -> Call:
        """The arguments of a call, checked against :meth:`signature` (``TypeError`` for
        a missing or unknown one, as Python's own)."""
        bound = self.signature(local).bind(*args, **kwargs)
        bound.apply_defaults()
        options = dict(bound.arguments)
        base = options.pop("base", None)
        col = options.pop("col")
        text = () if self.text is None else (options.pop(self.text[0]),)
        return Call(base, col, text, options)

    def adapt(self, answer: Callable[[Call], _T], local: bool = True) -> Callable[..., _T]:
        """``answer`` of the bound arguments as a function with this function's name,
        parameters (:meth:`signature`) and documentation."""
        parameters = self.signature(local)

        def function(*args: Any, **kwargs: Any) -> _T:
            return answer(self.bind(args, kwargs, local))

        function.__name__ = function.__qualname__ = self.name
        function.__doc__ = self.doc
        function.__signature__ = parameters  # type: ignore[attr-defined]
        return function


_IRI = Option("iri", False)
_ERRORS = Option("errors", "null", local=True)
_REGISTRY = Option("registry", DEFAULT_REGISTRY, local=True)
_STEPS = tuple(Option(name, default) for name, default in NO_STEPS.items())

_COMPONENT_DOCS: Final = {
    "scheme": "The scheme of each row (RFC 3986 §3.1).",
    "authority": "The authority of each row (RFC 3986 §3.2).",
    "userinfo": "The userinfo of each row (RFC 3986 §3.2.1).",
    "host": "The host of each row (RFC 3986 §3.2.2), IP literals in brackets.",
    "port": "The port of each row as written (RFC 3986 §3.2.3); see port_number.",
    "path": "The path of each row (RFC 3986 §3.3), never null for a reference.",
    "query": "The query of each row (RFC 3986 §3.4).",
    "fragment": "The fragment of each row (RFC 3986 §3.5).",
}

#: Every column function, in the order the adapters list them.
FUNCTIONS: Final[tuple[ColumnFunction, ...]] = (
    ColumnFunction(
        "parse",
        'Each row taken apart: the 8 components (null where undefined, "" where empty),'
        " ``valid``, and for a row that is not a reference ``error_position`` (in"
        " characters), ``error`` and ``error_rule``, as URIError gives them (RFC 3986 §3,"
        " §4.1; RFC 3987 §2.2 with iri).  ``fields`` names the fields to build."
        '  With reading="whatwg", the getters of the URL Standard\'s URL (href, protocol,'
        " username, password, host, hostname, port, pathname, search, hash), and for"
        " input its basic URL parser fails on, the validation error in ``error_rule``.",
        Answer.PARSE,
        _parsed,
        Operation.PARSE,
        options=(_IRI, _ERRORS, Option("fields", None), Option("reading", "rfc3986")),
        variant=("reading", {"rfc3986": Answer.PARSE, "whatwg": Answer.WHATWG}),
    ),
    *(
        ColumnFunction(
            name, doc, Answer.STRING, _component(name), Operation.SPLIT, options=(_IRI, _ERRORS)
        )
        for name, doc in _COMPONENT_DOCS.items()
    ),
    ColumnFunction(
        "host_type",
        'URI.host_type of each row: "ipv4", "ipv6", "ipvfuture" or "reg-name"'
        " (RFC 3986 §3.2.2), null without a host.",
        Answer.HOST_TYPE,
        _component("host_type"),
        Operation.SPLIT,
        options=(_IRI, _ERRORS),
    ),
    ColumnFunction(
        "port_number",
        "URI.port_number of each row as int64: null when the port is absent or empty,"
        ' and null (or with errors="raise" the error) above 65535, the largest TCP or'
        " UDP port (RFC 3986 §3.2.3).",
        Answer.INT64,
        _component("port_number"),
        Operation.SPLIT,
        options=(_IRI, _ERRORS),
    ),
    ColumnFunction(
        "is_valid",
        "urikit.is_valid of each row against the ABNF rule ``rule``: answered by one scan"
        " for the reference rules (RFC 3986 §4.1-§4.3, RFC 3987 §2.2).",
        Answer.BOOL,
        _is_valid,
        Operation.RULE,
        shape=Shape.COLUMN_AND_TEXT,
        text=("rule", "URI-reference"),
    ),
    ColumnFunction(
        "normalize",
        "urikit.normalize of each row (RFC 3986 §6.2) with its protocol-based steps;"
        " without steps an ASCII URI is normalized by the compiled core.",
        Answer.STRING,
        _normalized,
        Operation.MAP,
        options=(Option("level", "scheme"), _REGISTRY, _IRI, _ERRORS, *_STEPS),
        plan=_normal_plan,
        uri_only=True,
    ),
    ColumnFunction(
        "resolve",
        "urikit.resolve of each row against ``base`` (one reference, or a column of them,"
        " row by row), RFC 3986 §5.2; an ASCII absolute base and a URI reference row are"
        " resolved by the compiled core.",
        Answer.STRING,
        _resolved,
        Operation.MAP,
        shape=Shape.BASE_AND_COLUMN,
        options=(Option("strict", True), Option("spec", "rfc3986"), _ERRORS),
        plan=_resolve_plan,
        uri_only=True,
    ),
    ColumnFunction(
        "relativize",
        "urikit.relativize of each row against ``base`` (one reference, or a column of"
        " them): resolving the answer against the base gives the row back.",
        Answer.STRING,
        _relativized,
        Operation.SCALAR,
        shape=Shape.BASE_AND_COLUMN,
        options=(_ERRORS,),
    ),
    ColumnFunction(
        "to_uri",
        "IRI(row).to_uri() of each row (RFC 3987 §3.1); a row that is already a URI is"
        " its own answer.",
        Answer.STRING,
        _to_uri,
        Operation.MAP,
        options=(Option("idna", False), Option("nfc", False), _ERRORS),
        plan=_to_uri_plan,
    ),
    ColumnFunction(
        "query_param",
        "URI(row).query_param(name) of each row (RFC 3986 §3.4): the first value,"
        " decoded, or null.",
        Answer.STRING,
        _query_param,
        Operation.PARAM,
        shape=Shape.COLUMN_AND_TEXT,
        text=("name", None),
        options=(Option("codec", "form"), _IRI, _ERRORS),
    ),
    ColumnFunction(
        "audit_codes",
        "The codes of urikit.audit's findings for each row (RFC 3986 §7); text that is"
        " not a reference gives an ``invalid`` finding, never an error, and octets that"
        " are not UTF-8 are read with U+FFFD for each ill-formed sequence.",
        Answer.STRING_LIST,
        _audit_codes,
        Operation.SCALAR,
        options=(_REGISTRY,),
        reads_octets=True,
    ),
    ColumnFunction(
        "registrable_domain",
        "urikit.sites.registrable_domain of each row's host (RFC 3986 §3.2.2) by the"
        " Public Suffix List: its public suffix and one label more; null for a row"
        " without a host, an IP address or a public suffix itself.",
        Answer.STRING,
        _registrable_domain,
        Operation.HOST,
        options=(Option("private", True), _IRI, _ERRORS),
        host=_hosts_registrable_domain,
    ),
    ColumnFunction(
        "public_suffix",
        "urikit.sites.public_suffix of each row's host (RFC 3986 §3.2.2) by the Public"
        " Suffix List; null for a row without a host or with an IP address.",
        Answer.STRING,
        _public_suffix,
        Operation.HOST,
        options=(Option("private", True), _IRI, _ERRORS),
        host=_hosts_public_suffix,
    ),
    ColumnFunction(
        "template_match",
        "The template of ``templates`` (texts, or a urikit.template.Router) that each"
        " row matches, the most specific first (RFC 6570 by Router.match): ``index``,"
        " its place in ``templates``, and ``variables``, a JSON object of the values;"
        " null where no template matches.",
        Answer.TEMPLATE_MATCH,
        _template_match,
        Operation.ROUTE,
        shape=Shape.COLUMN_AND_VALUE,
        text=("templates", None),
        options=(_ERRORS,),
    ),
)

_BY_NAME: Final = {function.name: function for function in FUNCTIONS}


def by_name(name: str) -> ColumnFunction:
    """The row of the column function ``name``."""
    return _BY_NAME[name]
