"""The rows the engine tests send and the scalar API's answers for each.

Spark and Dask must answer each row as ``URI(text)`` (or its ``URIError``) and the
scalar functions do; ``expected`` says what that is, field by field, in the shape
both engines give back (null for a null row or a row the operation refuses).
"""

from __future__ import annotations

from typing import Any

from test_arrow import IRIS, RESOLUTION, SYNTAX, URLS, port_number, scalar

import urikit
from urikit import IRI, URI, URIError
from urikit._arrow_kernel import COMPONENTS

BASE = "http://a/b/c/d;p?q"
#: Hostile and invalid rows: long, deep, control characters, overflowing ports.
HOSTILE = [
    "http://" + "a" * 200_000,
    "http://a/" + "../" * 20_000,
    "%" * 50_000,
    "http://[" + ":" * 10_000,
    "http://a:" + "9" * 5_000 + "/",
    "\x00",
    "http://a/\r\nSet-Cookie: x=1",
    "http://user:pw@good.example@evil.example/",
    "javascript:alert(document.cookie)",
    "http://a/\u202egnp.exe",
    "http://" + "a." * 30_000 + "b/",
    "?" + "&q=1" * 20_000,
]
#: Every syntax vector, every real URL, IRIs, hostile rows, empty and null rows.
ROWS: list[str | None] = [None, *SYNTAX, None, *URLS, *IRIS, *HOSTILE, "", None]
#: (base, reference) pairs: the resolution vectors and bases that are not absolute.
PAIRS: list[tuple[str | None, str | None]] = [
    *((case["base"], case["ref"]) for case in RESOLUTION),
    ("bad uri", "g"),
    ("/relative", "g"),
    (BASE, "bad ref"),
    (None, "g"),
    (BASE, None),
]
FIELDS = [
    "parse",
    "host_type",
    "port_number",
    "is_valid",
    "normalize",
    "to_uri",
    "query_param",
    "resolve",
    "relativize",
    "audit_codes",
]


def _refused(operation: Any, *args: Any) -> Any:
    try:
        return operation(*args)
    except URIError:
        return None


def parsed(text: str | None, iri: bool = False) -> dict[str, Any] | None:
    """The struct of ``parse`` for ``text``."""
    want = scalar(text, iri)
    if want is None:
        return None
    row: dict[str, Any] = {}
    for name in COMPONENTS:
        row[name] = None if isinstance(want, URIError) else getattr(want, name)
    bad = want if isinstance(want, URIError) else None
    row["valid"] = bad is None
    row["error_position"] = None if bad is None else bad.position
    row["error"] = None if bad is None else bad.reason
    row["error_rule"] = None if bad is None else bad.rule
    return row


def expected(text: str | None) -> dict[str, Any]:
    """Each of :data:`FIELDS` for one row."""
    want = scalar(text)
    ok = isinstance(want, URI)
    iri = scalar(text, iri=True)
    return {
        "parse": parsed(text),
        "host_type": want.host_type if ok else None,
        "port_number": port_number(want) if ok else None,
        "is_valid": None if text is None else ok,
        "normalize": str(urikit.normalize(want)) if ok else None,
        "to_uri": _refused(lambda: str(iri.to_uri())) if isinstance(iri, IRI) else None,
        "query_param": _refused(want.query_param, "q") if ok else None,
        "resolve": _refused(lambda: str(urikit.resolve(BASE, text))) if ok else None,
        "relativize": _refused(lambda: str(urikit.relativize(BASE, text))) if ok else None,
        "audit_codes": None if text is None else [f.code for f in urikit.audit(text)],
    }


def resolved(base: str | None, ref: str | None) -> str | None:
    """``resolve(base, ref)`` as a column holds it."""
    if base is None or ref is None:
        return None
    return _refused(lambda: str(urikit.resolve(base, ref)))
