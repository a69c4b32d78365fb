"""The numbers the readable Python and the compiled core share.

``Group`` numbers the components of a reference: the group of each component in
``Grammar.reference`` (RFC 3986 Appendix B numbers the same components in another order)
and the slot of its end in the compiled store.
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["Group"]


class Group(IntEnum):
    """A component's number (0 is the whole text), RFC 3986 §3."""

    TEXT = 0
    SCHEME = 1
    AUTHORITY = 2
    USERINFO = 3
    HOST = 4
    PORT = 5
    PATH = 6
    QUERY = 7
    FRAGMENT = 8
