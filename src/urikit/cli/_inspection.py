"""What ``urikit inspect`` shows of a URI reference, as one JSON-ready answer.

:func:`inspect` reads a reference (a URI when it is ASCII, an IRI otherwise),
and optionally a base and a second reference, with the public API only, and
returns everything the page draws: the reference cut into labelled pieces
(components, path segments, query parameters, delimiters) with their spans and
decoded octets, or the error with its position and rule; the resolution
against the base with the steps of RFC 3986 §5.2; the comparison ladder of
§6.2; the audit findings of §7; and how three parsers read the text.

Spans count code points of the input, as Python does; every piece also
carries its text, so that the page never slices the input itself.
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import Any, Final
from urllib.parse import urlsplit

from .. import IRI, URI, URIError, audit, comparison_rung, percent_decode, relativize

ada_url: ModuleType | None
try:
    import ada_url
except ImportError:  # the optional ``whatwg`` extra
    ada_url = None

__all__ = ["MAX_TEXT", "inspect"]

#: The longest text read, in code points: a body is at most 64 KiB anyway.
MAX_TEXT: Final = 65536
#: The most pieces, segments, parameters and findings listed; the count says how many.
MAX_ITEMS: Final = 400
#: Code points shown on each side of an error position or a finding's span.
CONTEXT: Final = 60
#: A run of percent-encoded octets (RFC 3986 §2.1: pct-encoded = "%" HEXDIG HEXDIG).
_PCT_RUN: Final = re.compile("(?:%[0-9A-Fa-f]{2})+")
_COMPONENTS: Final = ("scheme", "userinfo", "host", "port", "path", "query", "fragment")
_LADDER: Final = (
    ("string", "RFC 3986 §6.2.1 simple string comparison: the text as given"),
    ("syntax", "§6.2.2 syntax-based: case, percent-encoding, dot-segments"),
    ("scheme", "§6.2.3 scheme-based: default port, empty path"),
)

Reference = URI | IRI


def plural(count: int, noun: str) -> str:
    """``1 segment``, ``2 segments``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _read(text: str) -> Reference:
    """``text`` as a URI when it is ASCII (RFC 3986), else as an IRI (RFC 3987)."""
    return URI(text) if text.isascii() else IRI(text)


def _error(exc: URIError, text: str) -> dict[str, Any]:
    position = exc.position
    fields: dict[str, Any] = {
        "position": position,
        "rule": exc.rule,
        "reason": exc.reason,
        "message": str(exc),
    }
    if position is not None:
        fields["excerpt"] = _excerpt(text, position, position + 1)
    return fields


def _excerpt(text: str, start: int, end: int) -> dict[str, Any]:
    """``text`` around ``[start, end)``: what comes before, the span, what comes after."""
    lo, hi = max(0, start - CONTEXT), min(len(text), end + CONTEXT)
    cut = min(end, start + 2 * CONTEXT)
    return {
        "before": text[lo:start],
        "mark": text[start:cut],
        "mark_clipped": end - cut,
        "after": text[end:hi],
        "clipped_before": lo > 0,
        "clipped_after": hi < len(text),
    }


# --- the pieces of the drawing ------------------------------------------------------


def _octets(text: str) -> list[dict[str, Any]]:
    """``text`` cut into plain runs and runs of percent-encoded octets, each decoded."""
    parts: list[dict[str, Any]] = []
    at = 0
    for run in _PCT_RUN.finditer(text):
        if len(parts) >= MAX_ITEMS:
            break
        if run.start() > at:
            parts.append({"text": text[at : run.start()]})
        octets = run.group()
        decoded = percent_decode(octets, errors="replace")
        hex_octets = " ".join(octets[i + 1 : i + 3].upper() for i in range(0, len(octets), 3))
        utf8 = "\ufffd" not in decoded
        parts.append(
            {
                "text": octets,
                "decoded": decoded,
                "title": f"{decoded!r}: octets {hex_octets}"
                if utf8
                else f"octets {hex_octets}: not UTF-8",
            }
        )
        at = run.end()
    if at < len(text) or not parts:
        parts.append({"text": text[at:]})
    return parts


def _piece(kind: str, label: str, text: str, start: int) -> dict[str, Any]:
    decoded = percent_decode(text, errors="replace") if "%" in text else text
    return {
        "kind": kind,
        "label": label,
        "text": text,
        "span": [start, start + len(text)],
        "decoded": decoded,
        "parts": _octets(text),
    }


def _delimiter(text: str, start: int) -> dict[str, Any]:
    return {"kind": "delimiter", "label": "", "text": text, "span": [start, start + len(text)]}


def _split(text: str, start: int, separator: str) -> list[tuple[str, int]]:
    """The pieces of ``text`` between ``separator``, each with its offset."""
    found = []
    for piece in text.split(separator):
        found.append((piece, start))
        start += len(piece) + len(separator)
    return found


def _pieces(ref: Reference) -> list[dict[str, Any]]:
    """The reference as the page draws it: labelled pieces and delimiters, in order."""
    pieces: list[dict[str, Any]] = []
    span = ref.span
    if ref.scheme is not None:
        pieces.append(_piece("scheme", "scheme", ref.scheme, 0))
        pieces.append(_delimiter(":", len(ref.scheme)))
    if ref.authority is not None:
        start = (span("host") or (0, 0))[0]
        if ref.userinfo is not None:
            start = (span("userinfo") or (0, 0))[0]
        pieces.append(_delimiter("//", start - 2))
        if ref.userinfo is not None:
            first, end = span("userinfo") or (0, 0)
            pieces.append(_piece("userinfo", "userinfo", ref.userinfo, first))
            pieces.append(_delimiter("@", end))
        first, end = span("host") or (0, 0)
        label = f"host · {ref.host_type}" if ref.host_type else "host"
        pieces.append(_piece("host", label, ref.host or "", first))
        if ref.port is not None:
            first, _ = span("port") or (0, 0)
            pieces.append(_delimiter(":", first - 1))
            pieces.append(_piece("port", "port", ref.port, first))
    for index, (segment, start) in enumerate(_path_segments(ref)):
        if index or ref.path.startswith("/"):
            pieces.append(_delimiter("/", start - 1))
        if segment:
            pieces.append(_piece("segment", f"segment {index + 1}", segment, start))
    if ref.query is not None:
        first, _ = span("query") or (0, 0)
        pieces.append(_delimiter("?", first - 1))
        for index, (param, start) in enumerate(_split(ref.query, first, "&")):
            if index:
                pieces.append(_delimiter("&", start - 1))
            if param:
                pieces.append(_piece("param", f"param {index + 1}", param, start))
    if ref.fragment is not None:
        first, _ = span("fragment") or (0, 0)
        pieces.append(_delimiter("#", first - 1))
        pieces.append(_piece("fragment", "fragment", ref.fragment, first))
    if len(pieces) > MAX_ITEMS:
        rest = pieces[MAX_ITEMS]["span"][0]
        pieces[MAX_ITEMS:] = [
            {
                "kind": "rest",
                "label": plural(len(pieces) - MAX_ITEMS, "more piece"),
                "text": str(ref)[rest:],
                "span": [rest, len(str(ref))],
            }
        ]
    return pieces


def _path_segments(ref: Reference) -> list[tuple[str, int]]:
    """The segments of the path with their offsets; "/a" has one, "a" (§3.3)."""
    start = (ref.span("path") or (0, 0))[0]
    if ref.path.startswith("/"):
        return _split(ref.path[1:], start + 1, "/")
    return _split(ref.path, start, "/") if ref.path else []


def _components(ref: Reference) -> list[dict[str, Any]]:
    rows = []
    for name in ("scheme", "authority", *_COMPONENTS[1:]):
        value = getattr(ref, name)
        span = ref.span(name)
        decoded = None
        if value is not None and "%" in value:
            decoded = percent_decode(value, errors="replace")
        rows.append(
            {
                "name": name,
                "value": value,
                "span": None if span is None else list(span),
                "decoded": decoded,
            }
        )
    return rows


def _segments(ref: Reference) -> list[dict[str, Any]]:
    rows = []
    for segment, start in _path_segments(ref)[:MAX_ITEMS]:
        rows.append(
            {
                "text": segment,
                "span": [start, start + len(segment)],
                "decoded": percent_decode(segment, errors="replace"),
            }
        )
    return rows


def _params(ref: Reference) -> list[dict[str, Any]]:
    """The query's "&"-separated pairs (§3.4), decoded without the form codec's "+"."""
    if ref.query is None:
        return []
    first = (ref.span("query") or (0, 0))[0]
    rows = []
    for param, start in _split(ref.query, first, "&")[:MAX_ITEMS]:
        name, equals, value = param.partition("=")
        rows.append(
            {
                "text": param,
                "span": [start, start + len(param)],
                "name": percent_decode(name, errors="replace"),
                "value": percent_decode(value, errors="replace") if equals else None,
                "plus": "+" in param,
            }
        )
    return rows


# --- RFC 3986 §5.2 ------------------------------------------------------------------


def _merge(base: Reference, path: str) -> str:
    """RFC 3986 §5.2.3 Merge Paths, shown as the step before remove_dot_segments."""
    if base.authority is not None and not base.path:
        return "/" + path
    return base.path[: base.path.rfind("/") + 1] + path


def _resolution(ref: Reference, base_text: str) -> dict[str, Any]:
    try:
        base = _read(base_text) if ref.__class__ is URI else IRI(base_text)
        if base.scheme is None:
            raise URIError(
                "a base URI must be absolute (RFC 3986 §5.1): it needs a scheme",
                text=base_text,
                position=0,
                rule="absolute-URI",
            )
    except URIError as exc:
        return {"base": base_text, "error": _error(exc, base_text)}
    target = base.resolve(ref)
    steps: list[dict[str, Any]] = []
    if base.fragment is not None:
        steps.append({"step": "§5.1", "text": "the base's fragment is ignored"})
    before: str | None = ref.path
    if ref.scheme is not None:
        case = "R has a scheme: T takes R's scheme, authority, path and query"
    elif ref.authority is not None:
        case = "R has an authority: T takes it, R's path and query, and Base's scheme"
    elif not ref.path:
        before = None
        which = "R's query" if ref.query is not None else "Base's query"
        case = f"R's path is empty: T takes Base's path and {which}"
    elif ref.path.startswith("/"):
        case = "R's path is absolute: T takes it, and Base's scheme and authority"
    else:
        case = "R's path is relative: it is merged with Base's path (§5.2.3)"
        before = _merge(base, ref.path)
        steps.append({"step": "§5.2.2", "text": case})
        steps.append(
            {"step": "§5.2.3 merge", "text": f"merge({base.path!r}, {ref.path!r})", "out": before}
        )
        case = ""
    if case:
        steps.append({"step": "§5.2.2", "text": case})
    if before is not None:
        steps.append(
            {
                "step": "§5.2.4 remove_dot_segments",
                "text": f"remove_dot_segments({before!r})",
                "out": target.path,
            }
        )
    which = "R's fragment" if ref.fragment is not None else "no fragment"
    steps.append({"step": "§5.2.2", "text": f"T takes {which}"})
    steps.append({"step": "§5.3", "text": "recomposed", "out": str(target)})
    back = relativize(base, target)
    return {
        "base": str(base),
        "target": str(target),
        "steps": steps,
        "relativized": str(back),
        "round_trip": str(base.resolve(back)) == str(target),
    }


# --- RFC 3986 §6.2 ------------------------------------------------------------------


def _ladder(ref: Reference) -> list[dict[str, Any]]:
    rungs = [{"rung": "string", "about": _LADDER[0][1], "text": str(ref)}]
    for rung, about in _LADDER[1:]:
        rungs.append({"rung": rung, "about": about, "text": str(ref.normalize(level=rung))})  # type: ignore[call-overload]
    return rungs


def _comparison(ref: Reference | None, other_text: str) -> dict[str, Any]:
    try:
        other = _read(other_text)
    except URIError as exc:
        return {"other": other_text, "error": _error(exc, other_text)}
    if ref is None:
        return {"other": other_text, "ladder": _ladder(other), "rung": None}
    return {"other": other_text, "ladder": _ladder(other), "rung": comparison_rung(ref, other)}


# --- three parsers ------------------------------------------------------------------


def _hostport(hostport: str) -> tuple[str, str | None]:
    if hostport.startswith("["):
        host, bracket, rest = hostport.partition("]")
        return host + bracket, rest[1:] if rest.startswith(":") else None
    host, colon, port = hostport.partition(":")
    return host, port if colon else None


def _by_urlsplit(text: str) -> dict[str, str | None]:
    """What ``urlsplit`` reads; it gives "" for an absent component as for an empty one,
    so an authority shows as undefined unless its netloc has something in it."""
    parts = urlsplit(text)
    userinfo: str | None = None
    host: str | None = None
    port: str | None = None
    if parts.netloc:
        userinfo, at, hostport = parts.netloc.rpartition("@")
        userinfo = userinfo if at else None
        host, port = _hostport(hostport)
    return {
        "scheme": parts.scheme,
        "userinfo": userinfo,
        "host": host,
        "port": port,
        "path": parts.path,
        "query": parts.query,
        "fragment": parts.fragment,
    }


def _by_urlsplit_or_refusal(text: str) -> dict[str, str | None] | str:
    try:
        return _by_urlsplit(text)
    except ValueError as exc:  # an invalid IPv6 literal, a NFKC-decomposed netloc
        return f"refused: {exc}"


def _by_whatwg(text: str, relative: bool, base: str | None) -> dict[str, str | None] | str:
    """What the WHATWG URL parser reads: the URL ``text`` names against ``base`` when
    one is given (the URL Standard's basic URL parser with a base URL)."""
    if ada_url is None:
        return "not installed (pip install ada-url)"
    try:
        url = ada_url.URL(text) if not base else ada_url.URL(text, base)
    except ValueError:
        if base:
            return "refused (against the base)"
        return "refused: a relative reference needs a base URL" if relative else "refused"
    userinfo = url.username + (":" + url.password if url.password else "")
    return {
        "scheme": url.protocol[:-1],
        "userinfo": userinfo,
        "host": url.hostname,
        "port": url.port,
        "path": url.pathname,
        "query": url.search[1:],
        "fragment": url.hash[1:],
    }


def _parsers(
    text: str, ref: Reference | None, findings: list[Any], base: str = ""
) -> dict[str, Any]:
    """How urikit, ``urlsplit`` and the WHATWG parser read ``text``; with a ``base`` that
    resolves it, how they read the target (urikit's resolution, ``urlsplit`` of it, and
    the WHATWG parser's reading of ``text`` against ``base``), ``findings`` being the
    audit of the target."""
    readings: list[dict[str, str | None] | str] = [
        "invalid" if ref is None else {name: getattr(ref, name) for name in _COMPONENTS},
        _by_urlsplit_or_refusal(text if ref is None else str(ref)),
        _by_whatwg(text, ref is not None and ref.scheme is None, base or None),
    ]
    differs: dict[str, list[int]] = {}
    notes: list[str] = []
    for finding in findings:
        if finding.code != "parser-differential":
            continue
        if finding.component is None:
            if len(notes) < MAX_ITEMS:
                notes.append(finding.message)
            continue
        columns = differs.setdefault(finding.component, [])
        if "urllib" in finding.message:
            columns.append(1)
        if "WHATWG" in finding.message:
            columns.append(2)
    rows = []
    for name in _COMPONENTS:
        cells = [r.get(name) if isinstance(r, dict) else None for r in readings]
        rows.append({"component": name, "values": cells, "differs": sorted(differs.get(name, []))})
    return {
        "parsers": ["urikit", "urllib.parse.urlsplit", "WHATWG (ada_url)"],
        "failures": [r if isinstance(r, str) else None for r in readings],
        "rows": rows,
        "notes": notes,
        "against": str(ref) if base and ref is not None else None,
    }


# --- the answer ---------------------------------------------------------------------


def inspect(text: str, base: str = "", other: str = "") -> dict[str, Any]:
    """Everything the page shows of ``text``, with ``base`` and ``other`` when not empty."""
    answer: dict[str, Any] = {"input": text, "length": len(text)}
    ref: Reference | None
    try:
        ref = _read(text)
    except URIError as exc:
        ref = None
        answer["ok"] = False
        answer["kind"] = "uri" if text.isascii() else "iri"
        answer["error"] = _error(exc, text)
        try:
            repaired = (URI if text.isascii() else IRI).lenient(text)
            answer["lenient"] = {
                "text": str(repaired.uri),
                "repairs": [report.to_dict() for report in repaired.reports[:MAX_ITEMS]],
                "repairs_total": len(repaired.reports),
            }
        except URIError:
            answer["lenient"] = None
    else:
        answer["ok"] = True
        answer["kind"] = "uri" if isinstance(ref, URI) else "iri"
        answer["reference_kind"] = ref.kind
        answer["host_type"] = ref.host_type
        answer["pieces"] = _pieces(ref)
        answer["components"] = _components(ref)
        answer["segments"] = _segments(ref)
        answer["segments_total"] = len(_path_segments(ref))
        answer["params"] = _params(ref)
        answer["params_total"] = 0 if ref.query is None else ref.query.count("&") + 1
        answer["ladder"] = _ladder(ref)
        if isinstance(ref, IRI):
            answer["mapping"] = _mapping(ref)
        if base:
            answer["resolution"] = _resolution(ref, base)
    if other:
        answer["comparison"] = _comparison(ref, other)
    findings = audit(text)
    answer["findings"] = [
        {**finding.to_dict(), "excerpt": _excerpt(text, *finding.span)}
        for finding in findings[:MAX_ITEMS]
    ]
    answer["findings_total"] = len(findings)
    target = answer.get("resolution", {}).get("target")
    if target is None:
        answer["parsers"] = _parsers(text, ref, findings)
    else:
        answer["parsers"] = _parsers(text, _read(target), audit(target), base)
    return answer


def _mapping(iri: IRI) -> dict[str, Any]:
    """An IRI's URI (RFC 3987 §3.1) and, for a host name, its IDNA form (RFC 3490 ToASCII)."""
    mapping: dict[str, Any] = {"uri": str(iri.to_uri())}
    if iri.host is None or iri.host.isascii() or iri.host_type != "reg-name":
        return mapping
    try:
        idna = iri.to_uri(idna=True)
    except URIError as exc:
        mapping["idna_error"] = exc.reason
    else:
        mapping["idna"] = str(idna)
        mapping["idna_host"] = idna.host
    return mapping
