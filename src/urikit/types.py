"""The names of urikit's options and classifications, as ``Literal`` types.

Each is the set of values one parameter or property takes; ``mypy`` checks a
call against it, and the runtime checks use the same sets (``get_args``).
"""

from __future__ import annotations

from typing import Literal, TypeAlias

__all__ = [
    "Codec",
    "Component",
    "DecodeErrors",
    "Flavor",
    "HostType",
    "IdnaForm",
    "Kind",
    "Level",
    "Spec",
    "UnicodeForm",
]

#: The components of a reference (RFC 3986 §3).
Component: TypeAlias = Literal[
    "scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment"
]

#: The form of a host (RFC 3986 §3.2.2): first-match-wins tells IPv4 from a reg-name.
HostType: TypeAlias = Literal["ipv4", "ipv6", "ipvfuture", "reg-name"]

#: The form of a reference (RFC 3986 §4.1, §4.2).
Kind: TypeAlias = Literal["uri", "network-path", "absolute-path", "relative-path"]

#: The rungs of the comparison ladder that ``normalize`` climbs to (RFC 3986 §6.2.1-§6.2.3).
Level: TypeAlias = Literal["string", "syntax", "scheme"]

#: The resolution profiles: RFC 3986 §5.2 (the law) and two legacy ones.
Spec: TypeAlias = Literal["rfc3986", "rfc2396", "rfc1630"]

#: How query names and values are encoded: HTML forms ("+" is a space) or plain §2.1.
Codec: TypeAlias = Literal["form", "rfc3986"]

#: The path conventions of a ``file:`` URI's local path (RFC 8089).
Flavor: TypeAlias = Literal["posix", "windows"]

#: The codec error policies for decoded octets that are not valid text.
DecodeErrors: TypeAlias = Literal[
    "strict", "replace", "ignore", "surrogateescape", "backslashreplace"
]

#: The forms of a host name for the ``idna`` normalization step (RFC 5890 §2.3.2.1).
IdnaForm: TypeAlias = Literal["a-label", "u-label"]

#: The Unicode normalization forms for the ``unicode`` step (RFC 3987 §5.3.2.2).
UnicodeForm: TypeAlias = Literal["NFC", "NFKC"]
