"""The quick screen of :func:`urikit.audit`: references on which no check can fire.

Most URLs are plain: ASCII, a host name of letters, digits, hyphens and
underscores, no userinfo or a plain user name, a scheme that runs no script
and wraps no URL, and no percent-encoding of concern.  :func:`screen` proves
from a strict parse that every check of :mod:`urikit.security` would find
nothing in such a reference, so that :func:`~urikit.security.audit` can skip
them; it is a fast path, and ``tests/test_security_screen.py`` holds it to
:func:`~urikit.security.audit.full_audit` (every check run) on real, generated
and mutated URLs.

Why each check stays silent when :func:`screen` says :data:`QUIET`:

* ``invalid`` and every repair: the text is a URI reference (RFC 3986 §4.1);
* ``invisible-character``, ``mixed-script-host``: the text is ASCII;
* ``encoded-control``, ``invalid-utf8``, ``encoded-dot-segment``: no triplet of
  a control, of an octet above 0x7F or of ".", "/", "\\" or "%" (§2.1), and no
  "." in a query with a triplet; else these checks are run on their own
  (:data:`ENCODED`);
* ``password``, ``misleading-userinfo``: no userinfo, or a user name without a
  password that the userinfo check itself passes (§3.2.1, §7.5, §7.6);
* ``ipv4-rare-format``, ``internal-address``, ``obfuscated-host``, ``long-host``: the
  host is a plain name of at most 1,024 characters
  (:data:`~urikit.security.differential.PLAIN_NAME`: no "%", and its
  last label begins with a letter, so that it is no IPv4address and has no
  inet_aton() reading), no ``xn--`` label, and not a name of the local host
  (RFC 6761 §6.3); or the empty host of a ``file:`` URL (RFC 8089 §2);
* ``unusual-port``: the port check itself is run, on the port alone (§7.2);
* ``active-content-scheme``, a wrapped URL: the scheme is none of those;
* ``parser-differential``: the conditions of
  :func:`~urikit.security.differential.agree` hold.
"""

from __future__ import annotations

import re
import sys
from typing import Final

from ..grammar import ALPHA, DIGIT
from ..report import Report
from ..schemes import DEFAULT_REGISTRY, SchemeRegistry
from .active import LOCAL_CONTENT_SCHEMES, SCRIPT_SCHEMES
from .bounds import MAX_HOST
from .checks import check_octets, check_port, check_userinfo
from .differential import PLAIN_NAME, PLAIN_USER, SPECIAL_SCHEMES
from .findings import Reference, identity

__all__ = ["ENCODED", "LOUD", "PLAIN_HEAD", "QUIET", "is_quiet", "screen"]

#: Schemes that a check looks at by name: script and local content, and ``data:``
#: (its media type).
_LOUD: Final = SCRIPT_SCHEMES | LOCAL_CONTENT_SCHEMES | {"data"}
#: Each scheme name met, as written, and its lower case when it is quiet in the
#: default registry, or "" when it is not.
_DEFAULT_QUIET: dict[str, str] = {}
_CACHE_LIMIT: Final = 4096
_PORT_DIGITS: Final = 5
_PLAIN_NAME_MATCH: Final = PLAIN_NAME.fullmatch
_PLAIN_USER_MATCH: Final = PLAIN_USER.fullmatch
#: A triplet that a check of octets looks at (RFC 3986 §7.2, §7.3): a control
#: (``%00``-``%1F``, ``%7F``), an octet of a multi-octet UTF-8 sequence or none
#: (``%80``-``%FF``), an encoded "." (``%2E``), "/" (``%2F``), "\\" (``%5C``) or
#: "%" (``%25``, double encoding).  Without one, no percent-decoding of the text
#: makes a control or invalid UTF-8, and no path segment decodes to "." or "..";
#: a query part is split at "/" only once decoded, so a query with a "." is checked.
_OCTET_OF_CONCERN: Final = re.compile(
    "%(?:[01][0-9A-Fa-f]|7[Ff]|[89A-Fa-f][0-9A-Fa-f]|2[5EeFf]|5[Cc])"
).search


def _quiet_scheme(scheme: str, registry: SchemeRegistry) -> bool:
    """Is ``scheme`` (lower case) one that no check looks at by name?"""
    if scheme in _LOUD or scheme.endswith("+unix"):
        return False
    known = registry.get(scheme)
    return known is None or known.wraps_uri is None


#: The schemes of most URLs, which :data:`PLAIN_HEAD` names itself (those of them
#: that are quiet in the default registry); the others are screened by :func:`screen`.
_COMMON_SCHEMES: Final = ("https", "http", "wss", "ws", "ftp", "file", "git", "ssh", "sftp")
#: Possessive where the ``re`` module has it (Python 3.11): a label is taken whole.
_TAKEN: Final = "+" if sys.version_info >= (3, 11) else ""
#: The beginning of most URLs, matched on a text that is a URI (so ASCII): a scheme
#: of ``_COMMON_SCHEMES`` (in any case, §3.1), "//" and an authority that is a plain
#: name (``PLAIN_NAME`` of at most 128 labels, as any name that DNS resolves)
#: not ending in "localhost", without userinfo or port; what follows it is the path,
#: the query or the fragment, or nothing (§3.2, §3.3).
#: When it matches a text without "%" and without "--" (so without ``xn--`` label),
#: :func:`screen` says ``QUIET`` in the default registry: so
#: :func:`~urikit.security.audit` tries it first, with one match and no other call.
#: A plain name's labels end at "." and its last at a delimiter: one pass decides.
PLAIN_HEAD: Final = re.compile(
    "(?i:"
    + "|".join(name for name in _COMMON_SCHEMES if _quiet_scheme(name, DEFAULT_REGISTRY))
    + f")://(?:[{ALPHA}{DIGIT}_-]+{_TAKEN}\\.){{0,127}}{_TAKEN}"
    + f"[{ALPHA}][{ALPHA}{DIGIT}_-]*{_TAKEN}"
    + "(?<![Ll][Oo][Cc][Aa][Ll][Hh][Oo][Ss][Tt])(?![^/?#])",
    re.ASCII,
).match


def is_quiet(text: str, ref: Reference, registry: SchemeRegistry = DEFAULT_REGISTRY) -> bool:
    """Is ``ref``, the strict parse of ``text``, a reference on which no check of
    :func:`~urikit.security.audit` can fire?  False says nothing: the checks run."""
    verdict = screen(text, ref, registry)
    if verdict is not ENCODED:
        return verdict is QUIET
    findings: list[Report] = []
    check_octets(ref, findings, identity)
    return not findings


#: What :func:`screen` proves: nothing can fire; only the checks of percent-encoded
#: octets can; or nothing at all.
QUIET: Final = "quiet"
ENCODED: Final = "encoded"
LOUD: Final = "loud"


def screen(text: str, ref: Reference, registry: SchemeRegistry = DEFAULT_REGISTRY) -> str:
    """:data:`QUIET` when no check can fire on ``ref``, the strict parse of ``text``;
    :data:`ENCODED` when only the checks of percent-encoded octets outside the host
    can (RFC 3986 §7.2, §7.3); :data:`LOUD` when the screen proves nothing."""
    if not text.isascii():
        return LOUD
    scheme = ref.scheme
    lowered: str | None = ""
    if scheme is not None:
        lowered = _DEFAULT_QUIET.get(scheme) if registry is DEFAULT_REGISTRY else None
        if lowered is None:
            lowered = scheme.lower()
            if not _quiet_scheme(lowered, registry):
                lowered = ""
            if registry is DEFAULT_REGISTRY and len(_DEFAULT_QUIET) < _CACHE_LIMIT:
                _DEFAULT_QUIET[scheme] = lowered
        if not lowered:
            return LOUD
    verdict = QUIET
    if "%" in text and (_OCTET_OF_CONCERN(text) is not None or "." in (ref.query or "")):
        verdict = ENCODED  # a query part may hold "/../" around a triplet
    host = ref.host
    if host is None:
        # no authority: WHATWG parsers read one in any special URL (URL Standard §4.4)
        return LOUD if lowered in SPECIAL_SCHEMES else verdict
    port = ref.port
    if lowered == "file":
        if port is not None or ref.userinfo is not None:
            return LOUD  # a file: URL has no port to WHATWG parsers ("file://C:/" is a drive)
        if host == "":
            return verdict  # the local host (RFC 8089 §2)
    # a plain name is no IPv4address (its last label begins with a letter) and holds no "%";
    # a long host is read in part by the checks (bounds.py)
    if len(host) > MAX_HOST or _PLAIN_NAME_MATCH(host) is None:
        return LOUD
    name = host.lower()
    # "localhost" and the names under it (RFC 6761 §6.3); a plain name ends in no "."
    if "xn--" in name or name.endswith("localhost"):
        return LOUD
    userinfo = ref.userinfo
    if userinfo is not None:
        if _PLAIN_USER_MATCH(userinfo) is None:
            return LOUD
        findings: list[Report] = []
        check_userinfo(userinfo, (0, 0), host, registry, findings, identity)
        if findings:
            return LOUD
    if port:
        if len(port) > _PORT_DIGITS:
            return LOUD  # as agree() has it
        found: list[Report] = []
        check_port(ref, registry, found, identity)
        if found:
            return LOUD
    return verdict
