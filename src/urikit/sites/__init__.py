"""Sites: public suffixes, registrable domains and same-site, by the Public Suffix List.

A *public suffix* is a name under which anyone can register names of their own:
``com``, ``co.uk``, ``github.io``.  The *registrable domain* of a host is its public
suffix and the one label before it: ``www.example.co.uk`` belongs to ``example.co.uk``,
while ``a.github.io`` and ``b.github.io`` are two registrable domains.  Two URLs are
*same site* when their schemes and registrable domains are the same (the HTML Standard).

>>> from urikit.sites import public_suffix, registrable_domain, same_site
>>> registrable_domain("www.example.co.uk"), public_suffix("www.example.co.uk")
('example.co.uk', 'co.uk')
>>> same_site("https://a.github.io/", "https://b.github.io/")
False

The list ships with urikit (``public_suffix_list.dat``, MPL 2.0), compiled into a
lookup when urikit is released; nothing is ever fetched.  :func:`default_list` says which
list it is; :meth:`SuffixList.from_file` reads a newer one.  ``docs/sites.md`` tells the
algorithm (publicsuffix.org/list/) and each choice made here.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

from .._seam import suffix_lookup
from ..errors import URIError
from ..percent import percent_decode
from ..uri import IRI, URI
from ..validate import check, is_valid
from ._compile import COUNT_MASK, Table, answer_parts, compile_rules, table_from_text
from ._rules import Section, read_rules

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

__all__ = [
    "Host",
    "Site",
    "SuffixList",
    "SuffixMatch",
    "default_list",
    "lookup",
    "named_site",
    "public_suffix",
    "registrable_domain",
    "same_site",
    "site",
]

#: A host: its text (a domain name, a reg-name, an IP address or literal), or the
#: host of a :class:`~urikit.URI` or :class:`~urikit.IRI`.
Host: TypeAlias = "str | URI | IRI"

#: A node of the lookup: its edges by label, and its four answers (``_compile``).
_Node: TypeAlias = "tuple[dict[str, _Node], int, int, int, int]"

_HEX_DIGITS = frozenset("0123456789abcdef")
_REFERENCES = (URI, IRI)

#: The URL Standard's forbidden domain code points (§3.5): a host holding one is no domain.
_forbidden = re.compile(r"[\x00-\x20#%/:<>?@\[\\\]^|\x7f]").search


def _ends_in_a_number(label: str) -> bool:
    """Is ``label``, the last of a host, a number, making the host an IPv4 address?

    The URL Standard's "ends in a number checker" (§3.5): ASCII digits, or "0x"
    and hexadecimal digits.  No top-level domain is a number (RFC 1123 §2.1), so
    such a host has no public suffix.
    """
    if label.isascii() and label.isdigit():
        return True
    return label[:2] == "0x" and _HEX_DIGITS.issuperset(label[2:])


def _text(host: Host) -> str | None:
    """The text of ``host``: itself, or the host of a URI or IRI (None if it has none)."""
    if isinstance(host, _REFERENCES):
        return host.host
    if isinstance(host, str):
        return host
    raise TypeError(f"a host is a str, URI or IRI, not {type(host).__name__}")


def _read(text: str | None) -> tuple[list[str], str] | None:
    """The labels of the domain the host ``text`` names, in lower case, and its trailing dot.

    ``None`` when ``text`` names no domain: no host or an empty one; percent-encoding
    that is not UTF-8; a forbidden domain code point of the URL Standard (§3.5), among
    them the brackets of an IP literal and the ":" of an IPv6 address; an empty label
    (a leading dot, ``..``); a last label that is a number (an IPv4 address).
    Percent-encoded octets are decoded first (RFC 3986 §3.2.2), so ``%2E`` separates
    labels as "." does.
    """
    if not text:
        return None
    if "%" in text:
        try:
            text = percent_decode(text)
        except URIError:
            return None
    if _forbidden(text) is not None:
        return None
    name = text.lower()
    trailing = ""
    if name[-1:] == ".":
        name, trailing = name[:-1], "."
    labels = name.split(".")
    if "" in labels or _ends_in_a_number(labels[-1]):
        return None
    return labels, trailing


@dataclass(frozen=True, slots=True)
class SuffixMatch:
    """What the list says of a domain: its public suffix and the rule that decided it.

    ``domain`` is the host as read (lower case, percent-decoded, with its trailing dot);
    ``registrable_domain`` is ``None`` when the domain is a public suffix itself.
    ``rule`` is the prevailing rule, written with the domain's labels (``co.uk``,
    ``*.ck`` for a wildcard rule, ``!www.ck`` for an exception, ``*`` for the implicit
    rule of a top-level domain the list does not name), and ``section`` the section of
    the list it is in, ``"icann"`` or ``"private"``, or ``None`` for the implicit rule.
    """

    domain: str
    public_suffix: str
    registrable_domain: str | None
    rule: str
    section: Section | None

    @property
    def implicit(self) -> bool:
        """Is the prevailing rule the implicit ``*`` (a top-level domain not listed)?"""
        return self.section is None


class Site(NamedTuple):
    """A site (HTML Standard §7.1.1.1, "obtain a site"): a scheme and the registrable
    domain of a host, or the host itself when it has none (an IP address, a public
    suffix).  The host is written as origins write it (RFC 6454 §4: lower case, IDNA
    A-labels).  ``scheme`` is ``None`` for a schemeless site, which holds a host on
    any scheme ("schemelessly same site")."""

    scheme: str | None
    host: str

    def includes(self, other: Site | None) -> bool:
        """Is ``other`` this site, or, for a schemeless site, this site on some scheme?

        >>> Site(None, "example.com").includes(Site("https", "example.com"))
        True
        >>> Site("https", "example.com").includes(Site("http", "example.com"))
        False
        """
        return (
            other is not None
            and other.host == self.host
            and (self.scheme is None or other.scheme == self.scheme)
        )


def _tree(table: Table) -> _Node:
    """The nodes of ``table`` as nested dictionaries, the root returned."""
    start, labels, targets, values = (
        table.edge_start,
        table.edge_labels,
        table.edge_targets,
        table.values,
    )
    leaf: dict[str, _Node] = {}  # shared by every node without edges, and never changed
    nodes: list[_Node] = []
    # Edges lead to higher numbers, so the nodes are made from the last one back.
    for index in range(len(start) - 2, -1, -1):
        first, end = start[index], start[index + 1]
        edges = (
            {labels[e]: nodes[len(start) - 2 - targets[e]] for e in range(first, end)}
            if end > first
            else leaf
        )
        v = 4 * index
        nodes.append((edges, values[v], values[v + 1], values[v + 2], values[v + 3]))
    return nodes[-1]


class SuffixList:
    """A Public Suffix List, compiled for lookup.

    :func:`default_list` is the list that ships with urikit; ``from_text`` and
    ``from_file`` read another.  Every method takes ``private``: with ``True`` (the
    default, as browsers read the list) the rules of the list's private section
    count, with ``False`` only those of its ICANN section.
    """

    __slots__ = ("_find_in_c", "_root", "commit", "version")

    def __init__(self, table: Table) -> None:
        """The list compiled as ``table``; use :meth:`from_text` or :meth:`from_file`."""
        self._root: _Node = _tree(table)
        #: With the compiled core, the lookup in C of an ASCII host (``_c/sites.c``).
        self._find_in_c: Callable[[str, bool, int], Any] | None = suffix_lookup(
            table.edge_start, table.edge_labels, table.edge_targets, table.values
        )
        #: The list's ``VERSION`` and ``COMMIT``, as its header names them, or None.
        self.version: str | None = table.version
        self.commit: str | None = table.commit

    @classmethod
    def from_text(cls, text: str) -> SuffixList:
        """The list whose text is ``text`` (the format of ``public_suffix_list.dat``).

        A rule the algorithm cannot read (an empty label, a ``*`` that is not the whole
        leftmost label, an exception of one label) raises :class:`ValueError`.
        """
        return cls(compile_rules(read_rules(text)))

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> SuffixList:
        """The list in the UTF-8 file at ``path``, such as a newer ``public_suffix_list.dat``."""
        with open(path, "rb") as file:
            return cls.from_text(file.read().decode("utf-8"))

    def __repr__(self) -> str:
        return f"<SuffixList version={self.version!r}>"

    def _answer(self, labels: Sequence[str], private: bool) -> int:
        """The answer of the node the labels lead to (``_compile``), read from the right."""
        node = self._root
        for label in reversed(labels):
            child = node[0].get(label)
            if child is None:
                return node[2] if private else node[4]
            node = child
        return node[1] if private else node[3]

    def _last_labels(self, text: str | None, private: bool, extra: int) -> str | None:
        """The last ``count + extra`` labels of the host ``text`` (``count`` those of its
        public suffix), with its trailing dot; None if it names no domain or has fewer.

        The compiled core answers an ASCII host in C (``_c/sites.c``), as this
        does; the public methods ask it first.
        """
        read = _read(text)
        if read is None:
            return None
        labels, trailing = read
        count = (self._answer(labels, private) & COUNT_MASK) + extra
        return ".".join(labels[-count:]) + trailing if len(labels) >= count else None

    def public_suffix(self, host: Host, *, private: bool = True) -> str | None:
        """The public suffix of ``host``: the labels of the prevailing rule.

        ``None`` when ``host`` names no domain (an IP address, an empty host, an empty
        label).  A trailing dot is kept: ``example.com.`` has ``com.``.

        >>> default_list().public_suffix("www.example.co.uk")
        'co.uk'
        """
        text = host if type(host) is str else _text(host)
        if self._find_in_c is not None and text is not None:
            found = self._find_in_c(text, private, 0)
            if found is not NotImplemented:
                return found  # type: ignore[no-any-return]
        return self._last_labels(text, private, 0)

    def registrable_domain(self, host: Host, *, private: bool = True) -> str | None:
        """The registrable domain of ``host``: its public suffix and one label more.

        ``None`` when ``host`` is a public suffix itself or names no domain.

        >>> default_list().registrable_domain("www.example.co.uk")
        'example.co.uk'
        """
        text = host if type(host) is str else _text(host)
        if self._find_in_c is not None and text is not None:
            found = self._find_in_c(text, private, 1)
            if found is not NotImplemented:
                return found  # type: ignore[no-any-return]
        return self._last_labels(text, private, 1)

    def lookup(self, host: Host, *, private: bool = True) -> SuffixMatch | None:
        """The public suffix and registrable domain of ``host`` and the rule that decided.

        >>> default_list().lookup("a.github.io")
        SuffixMatch(domain='a.github.io', public_suffix='github.io', \
registrable_domain='a.github.io', rule='github.io', section='private')
        """
        read = _read(_text(host))
        if read is None:
            return None
        labels, trailing = read
        count, kind, section = answer_parts(self._answer(labels, private))
        domain = ".".join(labels) + trailing
        public = ".".join(labels[-count:]) + trailing
        registrable = ".".join(labels[-count - 1 :]) + trailing if len(labels) > count else None
        if kind == "normal":
            rule = ".".join(labels[-count:])
        elif kind == "wildcard":
            rule = ".".join(["*", *labels[len(labels) - count + 1 :]])
        elif kind == "exception":
            rule = "!" + ".".join(labels[-count - 1 :])
        elif kind == "wildcard exception":
            rule = "!*." + ".".join(labels[-count:])
        elif kind == "wildcard parent":
            rule = "*." + ".".join(labels[-count:])
        else:
            rule = "*"
        return SuffixMatch(domain, public, registrable, rule, section)

    def site(
        self, uri: URI | IRI | str, *, schemeful: bool = True, private: bool = True
    ) -> Site | None:
        """The site of ``uri`` (HTML Standard §7.1.1.1, "obtain a site"), or ``None``.

        The site is the scheme of the URI's origin and the registrable domain of its
        host, or the host itself when it has none (an IP address, a public suffix); hosts
        are written as origins write them (RFC 6454 §4: lower case, IDNA A-labels).  A
        URI without a scheme or a host has an opaque origin, and no site.  With
        ``schemeful=False`` the site's scheme is ``None``.  A ``str`` is read as an IRI
        reference (every URI reference is one); a text that is not one raises
        :class:`~urikit.URIError`.

        >>> default_list().site("https://WWW.Example.CO.UK:8443/a")
        Site(scheme='https', host='example.co.uk')
        """
        origin = _origin(uri)
        if origin is None:
            return None
        scheme, host = origin
        domain = self.registrable_domain(host, private=private)
        return Site(scheme if schemeful else None, host if domain is None else domain)

    def named_site(self, entry: URI | IRI | str, *, private: bool = True) -> Site:
        """The site an entry of an allow-list names: a URL's site, or a site written alone.

        * A :class:`~urikit.URI` or :class:`~urikit.IRI`, or a ``str`` with ``://``
          after its scheme, is a URL: its site (:meth:`site`, with its scheme) is
          taken, so ``https://www.example.com/`` names ``https`` on ``example.com``.
        * Any other ``str`` is a host, which names a schemeless site: a registrable
          domain (``example.co.uk``) or an IP address (``192.0.2.1``, ``[2001:db8::1]``).
          A host that is not a registrable domain itself raises
          :class:`~urikit.URIError` that says why: a name under one (``www.example.com``,
          whose site is ``example.com``), a public suffix (``co.uk``, ``github.io``,
          under which every name is another site), or text that names no domain.

        >>> default_list().named_site("example.co.uk")
        Site(scheme=None, host='example.co.uk')
        >>> default_list().named_site("https://www.example.co.uk/")
        Site(scheme='https', host='example.co.uk')
        """
        if isinstance(entry, str):
            scheme_end = entry.find("://")
            if scheme_end <= 0 or not is_valid(entry[:scheme_end], "scheme"):
                return self._host_site(entry, private)
            entry = IRI(entry)
        elif not isinstance(entry, _REFERENCES):
            raise TypeError(f"a site is named by a str, URI or IRI, not {type(entry).__name__}")
        found = self.site(entry, private=private)
        if found is None:
            raise URIError(
                "a URL names a site only with a scheme and a host (HTML Standard §7.1.1.1)",
                text=str(entry),
                position=0,
                rule="absolute-URI",
            )
        return found

    def _host_site(self, text: str, private: bool) -> Site:
        """The schemeless site of ``text``, a host that must be a registrable domain or an
        IP address (:meth:`named_site`)."""
        check(text, "ihost")  # URIError: where and why it is no host (RFC 3987 §2.2)
        origin = _origin(IRI.build(scheme="http", host=text))
        if origin is None:
            raise URIError("an empty host names no site", text=text, position=0, rule="ihost")
        host = origin[1]
        if host[0] == "[" or is_valid(host, "IPv4address"):
            return Site(None, host)
        domain = self.registrable_domain(host, private=private)
        if domain == host:
            return Site(None, host)
        if domain is not None:
            reason = (
                f"{host!r} is not a registrable domain but a host under one: its site is "
                f"{domain!r}, which holds every host under it"
            )
        elif self.public_suffix(host, private=private) is not None:
            reason = (
                f"{host!r} is a public suffix, under which each registrable domain is a site "
                "of its own: name one of them"
            )
        else:
            reason = f"{host!r} names no domain and is no IP address"
        raise URIError(reason, text=text, position=0, rule="ihost")

    def same_site(
        self, a: URI | IRI | str, b: URI | IRI | str, *, schemeful: bool = True,
        private: bool = True,
    ) -> bool:  # fmt: skip
        """Are ``a`` and ``b`` on the same site (HTML Standard, "same site")?

        Each URI's site is its scheme and the registrable domain of its host, or the
        host itself when it has none (an IP address, a public suffix): hosts compare as
        origins do (RFC 6454 §4: lower case, IDNA A-labels).  A URI without a scheme or
        a host has an opaque origin, same site with nothing.  With ``schemeful=False``
        the schemes are not compared ("schemelessly same site").  A ``str`` is read as
        an IRI reference (every URI reference is one); a text that is not one raises
        :class:`~urikit.URIError`.  It is ``site(a) == site(b)`` (:meth:`site`), both
        not ``None``.

        >>> default_list().same_site("https://www.example.co.uk/", "https://example.co.uk:8443/")
        True
        """
        first = self.site(a, schemeful=schemeful, private=private)
        second = self.site(b, schemeful=schemeful, private=private)
        return first is not None and first == second


def _origin(value: URI | IRI | str) -> tuple[str, str] | None:
    """The scheme and host of the origin of ``value`` (RFC 6454 §4), or None if opaque."""
    reference = value if isinstance(value, (URI, IRI)) else IRI(value)
    scheme, host = reference.scheme, reference.host
    if scheme is None or not host:
        return None
    origin = reference.replace(port=None).origin if reference.port else reference.origin
    assert origin is not None
    return origin.scheme, origin.host


def _bundled_table() -> Table:
    """The compiled table of the list that ships with urikit (``_table``, generated)."""
    from . import _table as t

    fields = {
        "index_width": str(t.INDEX_WIDTH),
        "edge_start": t.EDGE_START,
        "edge_labels": t.EDGE_LABELS,
        "edge_targets": t.EDGE_TARGETS,
        "answer_sets": t.ANSWER_SETS,
        "node_answers": t.NODE_ANSWERS,
    }
    return table_from_text(fields, t.VERSION or None, t.COMMIT or None)


_DEFAULT: SuffixList | None = None


def default_list() -> SuffixList:
    """The list that ships with urikit, compiled when urikit was released.

    Its ``version`` and ``commit`` say which list it is (``urikit site --list-version``).
    """
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = SuffixList(_bundled_table())
    return _DEFAULT


def public_suffix(host: Host, *, private: bool = True) -> str | None:
    """The public suffix of ``host`` by the bundled list (:meth:`SuffixList.public_suffix`).

    >>> public_suffix("www.example.co.uk"), public_suffix("example.com."), public_suffix("::1")
    ('co.uk', 'com.', None)
    """
    return (_DEFAULT or default_list()).public_suffix(host, private=private)


def registrable_domain(host: Host, *, private: bool = True) -> str | None:
    """The registrable domain of ``host`` by the bundled list
    (:meth:`SuffixList.registrable_domain`).

    >>> registrable_domain("WWW.Example.CO.UK"), registrable_domain("co.uk")
    ('example.co.uk', None)
    >>> registrable_domain("a.github.io"), registrable_domain("a.github.io", private=False)
    ('a.github.io', 'github.io')
    """
    return (_DEFAULT or default_list()).registrable_domain(host, private=private)


def lookup(host: Host, *, private: bool = True) -> SuffixMatch | None:
    """The public suffix, registrable domain and prevailing rule of ``host`` by the
    bundled list (:meth:`SuffixList.lookup`)."""
    return (_DEFAULT or default_list()).lookup(host, private=private)


def site(uri: URI | IRI | str, *, schemeful: bool = True, private: bool = True) -> Site | None:
    """The site of ``uri`` by the bundled list (:meth:`SuffixList.site`).

    >>> site("https://www.example.co.uk/"), site("http://192.0.2.1:8080/", schemeful=False)
    (Site(scheme='https', host='example.co.uk'), Site(scheme=None, host='192.0.2.1'))
    """
    return (_DEFAULT or default_list()).site(uri, schemeful=schemeful, private=private)


def named_site(entry: URI | IRI | str, *, private: bool = True) -> Site:
    """The site an allow-list entry names, by the bundled list (:meth:`SuffixList.named_site`).

    >>> named_site("example.co.uk"), named_site("https://www.example.co.uk/").scheme
    (Site(scheme=None, host='example.co.uk'), 'https')
    """
    return (_DEFAULT or default_list()).named_site(entry, private=private)


def same_site(
    a: URI | IRI | str, b: URI | IRI | str, *, schemeful: bool = True, private: bool = True
) -> bool:
    """Are ``a`` and ``b`` on the same site by the bundled list (:meth:`SuffixList.same_site`)?

    >>> same_site("http://example.com/", "https://example.com/")
    False
    >>> same_site("http://example.com/", "https://www.example.com/", schemeful=False)
    True
    """
    return (_DEFAULT or default_list()).same_site(a, b, schemeful=schemeful, private=private)
