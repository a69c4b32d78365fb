"""``urikit audit``: the security considerations of RFC 3986 §7, for each input.

The human output shows each URI with its components in distinct colours, the
userinfo standing out (RFC 3986 §7.6 suggests "a different color or tone to
render userinfo"), passwords masked (§7.5) and invisible characters made
visible; the findings follow, one per line.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, Final, Protocol

from .. import URI, URIError, audit
from ..report import Severity, printable
from . import _files, _output
from ._choices import case_insensitive
from ._display import use_color
from ._help import Formatter, examples
from ._operation import Operation


class Finding(Protocol):
    """What the command reads of a finding of :func:`urikit.audit`."""

    @property
    def code(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def severity(self) -> Any: ...
    @property
    def span(self) -> tuple[int, int]: ...
    @property
    def component(self) -> str | None: ...
    def to_dict(self) -> dict[str, Any]: ...


#: SGR parameters per component; the userinfo is reverse-coloured to stand out.
STYLES: Final = {
    "scheme": "36",
    "userinfo": "1;97;41",
    "host": "1;32",
    "port": "33",
    "path": "34",
    "query": "35",
    "fragment": "90",
    "delimiter": "2",
}
SEVERITY_STYLES: Final = {"info": "2", "low": "36", "medium": "33", "high": "1;31"}
_COMPONENTS: Final = ("scheme", "userinfo", "host", "port", "path", "query", "fragment")
_MASK: Final = "***"
_FAIL_CHOICES: Final = ("info", "low", "medium", "high", "never")


def paint(text: str, style: str | None, color: bool) -> str:
    """``text`` in the SGR ``style`` when ``color`` is on."""
    if not color or not style or not text:
        return text
    return f"\x1b[{style}m{text}\x1b[0m"


def _pieces(text: str) -> list[tuple[int, int, str | None]]:
    """(start, end, component) for the whole text; delimiters between components."""
    try:
        uri = URI(text)
    except URIError:
        return [(0, len(text), None)]
    pieces: list[tuple[int, int, str | None]] = []
    at = 0
    for name in _COMPONENTS:
        span = uri.span(name)
        if span is None:
            continue
        start, end = span
        if start > at:
            pieces.append((at, start, "delimiter"))
        pieces.append((start, end, name))
        at = end
    if at < len(text):
        pieces.append((at, len(text), "delimiter"))
    return pieces


def _codes(text: str) -> str:
    return "".join(f"<U+{ord(ch):04X}>" for ch in text)


class _Shown:
    """Slices of one input as shown: :func:`printable`, and also as ``<U+XXXX>``
    the white space at either end of the input (so that the line that starts a
    record never starts with a space, which would make it read as a continuation
    line, and trailing spaces can be seen) and the line and paragraph separators
    (which some readers take for line ends).
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.lead = len(text) - len(text.lstrip())
        self.trail = len(text.rstrip())

    def __call__(self, start: int, end: int) -> str:
        middle_start = min(max(start, self.lead), end)
        middle_end = max(min(end, self.trail), middle_start)
        text = self.text
        middle = printable(text[middle_start:middle_end]).translate(_SEPARATORS)
        return _codes(text[start:middle_start]) + middle + _codes(text[middle_end:end])


_SEPARATORS: Final = {0x2028: "<U+2028>", 0x2029: "<U+2029>"}


def render(
    text: str, findings: Sequence[Finding], *, color: bool, show_password: bool = False
) -> str:
    """The input for display: coloured by component, passwords masked, invisibles shown."""
    masked = [] if show_password else sorted(f.span for f in findings if f.code == "password")
    shown = _Shown(text)
    out: list[str] = []
    for start, end, name in _pieces(text):
        style = STYLES.get(name or "")
        at = start
        chunk: list[str] = []
        for m_start, m_end in masked:
            if m_start >= start and m_end <= end:
                chunk.append(shown(at, m_start) + _MASK)
                at = m_end
        chunk.append(shown(at, end))
        out.append(paint("".join(chunk), style, color))
    return "".join(out)


def _failing(findings: Sequence[Finding], fail_on: str) -> bool:
    if fail_on == "never":
        return False
    threshold = Severity(fail_on).rank
    return any(Severity(str(f.severity.value)).rank >= threshold for f in findings)


def _human(text: str, fail_on: str, color: bool, show_password: bool) -> tuple[bool, str]:
    findings: Sequence[Finding] = audit(text)
    lines = [render(text, findings, color=color, show_password=show_password)]
    if not findings:
        lines.append("  " + paint("no findings", "2", color))
    for f in findings:
        name = str(f.severity.value)
        severity = paint(f"{name:<6}", SEVERITY_STYLES[name], color)
        where = f"{f.component or 'input'} {f.span[0]}-{f.span[1]}"
        lines.append(f"  {severity} {f.code}  ({where})  {printable(f.message)}")
    return not _failing(findings, fail_on), "\n".join(lines)


def _json(text: str, fail_on: str) -> tuple[bool, dict[str, Any]]:
    findings: Sequence[Finding] = audit(text)
    ok = not _failing(findings, fail_on)
    return ok, {"findings": [f.to_dict() for f in findings]}


def audit_operation(args: argparse.Namespace, records: _output.Records) -> Operation:
    color = getattr(args, "color", None)
    if color is None:
        color = use_color()
    return Operation(
        lambda text: _human(text, args.fail_on, color, args.show_password),
        lambda text: _json(text, args.fail_on),
        {"findings": "findings"},
    )


def _run(args: argparse.Namespace) -> int:
    return _files.run(args, "audit", audit_operation, args.uri)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "audit",
        formatter_class=Formatter,
        help="report what in URIs deserves caution (RFC 3986 §7)",
        description="Audit each input for the security considerations of RFC 3986 §7: "
        "misleading userinfo, passwords, rare IPv4 formats, internal addresses, unusual "
        "ports, encoded controls and dot-segments, invalid UTF-8, mixed-script and "
        "obfuscated hosts, active-content schemes (javascript:, data: of HTML), and "
        "differences from urllib.parse and WHATWG parsers. Invalid inputs are audited too. "
        "The URI is shown with its components coloured (on a terminal, unless NO_COLOR is "
        "set), passwords masked, then one finding per line. Exits 1 when any finding is at "
        "or above --fail-on.",
        epilog=examples(
            "$ urikit audit --fail-on high 'http://www.example.com&story=breaking_news@10.0.0.1/'\n"
            "http://www.example.com&story=breaking_news@10.0.0.1/\n"
            "..."
        ),
    )
    parser.add_argument("uri", nargs="*", help="URIs (default: one per line on stdin)")
    _output.add_options(parser)
    _files.add_options(parser)
    parser.add_argument(
        "--fail-on",
        default="info",
        type=case_insensitive(_FAIL_CHOICES),
        choices=_FAIL_CHOICES,
        metavar="SEVERITY",
        help="exit 1 when a finding is at or above SEVERITY: info (the default: any "
        "finding), low, medium, high, or never",
    )
    parser.set_defaults(run=_run)
