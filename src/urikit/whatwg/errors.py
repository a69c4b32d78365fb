"""The validation errors of the URL Standard (§1.2, "Writing").

A validation error that the standard marks as a failure raises :class:`URLParseError`;
the others are reported (:class:`~urikit.report.Report`, by :meth:`URL.checked
<urikit.whatwg.URL.checked>`).  :data:`VALIDATION_ERRORS` holds every name, with the
standard's description.
"""

from __future__ import annotations

from typing import Final

from ..errors import URIError

__all__ = ["VALIDATION_ERRORS", "URLParseError", "ValidationErrors"]

#: Each validation error of the URL Standard §1.2 and its description.
VALIDATION_ERRORS: Final = {
    "domain-to-ASCII": "Unicode ToASCII records an error, or the host is empty",
    "domain-percent-encoded": "a host to be processed as a domain contains a percent-encoded byte",
    "host-invalid-code-point": "an opaque host contains a forbidden host code point",
    "IPv4-empty-part": "an IPv4 address ends with a full stop",
    "IPv4-too-few-parts": "an IPv4 address has fewer than 4 parts",
    "IPv4-too-many-parts": "an IPv4 address has more than 4 parts",
    "IPv4-non-numeric-part": "an IPv4 address part is not numeric",
    "IPv4-non-decimal-part": "an IPv4 address part is written in hexadecimal or octal",
    "IPv4-out-of-range-part": "an IPv4 address part exceeds 255",
    "IPv6-unclosed": "an IPv6 address is missing the closing ']'",
    "IPv6-invalid-compression": "an IPv6 address begins with improper compression",
    "IPv6-too-many-pieces": "an IPv6 address contains more than 8 pieces",
    "IPv6-multiple-compression": "an IPv6 address is compressed in more than one spot",
    "IPv6-invalid-code-point": "an IPv6 address holds a code point that is neither a hex "
    "digit nor ':', or ends unexpectedly",
    "IPv6-too-few-pieces": "an uncompressed IPv6 address contains fewer than 8 pieces",
    "IPv6-piece-leading-zero": "an IPv6 address piece has a leading zero",
    "IPv4-in-IPv6-too-many-pieces": "an IPv6 address with IPv4 syntax has more than 6 pieces",
    "IPv4-in-IPv6-invalid-code-point": "an IPv4 part of an IPv6 address is empty, holds a "
    "non-digit or a leading 0, or there are too many",
    "IPv4-in-IPv6-out-of-range-part": "an IPv4 part of an IPv6 address exceeds 255",
    "IPv4-in-IPv6-too-few-parts": "an IPv4 address inside an IPv6 address has too few parts",
    "invalid-URL-unit": "a code point that is not a URL unit",
    "special-scheme-missing-following-solidus": 'the scheme is not followed by "//"',
    "missing-scheme-non-relative-URL": "the input has no scheme, and no base URL it could "
    "be resolved against",
    "invalid-reverse-solidus": "a URL with a special scheme uses '\\' instead of '/'",
    "invalid-credentials": "the input includes credentials",
    "host-missing": "the input has a special scheme but no host",
    "port-out-of-range": "the port is too big",
    "port-invalid": "the port is invalid",
    "file-invalid-Windows-drive-letter": "a relative URL starts with a Windows drive letter "
    'and the base URL\'s scheme is "file"',
    "file-invalid-Windows-drive-letter-host": "a file: URL's host is a Windows drive letter",
}

#: Where the parsers collect non-fatal validation errors: (name, offset into the input).
ValidationErrors = list[tuple[str, int]]


class URLParseError(URIError):
    """Input the URL Standard's parser returns failure for.

    ``validation_error`` is the name of the validation error that made it fail, as the
    standard names it (``"host-missing"``, ``"port-out-of-range"``, ...; see
    ``VALIDATION_ERRORS``); ``position`` is where in ``text`` it was found, when known.
    """

    __slots__ = ("detail", "validation_error")

    def __init__(
        self, validation_error: str, text: str, position: int | None, *, detail: str = ""
    ) -> None:
        reason = VALIDATION_ERRORS.get(validation_error, validation_error)
        if detail:
            reason = f"{reason}: {detail}"
        super().__init__(reason, text=text, position=position, rule=validation_error)
        self.validation_error = validation_error
        self.detail = detail

    def _render(self) -> str:
        text = super()._render()
        return text.replace(f" in {self.rule}:", f" ({self.rule} validation error):", 1)

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (self.validation_error, self.text, self.position, self.detail))


def _rebuild(name: str, text: str, position: int | None, detail: str) -> URLParseError:
    return URLParseError(name, text, position, detail=detail)
