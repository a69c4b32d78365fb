"""``file:`` URIs and local paths (RFC 8089).

:func:`path_to_uri_text` writes an absolute POSIX or Windows path as a ``file:`` URI
with an empty authority (``file:///etc/hosts``, ``file:///C:/Windows``), or,
for a Windows UNC path, with the server as host (``file://server/share/x``,
RFC 8089 Appendix E.3.1).  Each path component is percent-encoded as data
(§2 of RFC 8089, RFC 3986 §2.1): non-ASCII as UTF-8, and "%", "#", "?", "/",
";" and ":" (a drive letter's colon aside) among the reserved characters.

:func:`to_path` reads one back as a ``PurePosixPath`` or ``PureWindowsPath``.
It takes the forms of RFC 8089 §2 and those of its Appendix E: ``file:/x``
(no authority), ``file://localhost/x`` (the local host, §2), a drive letter
written ``C:`` or ``C|`` (E.2) with or without a leading "/" (``file:c:/x``),
and UNC paths as ``file://server/share`` (E.3.1) or ``file:////server/share``
(E.3.2).

POSIX file names are octets: a name that is not UTF-8 is held in a ``str``
with ``surrogateescape`` (as ``os.fsdecode`` does on a UTF-8 system), and is
written and read back octet for octet.

Both work on text: :func:`path_to_uri_text` returns the text of the URI
(``URI.from_path`` wraps it), and :func:`to_path` reads the components of one
(``URI.to_path`` passes its own).  A path that has no file URI, or a URI
that names no local path, is bad text and raises :class:`URIError`; an
argument of the wrong type or an unknown flavor raises ``TypeError`` or
``ValueError``.
"""

from __future__ import annotations

import os
import re
from pathlib import PurePath, PurePosixPath, PureWindowsPath
from typing import Final, get_args

from ._seam import percent_decode, percent_encode
from .components import Parts, component_spans
from .errors import URIError
from .grammar import ALPHA
from .percent import percent_decode_bytes
from .types import Flavor

__all__ = ["FLAVORS", "path_to_uri_text", "to_path"]

FLAVORS: Final[tuple[str, ...]] = get_args(Flavor)
_LOCAL_HOSTS: Final = ("", "localhost")
_DRIVE_LETTER: Final = re.compile(f"[{ALPHA}][:|]")
# Reserved characters that RFC 3986 allows in a segment but that would be
# misread in a file name: ";" (RFC 1738 parameters) and ":" (a drive letter).
_EXTRA: Final = {";": "%3B", ":": "%3A"}


def _current_flavor() -> Flavor:
    return "windows" if os.name == "nt" else "posix"


def _unrepresentable(text: str, position: int, reason: str) -> URIError:
    return URIError(reason, text=text, position=position, rule="file-URI")


# -- path -> URI ---------------------------------------------------------------


def _octets(name: str, windows: bool) -> bytes:
    """A path component as UTF-8 octets (POSIX names keep theirs, via surrogateescape)."""
    try:
        return name.encode("utf-8") if windows else name.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError as exc:
        raise _unrepresentable(
            name, exc.start, "a lone surrogate has no UTF-8 form, so no file URI"
        ) from None


def _encode_name(name: str, windows: bool) -> str:
    """One path component as a segment: percent-encoded data (RFC 8089 §2)."""
    encoded = percent_encode(_octets(name, windows), "segment")
    for char, triplet in _EXTRA.items():
        encoded = encoded.replace(char, triplet)
    return encoded


def _is_drive_letter(text: str) -> bool:
    """drive-letter = ALPHA ":" (RFC 8089 Appendix E.2; "|" is its legacy spelling)."""
    return _DRIVE_LETTER.fullmatch(text) is not None


def path_to_uri_text(path: str | PurePath) -> str:
    """The text of the ``file:`` URI of an absolute local path (RFC 8089 §2).

    A ``str`` is a path of the current operating system; pass a
    ``PurePosixPath`` or ``PureWindowsPath`` to choose.  A relative path, a
    Windows path without both drive and root (``C:x``, ``\\x``), a device
    path (``\\\\?\\``, ``\\\\.\\``) or a path containing NUL cannot be a file
    URI and raises :class:`URIError`.

    >>> from pathlib import PurePosixPath, PureWindowsPath
    >>> path_to_uri_text(PurePosixPath("/tmp/a b#1.txt"))
    'file:///tmp/a%20b%231.txt'
    >>> path_to_uri_text(PureWindowsPath(r"C:\\Users\\Zoë"))
    'file:///C:/Users/Zo%C3%AB'
    >>> path_to_uri_text(PureWindowsPath(r"\\\\server\\share\\x.txt"))
    'file://server/share/x.txt'
    """
    if isinstance(path, str):
        path = PureWindowsPath(path) if _current_flavor() == "windows" else PurePosixPath(path)
    elif not isinstance(path, PurePath):
        raise TypeError(f"from_path() takes a str or PurePath, not {type(path).__name__}")
    text = str(path)
    if "\x00" in text:
        raise _unrepresentable(text, text.index("\x00"), "a path containing NUL has no file URI")
    if not path.is_absolute():
        raise _unrepresentable(
            text, 0, "a file URI names an absolute path; resolve the relative path first"
        )
    windows = isinstance(path, PureWindowsPath)
    names = [_encode_name(name, windows) for name in path.parts[1:]]
    if not windows:
        # PurePosixPath keeps a leading "//" (POSIX leaves its meaning open).
        return "file://" + path.parts[0] + "/".join(names)
    drive = path.drive
    if _is_drive_letter(drive) and drive[1] == ":":
        return "file:///" + drive + "/" + "/".join(names)
    if drive.startswith("\\\\"):
        server, _, share = drive[2:].partition("\\")
        if server not in ("?", ".") and share:
            share_path = "/" + "/".join([_encode_name(share, True), *names])
            if server.lower() == "localhost":
                # "localhost" as host would mean this machine (§2): Appendix E.3.2.
                return "file:////" + _encode_name(server, True) + share_path
            return "file://" + percent_encode(_octets(server, True), "host") + share_path
    raise _unrepresentable(text, 0, f"the drive {drive!r} has no file URI form")


# -- URI -> path ------------------------------------------------------------------


def _decode_name(segment: str, windows: bool, text: str, position: int) -> str:
    raw = percent_decode_bytes(segment)
    try:
        name = raw.decode("utf-8") if windows else raw.decode("utf-8", "surrogateescape")
    except UnicodeDecodeError:
        raise _unrepresentable(
            text, position, "a Windows file name must be UTF-8 when percent-encoded"
        ) from None
    forbidden = "\x00/\\" if windows else "\x00/"
    for char in forbidden:
        if char in name:
            raise _unrepresentable(
                text, position, f"the segment {segment!r} decodes to a name with {char!r} in it"
            )
    return name


def _decoded(path: str, windows: bool, text: str, offset: int) -> list[str]:
    """The decoded segments of ``path``, split on "/" before decoding."""
    names = []
    position = offset
    for segment in path.split("/"):
        names.append(_decode_name(segment, windows, text, position))
        position += len(segment) + 1
    return names


def to_path(parts: Parts, text: str, flavor: Flavor | None = None) -> PurePath:
    """The local path of a ``file:`` URI (RFC 8089 §2, Appendix E).

    ``text`` is the URI reference and ``parts`` its components (positions in
    errors are positions in ``text``).  ``flavor`` is ``"posix"`` (a
    ``PurePosixPath``), ``"windows"`` (a ``PureWindowsPath``) or ``None`` for
    the current operating system.  A host other than ``localhost`` is a UNC
    server for Windows and an error for POSIX.  A URI that is not ``file:``,
    has a userinfo, port, query or fragment, has no absolute path, or decodes
    to a name with "/" (or, for Windows, "\\") or NUL raises :class:`URIError`.

    >>> def parts(host, path):
    ...     return Parts("file", host, None, host, None, path, None, None)
    >>> to_path(parts("", "/C:/Program%20Files/x"), "file:///C:/Program%20Files/x", "windows")
    PureWindowsPath('C:/Program Files/x')
    >>> to_path(parts("server", "/share/a%23b"), "file://server/share/a%23b", "windows")
    PureWindowsPath('//server/share/a#b')
    >>> to_path(parts("localhost", "/etc/hosts"), "file://localhost/etc/hosts", "posix")
    PurePosixPath('/etc/hosts')
    """
    if not isinstance(parts, Parts) or not isinstance(text, str):
        raise TypeError("to_path() takes the Parts and the text of a file URI")
    if flavor is None:
        flavor = _current_flavor()
    if flavor not in FLAVORS:
        raise ValueError(f"unknown path flavor {flavor!r}; expected 'posix' or 'windows'")
    scheme = parts.scheme
    if scheme is None or scheme.lower() != "file":
        raise _unrepresentable(text, 0, "only a file: URI names a local path (RFC 8089)")
    spans = component_spans(parts)
    for component in ("userinfo", "port", "query", "fragment"):
        if component in spans:
            raise _unrepresentable(
                text,
                spans[component][0],
                f"a file URI with a {component} does not name a local path (RFC 8089 §2)",
            )
    windows = flavor == "windows"
    host = parts.host
    path = parts.path
    offset = spans["path"][0]
    if host is not None and host.lower() not in _LOCAL_HOSTS:
        if not windows:
            raise _unrepresentable(
                text, len(scheme) + 3, "a file URI on another host has no POSIX path"
            )
        if host.startswith("["):
            raise _unrepresentable(text, len(scheme) + 3, "an IP literal has no UNC server form")
        server = percent_decode(host)
        return _unc(server, path[1:], text, offset + 1)
    if path == "":
        raise _unrepresentable(text, len(text), "the file URI has no path")
    if not windows:
        if path[0] != "/":
            raise _unrepresentable(text, offset, "a POSIX path from a file URI must be absolute")
        return PurePosixPath("/" + "/".join(_decoded(path[1:], False, text, offset + 1)))
    return _windows_local(path, text, offset)


def _windows_local(path: str, text: str, offset: int) -> PureWindowsPath:
    """A local Windows path: a drive letter (E.2), a UNC path in the path (E.3.2), or rooted."""
    if path.startswith("//"):
        skip = 3 if path.startswith("///") else 2
        return _unc(None, path[skip:], text, offset + skip)
    rooted = path[0] == "/"
    rest = path[1:] if rooted else path
    names = _decoded(rest, True, text, offset + rooted)
    if _is_drive_letter(names[0]):
        drive = names[0][0] + ":"
        return _checked(drive + "\\" + "\\".join(names[1:]), drive, text, offset)
    if not rooted:
        raise _unrepresentable(text, offset, "a Windows path from a file URI must be absolute")
    return _checked("\\" + "\\".join(names), "", text, offset)


def _unc(server: str | None, path: str, text: str, offset: int) -> PureWindowsPath:
    """``\\\\server\\share\\rest`` (RFC 8089 Appendix E.3)."""
    names = _decoded(path, True, text, offset)
    if server is None:
        server = names.pop(0) if names else ""
    if server in ("", ".", "?") or not names or names[0] == "":
        raise _unrepresentable(text, offset, "a UNC path needs a server and a share")
    drive = "\\\\" + server + "\\" + names[0]
    return _checked(drive + "\\" + "\\".join(names[1:]), drive, text, offset)


def _checked(windows_path: str, drive: str, text: str, offset: int) -> PureWindowsPath:
    result = PureWindowsPath(windows_path)
    if result.drive.lower() != drive.lower():
        raise _unrepresentable(text, offset, f"the path would read as {windows_path!r}")
    return result
