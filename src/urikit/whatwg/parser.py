"""The basic URL parser of the URL Standard (§4.4), state by state.

:func:`basic_url_parser` is the standard's state machine, each state named and written
as the standard writes it.  It returns a :class:`~urikit.whatwg.record.URLRecord`, or,
given a ``url`` and a ``state_override`` (the setters of §6), changes that record in
place; failure raises :class:`~urikit.whatwg.errors.URLParseError`.  Non-fatal
validation errors are appended to ``errors`` as ``(name, offset)`` pairs, the offset
being into the given input.

The input is a scalar value string: a lone surrogate of a Python ``str`` is read as
U+FFFD REPLACEMENT CHARACTER, as a browser converts a JavaScript string to a USVString.
"""

from __future__ import annotations

from enum import Enum
from typing import Final

from .encoding import (
    C0_CONTROL,
    FRAGMENT,
    PATH,
    QUERY,
    SPECIAL_QUERY,
    USERINFO,
    get_output_encoding,
    percent_encode_after_encoding,
    utf8_percent_encode,
)
from .errors import URLParseError, ValidationErrors
from .host import host_parser, is_url_code_point
from .record import (
    DEFAULT_PORTS,
    SPECIAL_SCHEMES,
    URLRecord,
    is_normalized_windows_drive_letter,
    is_windows_drive_letter,
    starts_with_windows_drive_letter,
)

__all__ = ["State", "basic_url_parser", "scalar_value_string"]

EOF: Final = ""  # the EOF code point; compared with ==, never with `in` on a str

_HEX: Final = frozenset("0123456789abcdefABCDEF")
_C0_OR_SPACE: Final = "".join(map(chr, range(0x21)))
_TAB_OR_NEWLINE: Final = ("\t", "\n", "\r")
_SCHEME_CHARS: Final = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-."
)
_END_OF_AUTHORITY: Final = frozenset((EOF, "/", "?", "#"))
_SINGLE_DOT: Final = frozenset((".", "%2e", "%2E"))
_DOUBLE_DOT: Final = frozenset(
    ("..", ".%2e", ".%2E", "%2e.", "%2E.", "%2e%2e", "%2E%2E", "%2e%2E", "%2E%2e")
)


class State(Enum):
    """The states of the basic URL parser (§4.4), by the standard's names."""

    SCHEME_START = "scheme start state"
    SCHEME = "scheme state"
    NO_SCHEME = "no scheme state"
    SPECIAL_RELATIVE_OR_AUTHORITY = "special relative or authority state"
    PATH_OR_AUTHORITY = "path or authority state"
    RELATIVE = "relative state"
    RELATIVE_SLASH = "relative slash state"
    SPECIAL_AUTHORITY_SLASHES = "special authority slashes state"
    SPECIAL_AUTHORITY_IGNORE_SLASHES = "special authority ignore slashes state"
    AUTHORITY = "authority state"
    HOST = "host state"
    HOSTNAME = "hostname state"
    PORT = "port state"
    FILE = "file state"
    FILE_SLASH = "file slash state"
    FILE_HOST = "file host state"
    PATH_START = "path start state"
    PATH = "path state"
    OPAQUE_PATH = "opaque path state"
    QUERY = "query state"
    FRAGMENT = "fragment state"


def scalar_value_string(text: str) -> str:
    """``text`` as a scalar value string: a surrogate pair joined into its code point and
    each lone surrogate replaced by U+FFFD, as a JavaScript string becomes a USVString."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return text


def _check_url_unit(c: str, text: str, pointer: int, errors: ValidationErrors) -> None:
    """The invalid-URL-unit checks of the path, query and fragment states."""
    if c == "%":
        if not (
            text[pointer + 1 : pointer + 2] in _HEX and text[pointer + 2 : pointer + 3] in _HEX
        ):
            errors.append(("invalid-URL-unit", pointer))
    elif not is_url_code_point(c):
        errors.append(("invalid-URL-unit", pointer))


def basic_url_parser(
    text: str,
    base: URLRecord | None = None,
    encoding: str = "utf-8",
    url: URLRecord | None = None,
    state_override: State | None = None,
    errors: ValidationErrors | None = None,
) -> URLRecord:
    """The basic URL parser (§4.4)."""
    # Without a list to collect them, the validation errors are not looked for where
    # that costs a step of its own (the strict ToASCII of the domain parser).
    validate = errors is not None
    if errors is None:
        errors = []
    text = scalar_value_string(text)
    original = text
    offsets: list[int] | None = None  # each code point's offset in the original input
    lead = 0  # the C0 controls and spaces trimmed from its start
    if url is None:
        url = URLRecord()
        trimmed = text.strip(_C0_OR_SPACE)
        if trimmed != text:
            errors.append(("invalid-URL-unit", 0))
            lead = len(text) - len(text.lstrip(_C0_OR_SPACE))
            offsets = list(range(lead, lead + len(trimmed)))
            text = trimmed
    if "\t" in text or "\n" in text or "\r" in text:
        where = offsets if offsets is not None else list(range(len(text)))
        kept = [i for i, ch in enumerate(text) if ch not in _TAB_OR_NEWLINE]
        errors.append(("invalid-URL-unit", where[next(i for i, ch in enumerate(text)
                                                      if ch in _TAB_OR_NEWLINE)]))  # fmt: skip
        offsets = [where[i] for i in kept]
        text = "".join(text[i] for i in kept)
    mark = len(errors)
    state = state_override or State.SCHEME_START
    encoding = get_output_encoding(encoding)
    buffer = ""
    at_sign_seen = inside_brackets = password_token_seen = False
    pointer = 0
    n = len(text)
    opaque_path: list[str] = []
    username: list[str] = []  # the userinfo percent-encoded by the authority state
    password: list[str] = []
    fragment: list[str] = []

    def offset(at: int) -> int:
        """The offset in the input of position ``at`` of the text parsed (its end after
        its last code point)."""
        if offsets is None:
            return at
        if 0 <= at < len(offsets):
            return offsets[at]
        return offsets[-1] + 1 if offsets else lead

    def fail(name: str, at: int, detail: str = "") -> URLParseError:
        return URLParseError(name, original, offset(at), detail=detail)

    def host_or_fail(buffer: str, at: int) -> object:
        sub: ValidationErrors = []
        try:
            host = host_parser(buffer, not url.is_special, sub, validate)
        except URLParseError as e:
            raise fail(e.validation_error, at + (e.position or 0), e.detail) from None
        errors.extend((name, at + offset) for name, offset in sub)
        return host

    while True:
        c = text[pointer] if pointer < n else EOF
        # "remaining" is text[pointer + 1:], read in place where a state looks at it.

        if state is State.SCHEME_START:
            if c.isascii() and c.isalpha():
                buffer += c.lower()
                state = State.SCHEME
            elif state_override is None:
                state = State.NO_SCHEME
                pointer -= 1
            else:
                raise fail("missing-scheme-non-relative-URL", pointer)

        elif state is State.SCHEME:
            if c != EOF and c in _SCHEME_CHARS:
                buffer += c.lower()
            elif c == ":":
                if state_override is not None:
                    if url.is_special and buffer not in SPECIAL_SCHEMES:
                        return url
                    if not url.is_special and buffer in SPECIAL_SCHEMES:
                        return url
                    if (url.includes_credentials or url.port is not None) and buffer == "file":
                        return url
                    if url.scheme == "file" and url.host == "":
                        return url
                url.scheme = buffer
                if state_override is not None:
                    if url.port == DEFAULT_PORTS.get(url.scheme):
                        url.port = None
                    return url
                buffer = ""
                if url.scheme == "file":
                    if not text.startswith("//", pointer + 1):
                        errors.append(("special-scheme-missing-following-solidus", pointer))
                    state = State.FILE
                elif url.is_special and base is not None and base.scheme == url.scheme:
                    assert base.is_special
                    state = State.SPECIAL_RELATIVE_OR_AUTHORITY
                elif url.is_special:
                    state = State.SPECIAL_AUTHORITY_SLASHES
                elif text.startswith("/", pointer + 1):
                    state = State.PATH_OR_AUTHORITY
                    pointer += 1
                else:
                    url.path = ""
                    state = State.OPAQUE_PATH
            elif state_override is None:
                buffer = ""
                state = State.NO_SCHEME
                pointer = -1
            else:
                raise fail("missing-scheme-non-relative-URL", pointer)

        elif state is State.NO_SCHEME:
            if base is None or (base.has_opaque_path and c != "#"):
                raise fail("missing-scheme-non-relative-URL", pointer)
            if base.has_opaque_path and c == "#":
                url.scheme = base.scheme
                url.path = base.path
                url.query = base.query
                url.fragment = ""
                state = State.FRAGMENT
            elif base.scheme != "file":
                state = State.RELATIVE
                pointer -= 1
            else:
                state = State.FILE
                pointer -= 1

        elif state is State.SPECIAL_RELATIVE_OR_AUTHORITY:
            if c == "/" and text.startswith("/", pointer + 1):
                state = State.SPECIAL_AUTHORITY_IGNORE_SLASHES
                pointer += 1
            else:
                errors.append(("special-scheme-missing-following-solidus", pointer))
                state = State.RELATIVE
                pointer -= 1

        elif state is State.PATH_OR_AUTHORITY:
            if c == "/":
                state = State.AUTHORITY
            else:
                state = State.PATH
                pointer -= 1

        elif state is State.RELATIVE:
            assert base is not None and base.scheme != "file"
            url.scheme = base.scheme
            if c == "/":
                state = State.RELATIVE_SLASH
            elif url.is_special and c == "\\":
                errors.append(("invalid-reverse-solidus", pointer))
                state = State.RELATIVE_SLASH
            else:
                url.username = base.username
                url.password = base.password
                url.host = base.host
                url.port = base.port
                url.path = base.path if isinstance(base.path, str) else list(base.path)
                url.query = base.query
                if c == "?":
                    url.query = ""
                    state = State.QUERY
                elif c == "#":
                    url.fragment = ""
                    state = State.FRAGMENT
                elif c != EOF:
                    url.query = None
                    url.shorten_path()
                    state = State.PATH
                    pointer -= 1

        elif state is State.RELATIVE_SLASH:
            if url.is_special and c in ("/", "\\"):
                if c == "\\":
                    errors.append(("invalid-reverse-solidus", pointer))
                state = State.SPECIAL_AUTHORITY_IGNORE_SLASHES
            elif c == "/":
                state = State.AUTHORITY
            else:
                assert base is not None
                url.username = base.username
                url.password = base.password
                url.host = base.host
                url.port = base.port
                state = State.PATH
                pointer -= 1

        elif state is State.SPECIAL_AUTHORITY_SLASHES:
            if c == "/" and text.startswith("/", pointer + 1):
                state = State.SPECIAL_AUTHORITY_IGNORE_SLASHES
                pointer += 1
            else:
                errors.append(("special-scheme-missing-following-solidus", pointer))
                state = State.SPECIAL_AUTHORITY_IGNORE_SLASHES
                pointer -= 1

        elif state is State.SPECIAL_AUTHORITY_IGNORE_SLASHES:
            if c not in ("/", "\\"):
                state = State.AUTHORITY
                pointer -= 1
            else:
                errors.append(("special-scheme-missing-following-solidus", pointer))

        elif state is State.AUTHORITY:
            if c == "@":
                errors.append(("invalid-credentials", pointer))
                if at_sign_seen:
                    buffer = "%40" + buffer
                at_sign_seen = True
                for code_point in buffer:
                    if code_point == ":" and not password_token_seen:
                        password_token_seen = True
                        continue
                    encoded = utf8_percent_encode(code_point, USERINFO)
                    if password_token_seen:
                        password.append(encoded)
                    else:
                        username.append(encoded)
                buffer = ""
            elif c in _END_OF_AUTHORITY or (url.is_special and c == "\\"):
                if at_sign_seen and buffer == "":
                    raise fail("host-missing", pointer)
                url.username += "".join(username)
                url.password += "".join(password)
                pointer -= len(buffer) + 1
                buffer = ""
                state = State.HOST
            else:
                buffer += c

        elif state in (State.HOST, State.HOSTNAME):
            if state_override is not None and url.scheme == "file":
                pointer -= 1
                state = State.FILE_HOST
            elif c == ":" and not inside_brackets:
                if buffer == "":
                    raise fail("host-missing", pointer)
                if state_override is State.HOSTNAME:
                    raise fail("port-invalid", pointer, "the hostname setter takes no port")
                url.host = host_or_fail(buffer, pointer - len(buffer))  # type: ignore[assignment]
                buffer = ""
                state = State.PORT
            elif c in _END_OF_AUTHORITY or (url.is_special and c == "\\"):
                pointer -= 1
                if url.is_special and buffer == "":
                    raise fail("host-missing", pointer + 1)
                if (
                    state_override is not None
                    and buffer == ""
                    and (url.includes_credentials or url.port is not None)
                ):
                    raise fail("host-missing", pointer + 1, "credentials or a port need a host")
                url.host = host_or_fail(buffer, pointer + 1 - len(buffer))  # type: ignore[assignment]
                buffer = ""
                state = State.PATH_START
                if state_override is not None:
                    return url
            else:
                if c == "[":
                    inside_brackets = True
                if c == "]":
                    inside_brackets = False
                buffer += c

        elif state is State.PORT:
            if c != EOF and c in "0123456789":
                buffer += c
            elif (
                c in _END_OF_AUTHORITY
                or (url.is_special and c == "\\")
                or state_override is not None
            ):
                if buffer != "":
                    port = int(buffer)
                    if port > 0xFFFF:
                        raise fail("port-out-of-range", pointer - len(buffer))
                    url.port = None if port == DEFAULT_PORTS.get(url.scheme) else port
                    buffer = ""
                    if state_override is not None:
                        return url
                if state_override is not None:
                    raise fail("port-invalid", pointer)
                state = State.PATH_START
                pointer -= 1
            else:
                raise fail("port-invalid", pointer)

        elif state is State.FILE:
            url.scheme = "file"
            url.host = ""
            if c in ("/", "\\"):
                if c == "\\":
                    errors.append(("invalid-reverse-solidus", pointer))
                state = State.FILE_SLASH
            elif base is not None and base.scheme == "file":
                url.host = base.host
                url.path = base.path if isinstance(base.path, str) else list(base.path)
                url.query = base.query
                if c == "?":
                    url.query = ""
                    state = State.QUERY
                elif c == "#":
                    url.fragment = ""
                    state = State.FRAGMENT
                elif c != EOF:
                    url.query = None
                    if not starts_with_windows_drive_letter(text[pointer:]):
                        url.shorten_path()
                    else:
                        errors.append(("file-invalid-Windows-drive-letter", pointer))
                        url.path = []
                    state = State.PATH
                    pointer -= 1
            else:
                state = State.PATH
                pointer -= 1

        elif state is State.FILE_SLASH:
            if c in ("/", "\\"):
                if c == "\\":
                    errors.append(("invalid-reverse-solidus", pointer))
                state = State.FILE_HOST
            else:
                if base is not None and base.scheme == "file":
                    url.host = base.host
                    if (
                        not starts_with_windows_drive_letter(text[pointer:])
                        and isinstance(base.path, list)
                        and base.path
                        and is_normalized_windows_drive_letter(base.path[0])
                    ):
                        assert isinstance(url.path, list)
                        url.path.append(base.path[0])
                state = State.PATH
                pointer -= 1

        elif state is State.FILE_HOST:
            if c in (EOF, "/", "\\", "?", "#"):
                pointer -= 1
                if state_override is None and is_windows_drive_letter(buffer):
                    errors.append(("file-invalid-Windows-drive-letter-host", pointer + 1))
                    state = State.PATH
                elif buffer == "":
                    url.host = ""
                    if state_override is not None:
                        return url
                    state = State.PATH_START
                else:
                    host = host_or_fail(buffer, pointer + 1 - len(buffer))
                    if host == "localhost":
                        host = ""
                    url.host = host  # type: ignore[assignment]
                    if state_override is not None:
                        return url
                    buffer = ""
                    state = State.PATH_START
            else:
                buffer += c

        elif state is State.PATH_START:
            if url.is_special:
                if c == "\\":
                    errors.append(("invalid-reverse-solidus", pointer))
                state = State.PATH
                if c not in ("/", "\\"):
                    pointer -= 1
            elif state_override is None and c == "?":
                url.query = ""
                state = State.QUERY
            elif state_override is None and c == "#":
                url.fragment = ""
                state = State.FRAGMENT
            elif c != EOF:
                state = State.PATH
                if c != "/":
                    pointer -= 1
            elif state_override is not None and url.host is None:
                assert isinstance(url.path, list)
                url.path.append("")

        elif state is State.PATH:
            if (
                c in (EOF, "/")
                or (url.is_special and c == "\\")
                or (state_override is None and c in ("?", "#"))
            ):
                if url.is_special and c == "\\":
                    errors.append(("invalid-reverse-solidus", pointer))
                slash = c == "/" or (url.is_special and c == "\\")
                assert isinstance(url.path, list)
                if buffer in _DOUBLE_DOT:
                    url.shorten_path()
                    if not slash:
                        url.path.append("")
                elif buffer in _SINGLE_DOT and not slash:
                    url.path.append("")
                elif buffer not in _SINGLE_DOT:
                    if url.scheme == "file" and not url.path and is_windows_drive_letter(buffer):
                        buffer = buffer[0] + ":"
                    url.path.append(buffer)
                buffer = ""
                if c == "?":
                    url.query = ""
                    state = State.QUERY
                if c == "#":
                    url.fragment = ""
                    state = State.FRAGMENT
            else:
                _check_url_unit(c, text, pointer, errors)
                buffer += utf8_percent_encode(c, PATH)

        elif state is State.OPAQUE_PATH:
            assert isinstance(url.path, str)
            if c == "?":
                url.query = ""
                state = State.QUERY
            elif c == "#":
                url.fragment = ""
                state = State.FRAGMENT
            elif c == " ":
                errors.append(("invalid-URL-unit", pointer))
                if text[pointer + 1 : pointer + 2] in ("?", "#"):
                    opaque_path.append("%20")
                else:
                    opaque_path.append(" ")
            elif c != EOF:
                _check_url_unit(c, text, pointer, errors)
                opaque_path.append(utf8_percent_encode(c, C0_CONTROL))

        elif state is State.QUERY:
            if encoding != "utf-8" and (not url.is_special or url.scheme in ("ws", "wss")):
                encoding = "utf-8"
            if (state_override is None and c == "#") or c == EOF:
                encode_set = SPECIAL_QUERY if url.is_special else QUERY
                url.query = (url.query or "") + percent_encode_after_encoding(
                    encoding, buffer, encode_set
                )
                buffer = ""
                if c == "#":
                    url.fragment = ""
                    state = State.FRAGMENT
            elif c != EOF:
                _check_url_unit(c, text, pointer, errors)
                buffer += c

        elif state is State.FRAGMENT and c != EOF:
            _check_url_unit(c, text, pointer, errors)
            fragment.append(utf8_percent_encode(c, FRAGMENT))

        if pointer >= n:
            break
        pointer += 1

    # The code points appended one by one to the opaque path and the fragment, joined once.
    if opaque_path:
        assert isinstance(url.path, str)
        url.path += "".join(opaque_path)
    if fragment:
        url.fragment = (url.fragment or "") + "".join(fragment)
    if offsets is not None:
        errors[mark:] = [(name, offset(at)) for name, at in errors[mark:]]
    return url
