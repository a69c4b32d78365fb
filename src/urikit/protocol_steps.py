"""Protocol-based normalization steps (RFC 3986 §6.2.4), each an explicit opt-in.

Each step edits the components of a reference that ``normalize`` has brought
to its level.  Every step can make two references that identify different
resources compare equal, so none runs unless it is named; ``docs/normalization.md``
says what each one risks.  A new step is a function ``(parts, value) -> None``
and one more entry in :data:`STEP_FUNCTIONS`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final, Literal, TypedDict

from ._param_names import is_glob, name_pattern
from .errors import URIError
from .grammar import UNRESERVED
from .percent import form_encode, percent_decode, percent_decode_bytes, percent_encode
from .types import IdnaForm, UnicodeForm

if TYPE_CHECKING:
    from typing_extensions import Required

__all__ = ["STEPS", "STEP_FUNCTIONS", "TRACKING_PARAMS", "Editable", "ParamFilter", "Steps"]

_UNRESERVED_RE: Final = re.compile(f"[{UNRESERVED}]")
_UNRESERVED_RUN: Final = re.compile(f"[{UNRESERVED}]*")

#: Query parameters that carry click and campaign tracking, not identity: data for
#: ``remove_params``, a protocol-based step (RFC 3986 §6.2.4).  A trailing "*"
#: matches every name with that prefix.
TRACKING_PARAMS: Final = (
    "utm_*",
    "fbclid",
    "gclid",
    "gclsrc",
    "dclid",
    "gbraid",
    "wbraid",
    "msclkid",
    "yclid",
    "twclid",
    "ttclid",
    "li_fat_id",
    "igshid",
    "mc_cid",
    "mc_eid",
    "_ga",
    "_gl",
    "_hsenc",
    "_hsmi",
    "mkt_tok",
    "oly_anon_id",
    "oly_enc_id",
    "vero_id",
    "wickedid",
    "rb_clickid",
    "s_cid",
)

# --- the components being normalized --------------------------------------------

#: scheme, userinfo, host, port, path, query, fragment; the host is None when
#: there is no authority, and a str (maybe empty) when there is one.
Components = tuple[str | None, str | None, str | None, str | None, str, str | None, str | None]


class Editable:
    """The components of one reference, for the rules and steps that edit them."""

    __slots__ = ("fragment", "host", "iri", "path", "port", "query", "scheme", "userinfo")

    def __init__(self, components: Components, iri: bool) -> None:
        (self.scheme, self.userinfo, self.host, self.port, self.path, self.query, self.fragment) = (
            components
        )
        self.iri = iri

    def components(self) -> Components:
        """The seven components as edited, in the order of RFC 3986 §5.3."""
        return (
            self.scheme,
            self.userinfo,
            self.host,
            self.port,
            self.path,
            self.query,
            self.fragment,
        )


# --- protocol-based steps (§6.2.4): each runs only when asked for ------------------


def _step_idna(p: Editable, form: str) -> None:
    """Hosts as A-labels or U-labels, as browsers write them: the URL Standard's domain
    parser (§3.3, UTS #46 ToASCII, Nontransitional Processing) for A-labels, and then its
    "domain to Unicode" (UTS #46 ToUnicode; a name it refuses stays A-labels) for U-labels."""
    host = p.host
    if not host or host[0] == "[":
        return
    try:
        decoded = percent_decode(host)
    except URIError:
        raise URIError(
            "the host is not UTF-8, so it cannot be an internationalized domain name",
            text=host,
            position=0,
            rule="host",
        ) from None
    if decoded.isascii() and "xn--" not in decoded.lower():
        return
    from .uts46 import domain_parser, domain_to_unicode

    try:
        # An ASCII name is lower-cased, its xn-- labels unchecked, as browsers do (§3.3 step 5).
        name = domain_parser(decoded, validate=False)[0]
    except URIError as exc:
        raise URIError(
            "the host is not a valid internationalized domain name (UTS #46, the URL "
            f"Standard's domain parser): {exc.reason}",
            text=host,
            position=0,
            rule="host",
        ) from None
    if form == "u-label":
        name = domain_to_unicode(name)
    p.host = percent_encode(name, "host", iri=p.iri)


def _step_strip_host_dot(p: Editable, on: bool) -> None:
    """The trailing dot of a fully qualified domain name ("example.com.")."""
    host = p.host
    if on and host and host[-1] == "." and host[0] != "[":
        p.host = host.rstrip(".") or host


def _name_of(piece: str) -> str:
    """The form-decoded name of a query piece ``name=value``."""
    name = piece.partition("=")[0]
    if "%" in name or "+" in name:
        return percent_decode(name.replace("+", " "), errors="surrogateescape")
    return name


#: Which parameters ``remove_params`` removes: a name or pattern, names and patterns
#: (each read as ``URI.remove_query_params`` reads a ``str``: a glob when it holds "*"
#: or "?", else one name), or a predicate on the decoded name.
ParamFilter = str | Iterable[str] | Callable[[str], bool]


def _param_matcher(spec: ParamFilter) -> Callable[[str], bool]:
    if callable(spec):
        return spec
    names = (spec,) if isinstance(spec, str) else tuple(spec)
    exact = frozenset(n for n in names if not is_glob(n))
    globs = tuple(name_pattern(n) for n in names if is_glob(n))
    return lambda name: name in exact or any(glob(name) for glob in globs)


def _step_remove_params(p: Editable, spec: ParamFilter | None) -> None:
    """Remove the parameters whose (form-decoded) names match; "?" goes with the last."""
    if not p.query or spec is None:
        return
    matches = _param_matcher(spec)
    pieces = p.query.split("&")
    kept = [piece for piece in pieces if not (piece and matches(_name_of(piece)))]
    if len(kept) != len(pieces):
        p.query = "&".join(kept) if kept else None


def _step_remove_tracking(p: Editable, on: bool) -> None:
    """Remove the parameters that :data:`TRACKING_PARAMS` names (``remove_params`` of them)."""
    if on:
        _step_remove_params(p, TRACKING_PARAMS)


def _form_canonical(text: str) -> str:
    if _UNRESERVED_RUN.fullmatch(text):
        return text
    return form_encode(percent_decode_bytes(text.replace("+", "%20")))


def _step_form_query(p: Editable, on: bool) -> None:
    """Re-encode each name and value of an application/x-www-form-urlencoded query."""
    if not on or not p.query:
        return
    pieces = []
    for piece in p.query.split("&"):
        if piece:
            name, eq, value = piece.partition("=")
            pieces.append(_form_canonical(name) + eq + _form_canonical(value))
    p.query = "&".join(pieces)


def _step_sort_query(p: Editable, on: bool) -> None:
    """Sort the "&"-separated parameters by name, stably (equal names keep their order)."""
    if on and p.query and "&" in p.query:
        p.query = "&".join(sorted(p.query.split("&"), key=lambda piece: piece.partition("=")[0]))


def _step_drop_empty_query(p: Editable, on: bool) -> None:
    """An empty query ("?" and nothing) is removed."""
    if on and p.query == "":
        p.query = None


def _step_drop_fragment(p: Editable, on: bool) -> None:
    """The fragment is removed (RFC 3986 §6.1: exclude it to select a network action)."""
    if on:
        p.fragment = None


#: The protocol-based steps in the order they run; ``unicode`` runs before the
#: level, on the text.  A new step is one more entry here.
STEP_FUNCTIONS: Final[dict[str, Callable[[Editable, Any], None]]] = {
    "idna": _step_idna,
    "strip_host_dot": _step_strip_host_dot,
    "remove_params": _step_remove_params,
    "remove_tracking": _step_remove_tracking,
    "form_query": _step_form_query,
    "sort_query": _step_sort_query,
    "drop_empty_query": _step_drop_empty_query,
    "drop_fragment": _step_drop_fragment,
}
#: The names of every opt-in step, in the order they run.
STEPS: Final = ("unicode", *STEP_FUNCTIONS)

_CHOICES: Final = {"idna": ("a-label", "u-label"), "unicode": ("NFC", "NFKC")}


class _CommonSteps(TypedDict, total=False):
    unicode: UnicodeForm | None
    strip_host_dot: bool
    remove_params: ParamFilter | None
    remove_tracking: bool
    form_query: bool
    sort_query: bool
    drop_empty_query: bool
    drop_fragment: bool


class Steps(_CommonSteps, total=False):
    """The protocol-based steps (§6.2.4) by name, each off unless given: the keyword
    arguments of ``normalize``, ``equivalent`` and ``comparison_rung`` (``unicode``,
    ``idna``, ``strip_host_dot``, ``remove_params``, ``remove_tracking``,
    ``form_query``, ``sort_query``, ``drop_empty_query``, ``drop_fragment``).
    ``remove_tracking=True`` removes the names of :data:`TRACKING_PARAMS`, as the
    command's ``--remove-tracking`` does, beside any ``remove_params``."""

    idna: IdnaForm | None


if TYPE_CHECKING:

    class ToIRISteps(_CommonSteps, total=False):
        """:class:`Steps` with ``idna="u-label"``, whose result only an IRI can hold."""

        idna: Required[Literal["u-label"]]

    class SameTypeSteps(_CommonSteps, total=False):
        """:class:`Steps` without ``idna="u-label"``: the result keeps its type."""

        idna: Literal["a-label"] | None


def check_steps(steps: Mapping[str, object]) -> dict[str, Any]:
    """The steps that are on, with their values checked."""
    active: dict[str, Any] = {}
    for name, value in steps.items():
        if name not in STEPS:
            raise TypeError(
                f"unexpected keyword argument {name!r}: the protocol-based normalization "
                f"steps are {', '.join(STEPS)}"
            )
        if value is None or value is False:
            continue
        choices = _CHOICES.get(name)
        if choices is not None and value not in choices:
            raise ValueError(
                f"{name} must be one of {', '.join(map(repr, choices))}, not {value!r}"
            )
        if name == "remove_params":
            if not callable(value) and not isinstance(value, (str, Iterable)):
                raise TypeError("remove_params takes parameter names or a predicate")
        elif choices is None and value is not True:
            raise TypeError(f"the step {name} is switched on with True, not {value!r}")
        active[name] = value
    return active


# --- the character normalization step (RFC 3987 §5.3.2.2) -------------------------

# A run of non-ASCII characters with the letter or digit before it, which a
# combining mark may compose with (never a hex digit of a triplet).  "=" with
# U+0338 would compose too, but a delimiter is left out so that it stays one.
_NON_ASCII_RUN: Final = re.compile(r"(?:(?<!%)(?<!%[0-9A-Fa-f])[A-Za-z0-9])?[^\x00-\x7f]+")


def character_normalization(text: str, form: UnicodeForm) -> str:
    """NFC or NFKC applied to the characters of an IRI (RFC 3987 §5.3.2.2).

    ASCII delimiters never take part; an ASCII character that the Unicode
    normalization produces is kept only when unreserved and is otherwise
    percent-encoded, so the structure of the reference stays as it was.
    """
    if text.isascii():
        return text

    def one_run(match: re.Match[str]) -> str:
        run = unicodedata.normalize(form, match.group())
        if run.isascii() and _UNRESERVED_RUN.fullmatch(run):
            return run
        return "".join(
            ch
            if ord(ch) > 127 or _UNRESERVED_RE.fullmatch(ch)
            else percent_encode(ch, "unreserved")
            for ch in run
        )

    return _NON_ASCII_RUN.sub(one_run, text)
