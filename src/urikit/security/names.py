"""Host names for the public internet: DNS name syntax, reserved names, public addresses.

RFC 3986 §3.2.2 lets a reg-name be almost any text; the DNS (RFC 1035 §2.3.1,
RFC 1123 §2.1) and IDNA (RFC 5890 §2.3.2) are stricter, and a name that is
valid in the DNS may still be one that never leads to a host on the public
internet: a single label, or a name under a special-use domain (RFC 6761).
A host that is an address, in whatever spelling a resolver or a browser reads
(RFC 3986 §7.4, WHATWG URL §3.5), is judged by :func:`~.hosts.internal_reason`.

:func:`check_host` says which of these a host fails, as a :class:`HostError`
with a :data:`HostCode`; :func:`is_dns_name`, :func:`is_public_dns_name` and
:func:`is_public_host` are its yes-or-no forms.
"""

from __future__ import annotations

import ipaddress
from typing import Final, Literal

import idna

from ..errors import URIError
from ..host import parse_host
from ..percent import percent_decode
from .hosts import internal_reason, lenient_ipv4, read_host, uts46_changes

__all__ = [
    "RESERVED_NAMES",
    "HostCode",
    "HostError",
    "check_host",
    "is_dns_name",
    "is_public_dns_name",
    "is_public_host",
    "reserved_name",
]

#: Why a host is refused: ``not-dns-name`` (its syntax), ``single-label``,
#: ``reserved-name`` (a special-use domain), ``internal-address`` (an address,
#: in any spelling, that is not public), ``not-an-address`` (an IP-literal that
#: is no IPv6 address, such as IPvFuture).
HostCode = Literal[
    "not-dns-name", "single-label", "reserved-name", "internal-address", "not-an-address"
]

#: The special-use domains whose names never lead to a host on the public
#: internet, each with the document that sets it apart.  A name is reserved when
#: it is one of them or ends with "." and one of them.
RESERVED_NAMES: Final[dict[str, str]] = {
    "localhost": "RFC 6761 §6.3 (and RFC 2606 §2): the loopback interface of the local host",
    "test": "RFC 6761 §6.2 (and RFC 2606 §2): for testing, never delegated in the DNS",
    "invalid": "RFC 6761 §6.4 (and RFC 2606 §2): guaranteed to be invalid",
    "example": "RFC 6761 §6.5 (and RFC 2606 §2): for documentation, never delegated",
    "local": "RFC 6762 §3: link-local names of Multicast DNS",
    "home.arpa": "RFC 8375 §4: names of a residential home network",
    "onion": "RFC 7686 §2: Tor onion services, which the DNS does not resolve",
    "alt": "RFC 9476 §2: names of resolution systems other than the DNS",
    "internal": "ICANN Board resolution 2024.07.29.06: for private use, never delegated",
}

#: RFC 1035 §2.3.4: a label of at most 63 octets, a name of at most 255 octets on the
#: wire, which is 253 characters of text without the final dot.
MAX_LABEL: Final = 63
MAX_NAME: Final = 253
_LDH: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")
_DIGITS: Final = frozenset("0123456789")
_HEX: Final = frozenset("0123456789abcdefABCDEF")


class HostError(URIError):
    """A host refused as a DNS name or as a host of the public internet.

    ``code`` is a :data:`HostCode`; ``address`` is the IP address the host
    means (in any spelling) for ``internal-address``, else ``None``.
    ``position`` is where the offending label starts in ``text`` (0 when the
    host was percent-encoded and the label is known only once decoded), and
    ``rule`` the rule of the host there (``reg-name``, ``IPv4address``,
    ``IP-literal``).
    """

    __slots__ = ("address", "code")

    def __init__(
        self,
        code: HostCode,
        reason: str,
        *,
        text: str,
        position: int = 0,
        rule: str = "reg-name",
        address: ipaddress.IPv4Address | ipaddress.IPv6Address | None = None,
    ) -> None:
        super().__init__(reason, text=text, position=position, rule=rule)
        self.code = code
        self.address = address

    def __reduce__(self) -> tuple[object, ...]:
        return (
            _rebuild,
            (self.code, self.reason, self.text, self.position, self.rule, self.address),
        )


def _rebuild(
    code: HostCode,
    reason: str,
    text: str,
    position: int,
    rule: str,
    address: ipaddress.IPv4Address | ipaddress.IPv6Address | None,
) -> HostError:
    return HostError(code, reason, text=text, position=position, rule=rule, address=address)


def reserved_name(name: str) -> str | None:
    """The special-use domain of :data:`RESERVED_NAMES` that ``name`` is or lies
    under (compared without regard to ASCII case, a final dot ignored), or None.

    >>> reserved_name("printer.local."), reserved_name("example.com")
    ('local', None)
    """
    name = name.lower().removesuffix(".")
    for domain in RESERVED_NAMES:
        if name == domain or name.endswith("." + domain):
            return domain
    return None


# --- the syntax of a DNS name -------------------------------------------------------


def _ends_in_a_number(label: str) -> bool:
    """WHATWG URL §3.5 "ends in a number checker", for the last label: all ASCII
    digits, or "0x"/"0X" and hexadecimal digits.  Such a name is read as an IPv4
    address by browsers (or refused), and no top-level domain is numeric
    (RFC 3696 §2, RFC 1123 §2.1)."""
    if label and _DIGITS.issuperset(label):
        return True
    return label[:2] in ("0x", "0X") and _HEX.issuperset(label[2:])


def _label_problem(label: str) -> str | None:
    """What keeps an ASCII label from being an LDH label (RFC 5890 §2.3.1, RFC 1123
    §2.1), or an ``xn--`` label from being an A-label (RFC 5890 §2.3.2.1)."""
    if not label:
        return "an empty label (RFC 1035 §2.3.1)"
    if len(label) > MAX_LABEL:
        return f"a label of {len(label)} octets, above the {MAX_LABEL} of RFC 1035 §2.3.4"
    if not _LDH.issuperset(label):
        bad = next(ch for ch in label if ch not in _LDH)
        return (
            f"the character {bad!r} in the label {label!r}: a label holds letters, "
            "digits and hyphens (RFC 1123 §2.1, RFC 5890 §2.3.1)"
        )
    if label[0] == "-" or label[-1] == "-":
        return f"the label {label!r} begins or ends with a hyphen (RFC 1123 §2.1)"
    if label[:4].lower() == "xn--":
        try:
            idna.decode(label)
        except (idna.IDNAError, UnicodeError, ValueError):
            return f"the label {label!r} is not a valid A-label (RFC 5890 §2.3.2.1)"
    return None


def _ascii_name(text: str) -> tuple[str, list[int]] | str:
    """The name ``text`` (a decoded reg-name) as ASCII labels after IDNA, with the
    position of each label in ``text``; or why it has none."""
    if text.isascii():
        ascii_text = text
    else:
        mapped, changes = uts46_changes(text)
        if changes:
            shown = ", ".join(f"{a!r} as {b!r}" for a, b in changes[:3])
            return (
                f"characters that UTS #46 maps to others ({shown}); write the name "
                "as it is resolved"
            )
        labels = []
        for label in mapped.split("."):
            if label.isascii():
                labels.append(label)
                continue
            try:
                labels.append(idna.encode(label).decode("ascii"))
            except (idna.IDNAError, UnicodeError, ValueError) as error:
                return f"the label {label!r} is not a valid IDNA label: {error} (RFC 5891 §4)"
        ascii_text = ".".join(labels)
        if ascii_text.count(".") != text.count("."):
            return "a label separator other than '.'"
    positions = []
    at = 0
    for label in text.split("."):
        positions.append(at)
        at += len(label) + 1
    return ascii_text, positions


def _dns_problem(host: str) -> tuple[str, int] | None:
    """Why the reg-name ``host`` is not a DNS host name, and the position of the fault."""
    if "%" in host:
        try:
            text = percent_decode(host)
        except ValueError:
            return "percent-encoded octets that are not UTF-8 (RFC 3986 §3.2.2)", 0
        offset_known = False
    else:
        text, offset_known = host, True
    if text.endswith(".") and len(text) > 1:
        text = text[:-1]  # the root label of a fully qualified name (RFC 1034 §3.1)
    named = _ascii_name(text)
    if isinstance(named, str):
        return named, 0
    ascii_text, positions = named
    labels = ascii_text.split(".")
    for label, position in zip(labels, positions, strict=True):
        problem = _label_problem(label)
        if problem is not None:
            return problem, position if offset_known else 0
    if len(ascii_text) > MAX_NAME:
        return (
            f"a name of {len(ascii_text)} octets, above the {MAX_NAME} of RFC 1035 §2.3.4",
            0,
        )
    if _ends_in_a_number(labels[-1]):
        return (
            f"the last label {labels[-1]!r} is a number: browsers read such a name as "
            "an IPv4 address (WHATWG URL §3.5), and no top-level domain is numeric "
            "(RFC 3696 §2)",
            positions[-1] if offset_known else 0,
        )
    return None


def is_dns_name(host: str) -> bool:
    """Is ``host`` a DNS host name?

    The host is text as a URI or IRI writes it (percent-encoded UTF-8 is
    decoded, RFC 3986 §3.2.2).  Once non-ASCII labels are converted to
    A-labels (IDNA 2008, RFC 5891 §4; only lower-casing is allowed as a
    mapping, so full-width letters and the ideographic full stop are refused),
    every label is 1 to 63 octets of ASCII letters, digits and hyphens, neither
    beginning nor ending with a hyphen (RFC 1123 §2.1); an ``xn--`` label is a
    valid A-label; the name is at most 253 octets (RFC 1035 §2.3.4) and its
    last label is not a number (RFC 3696 §2; WHATWG URL reads ``a.1`` as an
    address).  One final dot is allowed.  Single labels and reserved names are
    DNS names: :func:`is_public_dns_name` refuses them.

    >>> is_dns_name("Example.COM"), is_dns_name("b\u00fccher.example")
    (True, True)
    >>> is_dns_name("-x"), is_dns_name("a..b"), is_dns_name("a" * 64 + ".com")
    (False, False, False)
    """
    if not isinstance(host, str):
        raise TypeError(f"is_dns_name() takes a str, not {type(host).__name__}")
    return bool(host) and _dns_problem(host) is None


def is_public_dns_name(host: str) -> bool:
    """Is ``host`` a DNS name that can lead to a host on the public internet?

    It is a DNS name (:func:`is_dns_name`) of at least two labels (a single
    label is completed by a local search list, RFC 1535, and ICANN forbids
    dotless names, SAC053), not in a special-use domain of
    :data:`RESERVED_NAMES`.  Whether it resolves, and to what, is not known
    until it is resolved: judge those addresses with ``is_internal_address``.

    >>> is_public_dns_name("example.com"), is_public_dns_name("intranet")
    (True, False)
    >>> is_public_dns_name("db.internal"), is_public_dns_name("x.localhost")
    (False, False)
    """
    if not isinstance(host, str):
        raise TypeError(f"is_public_dns_name() takes a str, not {type(host).__name__}")
    name = read_host(host)
    if host.startswith("[") or (name is not None and lenient_ipv4(name) is not None):
        return False  # an address, not a name
    try:
        check_host(host, public=True)
    except HostError:
        return False
    return True


def is_public_host(host: str) -> bool:
    """Is ``host`` a public DNS name or a public IP address in any spelling?

    ``host`` is a URI's host: a reg-name, an IPv4address, or an IP-literal in
    brackets.  An address is read as browsers and inet_aton()-style resolvers
    read it (``0x7f.1``, ``2130706433``, ``%31%32%37.0.0.1``, full-width digits,
    ``[::ffff:127.0.0.1]``: RFC 3986 §7.4, WHATWG URL §3.5) and must not be
    internal (``is_internal_address``).

    >>> is_public_host("example.com"), is_public_host("93.184.215.14")
    (True, True)
    >>> is_public_host("0x7f.1"), is_public_host("[::ffff:10.0.0.1]"), is_public_host("a.local")
    (False, False, False)
    """
    try:
        check_host(host, public=True)
    except HostError:
        return False
    return True


def _address_of_literal(host: str) -> ipaddress.IPv6Address | HostError:
    literal = parse_host(host)
    zone = literal.zone
    try:
        if literal.kind != "ipv6":
            raise ValueError(literal.kind)
        parsed = ipaddress.IPv6Address(
            literal.address + ("%" + percent_decode(zone) if zone else "")
        )
    except ValueError:
        return HostError(
            "not-an-address",
            "an IP-literal that is not an IPv6 address (IPvFuture names no address "
            "a client can connect to, RFC 3986 §3.2.2)",
            text=host,
            position=0,
            rule="IP-literal",
        )
    return parsed


def _internal(
    host: str, address: ipaddress.IPv4Address | ipaddress.IPv6Address, rule: str
) -> HostError | None:
    reason = internal_reason(address)
    if reason is None:
        return None
    spelled = "" if rule == "IP-literal" or host == str(address) else f" (read as {address})"
    return HostError(
        "internal-address",
        f"the host {host!r}{spelled} is an internal address: {reason}",
        text=host,
        position=0,
        rule=rule,
        address=address,
    )


def check_host(host: str, *, public: bool = True) -> None:
    """Refuse ``host`` unless it is a DNS name or an address, public if ``public``.

    ``host`` is a URI's host (``URI.host``): a reg-name, an IPv4address or an
    IP-literal in brackets.  Raises :class:`HostError` (a
    :class:`~urikit.URIError`) with its ``code``:

    * ``not-dns-name``: a reg-name that is not a DNS name (:func:`is_dns_name`);
    * ``not-an-address``: an IP-literal that is not an IPv6 address (IPvFuture);
    * with ``public``, ``internal-address``: an address that
      ``is_internal_address`` judges internal, in any spelling that browsers
      or inet_aton()-style resolvers read (RFC 3986 §7.4, WHATWG URL §3.5):
      ``0x7f.1``, ``017700000001``, ``2130706433``, ``%31%32%37.0.0.1``,
      ``[::ffff:127.0.0.1]``, ``[fe80::1%25eth0]``;
    * with ``public``, ``single-label`` and ``reserved-name``
      (:func:`is_public_dns_name`).

    Without ``public``, an IPv4address or IPv6 literal is accepted whatever it
    is, and a reg-name must be a DNS name (so ``0x7f.1``, which is no
    IPv4address, is refused as ``not-dns-name``).
    """
    if not isinstance(host, str):
        raise TypeError(f"check_host() takes a str, not {type(host).__name__}")
    if not host:
        raise HostError("not-dns-name", "an empty host", text=host, position=0)
    if host.startswith("[") and host.endswith("]"):
        literal = _address_of_literal(host)
        if isinstance(literal, HostError):
            raise literal
        refusal = _internal(host, literal, "IP-literal") if public else None
        if refusal is not None:
            raise refusal
        return
    name = read_host(host)
    address = None if name is None else lenient_ipv4(name)
    if address is not None:
        if str(address) == host:  # an IPv4address (RFC 3986 §3.2.2)
            refusal = _internal(host, address, "IPv4address") if public else None
            if refusal is not None:
                raise refusal
            return
        if public:
            refusal = _internal(host, address, "reg-name")
            if refusal is not None:
                raise refusal
            return
    problem = _dns_problem(host)
    if problem is not None:
        reason, position = problem
        raise HostError(
            "not-dns-name",
            f"the host {host!r} is not a DNS name: {reason}",
            text=host,
            position=position,
        )
    if not public:
        return
    domain = reserved_name(name or host)
    if domain is not None:
        raise HostError(
            "reserved-name",
            f"the host {host!r} is in the special-use domain {domain!r}: {RESERVED_NAMES[domain]}",
            text=host,
            position=0,
        )
    plain = (name or host).removesuffix(".")
    if "." not in plain:
        raise HostError(
            "single-label",
            f"the host {host!r} is a single label, which a resolver completes from a "
            "local search list (RFC 1535) and ICANN keeps out of the DNS (SAC053)",
            text=host,
            position=0,
        )
