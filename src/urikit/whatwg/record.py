"""The URL record of the URL Standard (§4.1) and its serializer (§4.5).

:class:`URLRecord` is the standard's struct: scheme, username, password, host, port,
path (a list of segments, or one string for an opaque path), query and fragment.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from .host import Host, host_serializer

__all__ = ["DEFAULT_PORTS", "SPECIAL_SCHEMES", "URLRecord", "serialize"]

#: The special schemes and their default ports (§4.2).
DEFAULT_PORTS: Final[dict[str, int | None]] = {
    "ftp": 21,
    "file": None,
    "http": 80,
    "https": 443,
    "ws": 80,
    "wss": 443,
}
SPECIAL_SCHEMES: Final = frozenset(DEFAULT_PORTS)

Path = list[str] | str


@dataclass
class URLRecord:
    """A URL (§4.1): what the basic URL parser returns and the setters change."""

    scheme: str = ""
    username: str = ""
    password: str = ""
    host: Host | None = None
    port: int | None = None
    path: Path = field(default_factory=list)
    query: str | None = None
    fragment: str | None = None

    @property
    def is_special(self) -> bool:
        """Whether the scheme is a special scheme (§4.2)."""
        return self.scheme in SPECIAL_SCHEMES

    @property
    def includes_credentials(self) -> bool:
        """Whether the username or the password is not empty (§4.2)."""
        return self.username != "" or self.password != ""

    @property
    def has_opaque_path(self) -> bool:
        """Whether the path is a URL path segment rather than a list (§4.2)."""
        return isinstance(self.path, str)

    @property
    def cannot_have_username_password_port(self) -> bool:
        """§4.2: the host is null or empty, or the scheme is "file"."""
        return self.host is None or self.host == "" or self.scheme == "file"

    def copy(self) -> URLRecord:
        """A copy whose path list is a clone."""
        path = self.path if isinstance(self.path, str) else list(self.path)
        return URLRecord(self.scheme, self.username, self.password, self.host, self.port,
                         path, self.query, self.fragment)  # fmt: skip

    def shorten_path(self) -> None:
        """Shorten a URL's path (§4.2)."""
        path = self.path
        assert isinstance(path, list)
        if self.scheme == "file" and len(path) == 1 and is_normalized_windows_drive_letter(path[0]):
            return
        if path:
            path.pop()


def is_windows_drive_letter(text: str) -> bool:
    """A Windows drive letter (§4.2): an ASCII alpha and ":" or "|"."""
    return len(text) == 2 and text[0].isascii() and text[0].isalpha() and text[1] in ":|"


def is_normalized_windows_drive_letter(text: str) -> bool:
    """A normalized Windows drive letter (§4.2): an ASCII alpha and ":"."""
    return is_windows_drive_letter(text) and text[1] == ":"


def starts_with_windows_drive_letter(text: str) -> bool:
    """Whether ``text`` starts with a Windows drive letter (§4.2)."""
    return (
        len(text) >= 2
        and is_windows_drive_letter(text[:2])
        and (len(text) == 2 or text[2] in "/\\?#")
    )


def path_serializer(url: URLRecord) -> str:
    """The URL path serializer (§4.5)."""
    if isinstance(url.path, str):
        return url.path
    return "".join("/" + segment for segment in url.path)


def serialize(url: URLRecord, exclude_fragment: bool = False) -> str:
    """The URL serializer (§4.5)."""
    output = [url.scheme, ":"]
    if url.host is not None:
        output.append("//")
        if url.includes_credentials:
            output.append(url.username)
            if url.password != "":
                output.append(":" + url.password)
            output.append("@")
        output.append(host_serializer(url.host))
        if url.port is not None:
            output.append(f":{url.port}")
    elif not isinstance(url.path, str) and len(url.path) > 1 and url.path[0] == "":
        output.append("/.")
    output.append(path_serializer(url))
    if url.query is not None:
        output.append("?" + url.query)
    if not exclude_fragment and url.fragment is not None:
        output.append("#" + url.fragment)
    return "".join(output)
