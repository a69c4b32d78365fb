"""Multi-host connection strings: the libpq and MongoDB profiles of a URI.

``postgresql://u:p@h1:5432,h2:5433/db?sslmode=require`` and
``mongodb://a,b:27018/admin?replicaSet=rs`` name several hosts, each with its
own port.  RFC 3986 has one host and one port in an authority (§3.2): a comma
may stand in a reg-name (it is a sub-delim, §3.2.2) but not in a port
(``port = *DIGIT``, §3.2.3), so these strings are outside the generic syntax.
:func:`parse_dsn` reads them by a named profile, each piece by its RFC 3986
rule:

* ``postgresql`` (schemes ``postgresql`` and ``postgres``): the connection URIs
  of libpq ("Connection URIs", PostgreSQL documentation §32.1.1.2);
* ``mongodb`` and ``mongodb+srv``: the MongoDB Connection String Specification,
  and its Initial DNS Seedlist Discovery for ``mongodb+srv``.

The value is a :class:`DSN`; its ``repr`` and ``str`` mask the password (RFC
3986 §7.5), and :attr:`DSN.text` is the string as given.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Final, Literal, NamedTuple

from .errors import URIError
from .host import parse_host
from .percent import percent_decode
from .validate import check

__all__ = ["DSN", "PROFILES", "DSNHost", "Profile", "parse_dsn"]

#: The profile of a connection string.
Profile = Literal["postgresql", "mongodb", "mongodb+srv"]

#: Each scheme :func:`parse_dsn` reads, and its profile.
PROFILES: Final[Mapping[str, Profile]] = MappingProxyType(
    {
        "postgresql": "postgresql",
        "postgres": "postgresql",
        "mongodb": "mongodb",
        "mongodb+srv": "mongodb+srv",
    }
)

#: The connection parameters of libpq that :class:`DSN` holds as fields.
_PG_FIELDS: Final = frozenset({"host", "port", "user", "password", "dbname"})
#: MongoDB forbids these in a database name once decoded (Connection String Spec,
#: "Auth Database").
_MONGO_DB_FORBIDDEN: Final = frozenset('/\\ "$')
_MASK: Final = "***"


def _is_secret(name: str) -> bool:
    """Does the option ``name`` carry a secret that ``repr`` and ``str`` mask?  libpq's
    ``password`` and ``sslpassword``, MongoDB's ``tlsCertificateKeyFilePassword`` and
    ``authMechanismProperties`` (which can hold ``AWS_SESSION_TOKEN``), and any
    name with "password", "secret" or "token" in it."""
    lowered = name.lower()
    return lowered == "authmechanismproperties" or any(
        word in lowered for word in ("password", "secret", "token")
    )


class DSNHost(NamedTuple):
    """One host of a connection string and its port (``None``: the default port)."""

    host: str
    port: int | None

    @property
    def is_socket(self) -> bool:
        """Is the host a Unix-domain socket: a path (``/run/postgresql``,
        ``/tmp/mongodb-27017.sock``), libpq's abstract namespace (``@name``), or
        libpq's empty host, which means the default socket directory?"""
        return not self.host or self.host[0] in "/@"


class DSN:
    """A connection string read by :func:`parse_dsn`.

    ``scheme`` as written; ``profile``: ``"postgresql"``, ``"mongodb"`` or
    ``"mongodb+srv"``; ``hosts``: a tuple of :class:`DSNHost` (host names and
    addresses without brackets, percent-decoded); ``user``, ``password`` and
    ``database`` decoded, ``None`` when not given; ``options``: the query
    parameters, decoded, the last value of each name (MongoDB names in lower
    case, as its keys compare without regard to case); ``option_items``: every
    parameter in order, as decoded.  ``text`` is the string as given;
    ``repr()`` and ``str()`` mask the password and the secret options.
    ``DSN(text)`` reads ``text`` as :func:`parse_dsn` does.
    """

    __slots__ = (
        "_spans",
        "database",
        "hosts",
        "option_items",
        "options",
        "password",
        "profile",
        "scheme",
        "text",
        "user",
    )

    scheme: str
    profile: Profile
    hosts: tuple[DSNHost, ...]
    user: str | None
    password: str | None
    database: str | None
    options: Mapping[str, str]
    option_items: tuple[tuple[str, str], ...]
    text: str
    _spans: tuple[tuple[int, int], ...]

    def __new__(cls, text: str) -> DSN:
        """``DSN(text)`` is :func:`parse_dsn` ``(text)``."""
        return parse_dsn(text)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a DSN is immutable")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DSN):
            return self.text == other.text
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)

    def redacted(self, mask: str = _MASK) -> str:
        """The text with the password and the values of secret options masked (§7.5)."""
        text = self.text
        for start, end in reversed(self._spans):
            text = text[:start] + mask + text[end:]
        return text

    def __str__(self) -> str:
        return self.redacted()

    def __repr__(self) -> str:
        return f"DSN({self.redacted()!r})"

    def __reduce__(self) -> tuple[object, ...]:
        return (parse_dsn, (self.text,))


# --- reading ----------------------------------------------------------------------------


def _piece(text: str, start: int, end: int, rule: str) -> str:
    """``text[start:end]`` checked against the RFC 3986 ``rule``; an error points into
    ``text``."""
    piece = text[start:end]
    try:
        check(piece, rule)
    except URIError as error:
        raise URIError(
            error.reason,
            text=text,
            position=start + (error.position or 0),
            rule=error.rule,
        ) from None
    return piece


def _decoded(text: str, start: int, end: int, rule: str) -> str:
    try:
        value = percent_decode(text[start:end])
    except URIError as error:
        raise URIError(error.reason, text=text, position=start, rule=rule) from None
    if "\x00" in value:
        raise URIError("a percent-encoded NUL (%00)", text=text, position=start, rule=rule)
    return value


def _fail(text: str, position: int, rule: str, reason: str) -> URIError:
    return URIError(reason, text=text, position=position, rule=rule)


def _port(text: str, start: int, end: int, profile: Profile) -> int | None:
    digits = _piece(text, start, end, "port")
    if not digits:
        if profile != "postgresql":
            raise _fail(text, start, "port", "an empty port (MongoDB Connection String Spec, Port)")
        return None
    number = int(digits) if len(digits) <= 6 else 1 << 17
    if not 1 <= number <= 65535:
        raise _fail(
            text, start, "port", f"the port {digits} is not from 1 to 65535 (RFC 9293 §3.1)"
        )
    return number


def _hosts(text: str, start: int, end: int, profile: Profile) -> Iterator[tuple[DSNHost, int]]:
    """The comma-separated hosts of ``text[start:end]``, each ``[IPv6]``, an IPv4address
    or a reg-name, with an optional ``:port``, and where each begins."""
    at = start
    while True:
        if text.startswith("[", at):
            close = text.find("]", at, end)
            if close < 0:
                raise _fail(
                    text, end, "IP-literal", 'no "]" closes the IP-literal (RFC 3986 §3.2.2)'
                )
            host_end = close + 1
            _piece(text, at, host_end, "IP-literal")
            literal = parse_host(text[at:host_end])
            host = literal.address
            if literal.zone is not None:  # RFC 6874 §2, written as RFC 4007 §11 writes it
                host += "%" + _decoded(text, close - len(literal.zone), close, "ZoneID")
        else:
            host_end = at
            while host_end < end and text[host_end] not in ":,":
                host_end += 1
            _piece(text, at, host_end, "host")
            host = _decoded(text, at, host_end, "host")
        stop = text.find(",", host_end, end)
        stop = end if stop < 0 else stop
        if host_end < stop and text[host_end] != ":":
            raise _fail(text, host_end, "host", 'expected ":", "," or the end of the hosts')
        port = _port(text, host_end + 1, stop, profile) if host_end < stop else None
        yield DSNHost(host, port), at
        if stop == end:
            return
        at = stop + 1


def _check_host(text: str, at: int, host: DSNHost, profile: Profile, literal: bool) -> None:
    if profile == "postgresql":
        return  # libpq: an empty host is the default socket directory; any name is tried
    if not host.host:
        raise _fail(text, at, "host", "an empty host (MongoDB Connection String Spec, Host)")
    if (
        "/" in host.host
        and not literal
        and (profile == "mongodb+srv" or not host.host.endswith(".sock"))
    ):
        raise _fail(
            text,
            at,
            "host",
            "a percent-encoded path that is not a Unix-domain socket ending in "
            '".sock" (MongoDB Connection String Spec, Host)',
        )
    if profile == "mongodb+srv" and (literal or host.port is not None):
        raise _fail(
            text,
            at,
            "host",
            "mongodb+srv takes one host name and no port (Initial DNS Seedlist Discovery)",
        )


def _options(
    text: str, start: int, profile: Profile, secrets: list[tuple[int, int]]
) -> list[tuple[str, str, int]]:
    """The ``name=value`` pairs of the query ``text[start:]``, decoded, with where each
    value begins.  An empty query has none; libpq also ends one at a final "&"."""
    _piece(text, start, len(text), "query")
    pairs: list[tuple[str, str, int]] = []
    at = start
    while at < len(text):
        stop = text.find("&", at)
        stop = len(text) if stop < 0 else stop
        if stop + 1 == len(text) and profile == "postgresql":
            pass  # libpq reads "a=1&" as "a=1"
        equals = text.find("=", at, stop)
        if equals < 0:
            raise _fail(text, at, "query", 'a parameter without "=" (name=value)')
        if profile == "postgresql" and text.find("=", equals + 1, stop) >= 0:
            raise _fail(
                text,
                text.find("=", equals + 1, stop),
                "query",
                'a second "=" in a parameter (libpq)',
            )
        name = _decoded(text, at, equals, "query")
        value = _decoded(text, equals + 1, stop, "query")
        if not name:
            raise _fail(text, at, "query", "a parameter without a name")
        if _is_secret(name) and equals + 1 < stop:
            secrets.append((equals + 1, stop))
        pairs.append((name, value, equals + 1))
        at = stop + 1
        if at == len(text) and profile != "postgresql":
            raise _fail(text, at, "query", 'a final "&" (MongoDB Connection String Spec)')
    return pairs


def parse_dsn(text: str) -> DSN:
    """Read a libpq or MongoDB connection string (see the module docstring).

    Each piece is checked by its RFC 3986 rule (``userinfo``, ``host``, ``port``,
    the path, ``query``) and percent-decoded (§2.1); hosts are separated by
    commas, each with its own port.  By profile:

    * ``postgresql``: an empty host, or none, means the default Unix-domain
      socket, and a host that decodes to a path (``%2Fvar%2Frun``) a socket
      directory; the query parameters ``host``, ``port``, ``user``,
      ``password`` and ``dbname`` take the place of what the URI gives (one
      port serves every host, else one each); ``ssl=true`` is ``sslmode=require``.
    * ``mongodb``: at least one host, each port from 1 to 65535, a socket as a
      percent-encoded path ending in ``.sock``; the database name holds none of
      ``/\\ "$``; option names compare in lower case.
    * ``mongodb+srv``: exactly one host name, without a port.

    Anything else raises :class:`~urikit.URIError` with the position, the rule
    and the reason.

    >>> dsn = parse_dsn("postgresql://u:secret@h1:5432,h2:5433/db?sslmode=require")
    >>> dsn.hosts, dsn.database, dsn.options["sslmode"]
    ((DSNHost(host='h1', port=5432), DSNHost(host='h2', port=5433)), 'db', 'require')
    >>> dsn
    DSN('postgresql://u:***@h1:5432,h2:5433/db?sslmode=require')
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_dsn() takes a str, not {type(text).__name__}")
    marker = text.find("://")
    scheme = text[:marker] if marker > 0 else ""
    profile = PROFILES.get(scheme.lower())
    if profile is None:
        known = ", ".join(sorted(PROFILES))
        raise _fail(text, 0, "scheme", f"a connection string begins with one of {known} and '://'")
    start = marker + 3
    end = start
    while end < len(text) and text[end] not in "/?":
        end += 1
    secrets: list[tuple[int, int]] = []
    user: str | None = None
    password: str | None = None
    at_sign = text.rfind("@", start, end)
    host_start = start
    if at_sign >= 0:
        _piece(text, start, at_sign, "userinfo")
        colon = text.find(":", start, at_sign)
        user_end = at_sign if colon < 0 else colon
        user = _decoded(text, start, user_end, "userinfo")
        if colon >= 0:
            if profile != "postgresql" and text.find(":", colon + 1, at_sign) >= 0:
                raise _fail(
                    text,
                    text.find(":", colon + 1, at_sign),
                    "userinfo",
                    'a second ":" in the userinfo: percent-encode it '
                    "(MongoDB Connection String Spec, Userinfo)",
                )
            password = _decoded(text, colon + 1, at_sign, "userinfo")
            if colon + 1 < at_sign:
                secrets.append((colon + 1, at_sign))
        if profile == "postgresql":
            user, password = user or None, password or None  # libpq sets no empty value
        elif not user:
            raise _fail(
                text, start, "userinfo", "an empty user name (MongoDB Connection String Spec)"
            )
        host_start = at_sign + 1
    hosts: list[DSNHost] = []
    if host_start < end or profile != "postgresql":
        if host_start == end:
            raise _fail(
                text,
                end,
                "host",
                "no host (MongoDB Connection String Spec, Host Information); a Unix-domain "
                'socket is written percent-encoded, as "%2Ftmp%2Fmongodb-27017.sock"',
            )
        for host, at in _hosts(text, host_start, end, profile):
            _check_host(text, at, host, profile, text.startswith("[", at))
            hosts.append(host)
        if profile == "postgresql" and hosts == [DSNHost("", None)]:
            hosts = []
    if profile == "mongodb+srv" and len(hosts) != 1:
        raise _fail(
            text,
            host_start,
            "host",
            "mongodb+srv takes exactly one host (Initial DNS Seedlist Discovery)",
        )
    database: str | None = None
    query = len(text)
    if end < len(text) and text[end] == "/":
        query = text.find("?", end)
        query = len(text) if query < 0 else query
        if profile == "postgresql":
            _piece(text, end, query, "path-abempty")
        else:
            _piece(text, end + 1, query, "segment")
        database = _decoded(text, end + 1, query, "path") or None
        if database is not None and profile != "postgresql":
            bad = next((c for c in database if c in _MONGO_DB_FORBIDDEN), None)
            if bad is not None:
                raise _fail(
                    text,
                    end + 1,
                    "path",
                    f"the database name holds {bad!r} "
                    "(MongoDB Connection String Spec, Auth Database)",
                )
    else:
        query = end
    found: list[tuple[str, str, int]] = []
    if query < len(text):
        found = _options(text, query + 1, profile, secrets)
    items = [(name, value) for name, value, _ in found]
    options: dict[str, str] = {}
    for name, value in items:
        options[name.lower() if profile != "postgresql" else name] = value
    if profile == "postgresql":
        where = {name: at for name, _, at in found}
        user, password, database, hosts = _libpq_fields(
            text, options, where, user, password, database, hosts
        )
    dsn = object.__new__(DSN)
    fields: dict[str, object] = {
        "scheme": scheme,
        "profile": profile,
        "hosts": tuple(hosts),
        "user": user,
        "password": password,
        "database": database,
        "options": MappingProxyType(options),
        "option_items": tuple(items),
        "text": text,
        "_spans": tuple(sorted(secrets)),
    }
    for field, content in fields.items():
        object.__setattr__(dsn, field, content)
    return dsn


def _libpq_fields(
    text: str,
    options: dict[str, str],
    where: dict[str, int],
    user: str | None,
    password: str | None,
    database: str | None,
    hosts: list[DSNHost],
) -> tuple[str | None, str | None, str | None, list[DSNHost]]:
    """libpq's reading of the parameters that name what the URI's parts name: a query
    parameter takes the place of the part, and ``ssl=true`` means ``sslmode=require``."""
    if options.get("ssl") == "true":
        del options["ssl"]
        options["sslmode"] = "require"
    user = options.pop("user", user) or None
    password = options.pop("password", password) or None
    database = options.pop("dbname", database) or None
    names = [h.host for h in hosts]
    ports: list[int | None] = [h.port for h in hosts]
    if "host" in options:
        names = options.pop("host").split(",")
    if "port" in options:
        ports = []
        for digits in options.pop("port").split(","):
            if digits and not (digits.isascii() and digits.isdigit() and 1 <= int(digits) <= 65535):
                raise _fail(
                    text, where["port"], "port", f"the port {digits!r} is not from 1 to 65535"
                )
            ports.append(int(digits) if digits else None)
    ports = ports or [None]
    if not names:
        # a port without a host: the default socket directory, at that port
        names = [""] if ports != [None] else []
    if len(ports) == 1:
        ports = ports * len(names)
    elif len(ports) != len(names):
        raise _fail(
            text,
            where.get("port", where.get("host", 0)),
            "port",
            f"{len(ports)} ports for {len(names)} hosts (libpq takes one port, or one a host)",
        )
    return user, password, database, [DSNHost(n, p) for n, p in zip(names, ports, strict=True)]
