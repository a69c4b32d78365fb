"""What the fuzzers and the robustness property call: one target per public text-taking function.

A target takes a :class:`Draw` (the fuzzer's bytes through ``atheris``, or a
Hypothesis draw), calls the function on the text it draws, lets through only
the exceptions that ``docs/`` documents for bad text (``urikit.URIError``, and
``ValueError`` where an argument value is documented to raise it), and checks
the cheap laws where they apply.  Anything else escapes: an assertion error is
a broken law, any other exception an undocumented one.

A target draws its choices (``pick``, ``flag``) before its texts, so that the
fuzzer's input can be a seed URI with the choices after it.
"""

from __future__ import annotations

import contextlib
import pickle
from collections.abc import Callable, Sequence
from pathlib import PurePath, PurePosixPath, PureWindowsPath
from typing import Protocol, TypeVar

import rfc3986_oracle as oracle

import urikit
from urikit import IRI, URI, URIError, whatwg
from urikit.dsn import parse_dsn
from urikit.percent import COMPONENTS as PERCENT_COMPONENTS
from urikit.schemes import DEFAULT_REGISTRY
from urikit.security import (
    HostError,
    PeerGuard,
    UnsafeRedirectError,
    check_host,
    is_dns_name,
    is_internal_address,
    is_public_dns_name,
    is_public_host,
    lenient_ipv4,
    redirect_findings,
)
from urikit.security.audit import innermost
from urikit.sites import (
    SuffixList,
    lookup,
    named_site,
    public_suffix,
    registrable_domain,
    same_site,
    site,
)
from urikit.template import Router, TemplateError, URITemplate, is_template
from urikit.text.encoding import _LABELS as ENCODING_LABELS
from urikit.text.encoding import _decode as decode_bytes
from urikit.validate import RULE_NAMES, check
from urikit.views import VIEWS, view

T = TypeVar("T")

COMPONENTS = ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment")
DECODE_ERRORS = ("strict", "replace", "ignore", "surrogateescape", "backslashreplace")
SPECS = ("rfc3986", "rfc2396", "rfc1630")
LEVELS = ("string", "syntax", "scheme")
CODECS = ("form", "rfc3986")


class Draw(Protocol):
    """Where a target gets its arguments from."""

    def pick(self, options: Sequence[T]) -> T: ...

    def flag(self) -> bool: ...

    def texts(self, count: int) -> list[str]: ...

    def octets(self) -> bytes: ...


def _reference(text: str, iri: bool) -> URI | IRI | None:
    """``URI(text)`` or ``IRI(text)``, or None when the text is not one (a ``URIError``)."""
    try:
        return IRI(text) if iri else URI(text)
    except URIError:
        return None


def _port_above_limit(u: URI | IRI) -> bool:
    """Does ``u`` name a port above 65535, which ``port_number`` refuses?"""
    try:
        u.port_number  # noqa: B018
    except URIError:
        return True
    return False


def _has_dot_segment(u: URI | IRI) -> bool:
    """Does the path hold "." or ".." (but for the "/." that shields a "//", §3.3)?"""
    path = u.path
    if u.authority is None and path.startswith("/.//"):
        path = path[2:]  # docs/deviations.md: a path "//..." with no authority
    return any(segment in (".", "..") for segment in path.split("/"))


def _port_too_long(u: URI | IRI) -> bool:
    """Has it a port too long to read as a number (``port_number`` raises, as ``origin``)?"""
    try:
        _ = u.port_number
    except URIError:
        return True
    return False


# -- the value: construction, components, classification (RFC 3986 §3, §4) ----------


def _check_value(u: URI | IRI, text: str) -> None:
    cls = type(u)
    assert str(u) == text
    assert cls(str(u)) == u
    assert pickle.loads(pickle.dumps(u)) == u
    assert hash(u) == hash(text)
    repr(u)
    for name in COMPONENTS:
        value = getattr(u, name)
        span = u.span(name)  # type: ignore[arg-type]
        if value is None:
            assert span is None and u.decoded(name) is None  # type: ignore[arg-type]
        else:
            assert span is not None and text[span[0] : span[1]] == value
            for errors in DECODE_ERRORS[1:]:
                u.decoded(name, errors=errors)  # type: ignore[arg-type]
            with contextlib.suppress(URIError):  # strict decoding of non-UTF-8 octets
                u.decoded(name)  # type: ignore[arg-type]
    assert u.parts.scheme == u.scheme
    for attribute in ("port_number", "effective_port", "origin"):
        with contextlib.suppress(URIError):  # a port too long to be a number
            getattr(u, attribute)
    for attribute in (
        "host_type",
        "ip",
        "is_absolute",
        "is_relative",
        "kind",
        "is_opaque",
        "is_hierarchical",
        "netloc",
        "hostname",
        "username",
        "password",
    ):
        getattr(u, attribute)
    # RFC 6874 §2: only an IPv6 literal has a zone ID.  Other hosts are held to
    # that by test_robustness.py::test_zone_id_of_other_hosts (xfail for now).
    if u.host_type == "ipv6":
        assert (u.zone_id is not None) == ("%25" in (u.host or ""))
    assert u.is_relative == (u.scheme is None)
    assert u.is_absolute == (u.scheme is not None and u.fragment is None)  # §4.3
    u.is_same_document()
    u.redacted()
    # §5.3: the components recompose into the text.
    rebuilt = cls.build(
        scheme=u.scheme,
        userinfo=u.userinfo,
        host=u.host,
        port=u.port,
        path=u.path,
        query=u.query,
        fragment=u.fragment,
    )
    assert str(rebuilt) == text, rebuilt


def target_uri(draw: Draw) -> None:
    """``URI(text)`` and every component and classification; agreement with ``is_valid``."""
    (text,) = draw.texts(1)
    u = _reference(text, iri=False)
    assert urikit.is_valid(text) == (u is not None)
    if u is None:
        return
    _check_value(u, text)
    assert IRI(text) == text  # every URI is an IRI (RFC 3987 §2.2)
    u.to_urlsplit()


def target_iri(draw: Draw) -> None:
    """``IRI(text)`` and every component and classification; agreement with ``is_valid``."""
    (text,) = draw.texts(1)
    u = _reference(text, iri=True)
    assert urikit.is_valid(text, "IRI-reference") == (u is not None)
    if u is None:
        return
    _check_value(u, text)
    assert isinstance(u, IRI)
    u.bidi_reports()


def target_build(draw: Draw) -> None:
    """``build`` and ``replace`` with text components, as given or encoded (§5.3)."""
    encode = draw.flag()
    iri = draw.flag()
    scheme = draw.pick((None, "http", "urn", "file"))
    component = draw.pick(COMPONENTS[1:])
    text, host, path, rest = draw.texts(4)
    cls: type[URI] | type[IRI] = IRI if iri else URI
    try:
        built = cls.build(scheme=scheme, host=host, path=path, query=rest, encode=encode)
    except URIError:
        pass
    else:
        assert cls(str(built)) == built
        if encode:
            assert built.decoded("query") == rest
    u = _reference(text, iri)
    if u is None:
        return
    try:
        replaced = u.replace(encode=encode, **{component: rest})
    except URIError:
        return
    except ValueError as error:  # an argument error: a userinfo or port needs a host
        assert component in ("userinfo", "port") and u.host is None, error
        return
    assert cls(str(replaced)) == replaced
    if not encode and component not in ("authority", "userinfo", "host", "port"):
        assert getattr(replaced, component) == rest


def target_lenient(draw: Draw) -> None:
    """``URI.lenient`` and ``IRI.lenient``: the result is valid; valid text comes back as is."""
    cls: type[URI] | type[IRI] = draw.pick((URI, IRI))
    (text,) = draw.texts(1)
    try:
        repaired, reports = cls.lenient(text)
    except URIError:
        assert _reference(text, iri=cls is IRI) is None
        return
    assert cls(str(repaired)) == repaired
    for report in reports:
        assert 0 <= report.span[0] <= report.span[1] <= len(text), report
    # Valid text is kept, but for a "URL:" prefix before a scheme (docs/deviations.md).
    if _reference(text, iri=cls is IRI) is not None and text[:4].lower() != "url:":
        assert str(repaired) == text and not reports


# -- resolution and relativization (§5.2) ---------------------------------------------


def target_resolve(draw: Draw) -> None:
    """``resolve`` under all three specs, strict or not, as a function and as a method."""
    spec = draw.pick(SPECS)
    strict = draw.flag()
    iri = draw.flag()
    base_text, ref_text = draw.texts(2)
    base = _reference(base_text, iri)
    if base is None:
        if not iri:
            with contextlib.suppress(URIError):
                urikit.resolve(base_text, ref_text, strict=strict, spec=spec)
                raise AssertionError("resolve() took a base that is not a URI")
        return
    try:
        target = base.resolve(ref_text, strict=strict, spec=spec)
    except URIError:
        return
    assert type(target) is type(base)
    assert target.scheme is not None
    if not iri:
        assert urikit.resolve(base_text, ref_text, strict=strict, spec=spec) == target
    if spec == "rfc3986":
        assert base.resolve(type(base)(ref_text), strict=strict) == target
        ref_scheme = type(base)(ref_text).scheme
        if not strict and ref_scheme is not None and ref_scheme.lower() == base.scheme.lower():
            # docs/deviations.md: the §5.2.2 loophole compares schemes case-insensitively
            ref_text = base.scheme + ref_text[len(ref_scheme) :]
        t = oracle.resolve_components(base_text, ref_text, strict)
        if t.authority is None and t.path.startswith("//"):
            t = t._replace(path="/." + t.path)  # docs/deviations.md: "/." before "//"
        assert str(target) == oracle.recompose(t), target


def target_relativize(draw: Draw) -> None:
    """``relativize``: resolving the answer gives the target back (§5.2, §4.2)."""
    iri = draw.flag()
    base_text, target_text = draw.texts(2)
    base = _reference(base_text, iri)
    if base is None:
        if not iri:
            with contextlib.suppress(URIError):
                urikit.relativize(base_text, target_text)
                raise AssertionError("relativize() took a base that is not a URI")
        return
    try:
        relative = base.relativize(target_text)
    except URIError:
        return
    goal = base.resolve(target_text)
    assert base.resolve(relative) == goal, (relative, goal)
    target = type(base)(target_text)
    if target.scheme is not None and not _has_dot_segment(target):
        assert base.resolve(relative) == target, relative


# -- normalization and the comparison ladder (§6) -------------------------------------


def _steps(draw: Draw) -> dict[str, object]:
    return {
        "unicode": draw.pick((None, "NFC", "NFKC")),
        "idna": draw.pick((None, None, "a-label", "u-label")),
        "strip_host_dot": draw.flag(),
        "remove_params": draw.pick((None, "utm_*", ("a", "b"))),
        "form_query": draw.flag(),
        "sort_query": draw.flag(),
        "drop_empty_query": draw.flag(),
        "drop_fragment": draw.flag(),
    }


def target_normalize(draw: Draw) -> None:
    """``normalize`` at each level, with and without the §6.2.4 steps: idempotent."""
    level = draw.pick(LEVELS)
    steps = _steps(draw) if draw.flag() else {}
    iri = draw.flag()
    (text,) = draw.texts(1)
    u = _reference(text, iri)
    if u is None:
        if not iri:
            with contextlib.suppress(URIError):
                urikit.normalize(text, level=level, **steps)  # type: ignore[arg-type]
                raise AssertionError("normalize() took text that is not a URI")
        return
    try:
        once = u.normalize(level=level, **steps)  # type: ignore[arg-type]
    except URIError:
        assert steps.get("idna") is not None, "only the idna step refuses a valid reference"
        return
    assert once.normalize(level=level, **steps) == once  # type: ignore[arg-type]
    assert urikit.equivalent(u, once, level=level, **steps)  # type: ignore[arg-type]
    if not iri:
        assert urikit.normalize(text, level=level, **steps) == once  # type: ignore[arg-type]
    if level == "string" and not steps:
        assert once == u


def target_compare(draw: Draw) -> None:
    """``equivalent``, ``comparison_rung``, ``same_origin``: a reference equals itself."""
    level = draw.pick(LEVELS)
    a, b = draw.texts(2)
    for x, y in ((a, b), (a, a)):
        try:
            same = urikit.equivalent(x, y, level=level)
            rung = urikit.comparison_rung(x, y)
        except URIError:
            continue
        assert (rung is not None) == urikit.equivalent(x, y, level="scheme")
        assert urikit.equivalent(y, x, level=level) == same
        assert urikit.comparison_rung(y, x) == rung
        if x == y:
            assert same and rung == "string"
    try:
        urikit.same_origin(a, b)
    except URIError:
        refs = [_reference(a, iri=False), _reference(b, iri=False)]
        assert None in refs or any(_port_too_long(r) for r in refs if r is not None)


# -- IRIs (RFC 3987 §3) ---------------------------------------------------------------


def target_mapping(draw: Draw) -> None:
    """``IRI.to_uri`` and ``URI.to_iri``: every IRI maps to a URI, and back (§3.1, §3.2)."""
    idna = draw.flag()
    nfc = draw.flag()
    (text,) = draw.texts(1)
    iri = _reference(text, iri=True)
    if iri is not None:
        try:
            uri = iri.to_uri(idna=idna, nfc=nfc)
        except URIError:
            assert idna, "only ToASCII refuses an IRI (§3.1)"
        else:
            assert IRI(str(uri)).to_uri() == uri  # identity on URIs (§3.1)
    uri_value = _reference(text, iri=False)
    if uri_value is not None:
        try:
            back = uri_value.to_iri(idna=idna)
        except URIError:
            assert idna, "every URI displays as an IRI (§3.2)"
            return
        if not idna:
            assert back.to_uri().to_iri() == back


# -- text and HTML ---------------------------------------------------------------------


def target_extract(draw: Draw) -> None:
    """``extract`` never raises; each match's span is its text."""
    suffix = draw.flag()
    default_scheme = draw.pick(("http", "https", "ftp"))
    (text,) = draw.texts(1)
    for match in urikit.extract(text, suffix=suffix, default_scheme=default_scheme):
        assert 0 <= match.start <= match.end <= len(text)
        assert match.text == text[match.start : match.end]
        assert URI(str(match.uri)) == match.uri


def _check_links(html: str | bytes, base_text: str, scripting: bool = True) -> None:
    base = _reference(base_text, iri=False)
    try:
        found = urikit.links(html, base_text, scripting=scripting)
    except URIError:
        assert base is None or base.scheme is None, "links raises only for a bad base"
        return
    for link in found:
        assert (link.uri is None) != (link.error is None), link
        assert link.uri is None or link.uri.scheme is not None, link  # resolved (§5.2)


def target_links(draw: Draw) -> None:
    """``links`` on text: only a bad base raises."""
    scripting = draw.flag()
    base_text, html = draw.texts(2)
    _check_links(html, base_text, scripting)


def target_links_bytes(draw: Draw) -> None:
    """``links`` on octets, with encoding sniffing (the base is fuzzed by ``links``)."""
    base = draw.pick(("http://a/b/c/d;p?q", "https://example.com", "file:///tmp/x"))
    _check_links(draw.octets(), base)


def target_decode(draw: Draw) -> None:
    """Every decoder of the Encoding Standard takes any octets; ASCII is itself in each
    ASCII-compatible encoding (ISO-2022-JP without ESC, SO and SI)."""
    name = draw.pick(sorted(ENCODING_LABELS))
    data = draw.octets()
    text = decode_bytes(data, name)
    assert isinstance(text, str)
    shifts = name == "iso-2022-jp" and any(b in data for b in b"\x0e\x0f\x1b")
    if data.isascii() and name not in ("utf-16be", "utf-16le", "replacement") and not shifts:
        assert text == data.decode("ascii"), name


# -- security (§7) ---------------------------------------------------------------------


def target_audit(draw: Draw) -> None:
    """``audit`` and ``lenient_ipv4`` never raise; spans lie in the text."""
    wrapped = draw.flag()
    wrapper = draw.pick(("feed:", "jar:", "view-source:", "feed:jar:"))
    (text,) = draw.texts(1)
    if wrapped:
        text = wrapper * 3 + text
    for report in urikit.audit(text):
        assert 0 <= report.span[0] <= report.span[1] <= len(text), report
    start, end, levels, _ = innermost(text, DEFAULT_REGISTRY)
    assert 0 <= start <= end <= len(text) and (levels > 0 or (start, end) == (0, len(text)))
    address = lenient_ipv4(text)
    try:
        internal = is_internal_address(text)
    except ValueError:  # documented for text that is not an address
        return
    if address is not None and str(address) == text:
        assert internal == is_internal_address(address)


def target_redirect(draw: Draw) -> None:
    """``is_safe_redirect`` is a bool for any target; it agrees with ``redirect_findings``."""
    schemes = draw.pick((("http", "https"), "https", ()))
    sites = draw.pick(((), ("example.co.uk", "https://a.github.io/", "[2001:db8::1]")))
    target, base, allowed = draw.texts(3)
    hosts = (allowed, "example.com")
    try:
        safe = urikit.is_safe_redirect(
            target, base=base, allowed_hosts=hosts, allowed_schemes=schemes, allowed_sites=sites
        )
    except URIError:
        b = _reference(base, iri=False)
        bad_base = b is None or b.scheme is None or _port_above_limit(b)
        assert bad_base or ":" in allowed, "only a bad base or an allowed host's port"
        return
    assert isinstance(safe, bool)
    findings = redirect_findings(
        target, base=base, allowed_hosts=hosts, allowed_schemes=schemes, allowed_sites=sites
    )
    assert safe == (not findings), findings
    iri = _reference(target, iri=True)
    if iri is not None:  # an IRI target is judged too, never raised on
        assert isinstance(urikit.is_safe_redirect(iri, base=base, allowed_hosts=hosts), bool)


def target_hosts(draw: Draw) -> None:
    """``check_host`` and its yes-or-no forms: a ``HostError`` or a pass, and they agree."""
    public = draw.flag()
    (text,) = draw.texts(1)
    try:
        check_host(text, public=public)
    except HostError as error:
        assert 0 <= (error.position or 0) <= len(text), error
        assert error.code != "internal-address" or is_internal_address(error.address)  # type: ignore[arg-type]
        passed = False
    else:
        passed = True
    if public:
        assert is_public_host(text) == passed
    assert is_public_dns_name(text) <= is_dns_name(text)
    assert is_public_dns_name(text) <= is_public_host(text)


def target_redirect_guard(draw: Draw) -> None:
    """``PeerGuard.check_redirect``: ``UnsafeRedirectError``, or ``URIError`` for a bad base."""
    hosts = draw.pick((None, ("example.com",), (".example.org",)))
    location, base = draw.texts(2)
    guard = PeerGuard(allowed_networks=["127.0.0.0/8"], allowed_redirect_hosts=hosts)
    try:
        guard.check_redirect(location, base)
    except UnsafeRedirectError as refusal:
        assert refusal.code and refusal.reason, refusal
    except URIError:
        b = _reference(base, iri=False)
        assert b is None or b.scheme is None or _port_above_limit(b), base


# -- multi-host connection strings and JSON Schema formats ----------------------------------


def target_dsn(draw: Draw) -> None:
    """``parse_dsn``: a ``URIError`` that points into the text, or a DSN read back alike."""
    (text,) = draw.texts(1)
    try:
        dsn = parse_dsn(text)
    except URIError as error:
        assert error.position is not None and 0 <= error.position <= len(text), error
        return
    assert dsn.text == text and parse_dsn(text) == dsn
    assert all(port is None or 1 <= port <= 65535 for _, port in dsn.hosts)
    assert str(dsn) == dsn.redacted() and repr(dsn) == f"DSN({dsn.redacted()!r})"
    if not dsn._spans:
        assert str(dsn) == text  # nothing secret: nothing masked


def target_formats(draw: Draw) -> None:
    """The JSON Schema format checks: a bool for any text, each the rule it names."""
    from urikit.jsonschema import FORMATS

    name = draw.pick(sorted(FORMATS))
    (text,) = draw.texts(1)
    result = FORMATS[name](text)
    assert isinstance(result, bool)
    rules = {"uri": "URI", "uri-reference": "URI-reference", "iri": "IRI"}
    rules["iri-reference"] = "IRI-reference"
    if name == "uri-template":
        assert result == is_template(text)
    else:
        assert result == urikit.is_valid(text, rules[name])


# -- sites: the Public Suffix List ----------------------------------------------------


def target_sites(draw: Draw) -> None:
    """The public suffix and registrable domain of any text: both None, or the last labels
    of the domain read; ``same_site`` is symmetric and refuses only what is no IRI."""
    private = draw.flag()
    text, other = draw.texts(2)
    suffix = public_suffix(text, private=private)
    domain = registrable_domain(text, private=private)
    match = lookup(text, private=private)
    if match is None:
        assert suffix is None and domain is None
    else:
        assert (match.public_suffix, match.registrable_domain) == (suffix, domain)
        assert suffix is not None and match.domain.endswith(suffix)
        if domain is not None:
            assert domain.endswith("." + suffix)
            assert match.domain == domain or match.domain.endswith("." + domain)
    try:
        named = named_site(text)
    except URIError:
        pass
    else:
        assert named.scheme is not None or registrable_domain(named.host) in (named.host, None)
    try:
        same = same_site(text, other, schemeful=private)
    except URIError:
        assert _reference(text, iri=True) is None or _reference(other, iri=True) is None
        return
    assert same == same_site(other, text, schemeful=private)
    first = site(text, schemeful=private)
    assert same == (first is not None and first == site(other, schemeful=private))


def target_suffix_list(draw: Draw) -> None:
    """``SuffixList.from_text`` of any text: a list that answers, or a ``ValueError`` that
    names the line of the rule it cannot read."""
    text, host = draw.texts(2)
    try:
        suffixes = SuffixList.from_text(text)
    except ValueError as error:
        assert str(error).startswith("line "), error
        return
    suffix = suffixes.public_suffix(host)
    domain = suffixes.registrable_domain(host, private=False)
    assert suffix is None or host.lower().endswith(suffix) or "%" in host
    assert domain is None or suffixes.lookup(host, private=False) is not None


# -- the query (§3.4) -------------------------------------------------------------------


def target_query(draw: Draw) -> None:
    """The query lookups and edits; adding a new name then removing it gives the text back."""
    codec = draw.pick(CODECS)
    errors = draw.pick(DECODE_ERRORS)
    none_value = draw.flag()
    iri = draw.flag()
    text, name, value = draw.texts(3)
    u = _reference(text, iri)
    if u is None:
        return
    # The new query put in place agrees with a parse of the text it makes (§3.4).
    start, end = u._span(7)
    if start < 0:
        start = end = u._span(6)[1]
    else:
        start -= 1
    spliced = _reference(f"{text[:start]}?{value}{text[end:]}", iri)
    replaced = u._replace_query(value)
    if spliced is None or spliced.query != value:
        assert replaced is None, (text, value)
    else:
        assert replaced is not None and replaced._text == spliced._text, (text, value)
        assert replaced._groups() == spliced._groups(), (text, value)
    try:
        u.query_params(codec, errors=errors)
        u.query_param(name, codec=codec, errors=errors)
        u.query_param_all(name, codec=codec, errors=errors)
        present = u.has_query_param(name, codec=codec)
    except URIError:
        return
    edit_value = None if none_value else value
    try:
        u.set_query_param(name, edit_value, codec=codec)
        added = u.add_query_param(name, edit_value, codec=codec)
    except URIError:
        return
    except ValueError as error:
        assert name == "" and edit_value is None, error  # the documented empty pair
        return
    assert added.has_query_param(name, codec=codec)
    if not present:
        assert str(added.remove_query_param(name, codec=codec)) == text, added
    u.remove_query_params(name + "*", codec=codec)
    try:
        rebuilt = u.with_query_params([(name, value), ("x", edit_value)], codec=codec)
    except URIError:  # a lone surrogate has no UTF-8 form (§2.5)
        return
    assert rebuilt.query_param_all(name, codec=codec)[:1] == [value] or name == "x"


# -- the path (§3.3) and file: URIs (RFC 8089) ----------------------------------------------


def target_paths(draw: Draw) -> None:
    """``segments``, ``joinpath``, ``parent`` and ``sibling``."""
    errors = draw.pick(DECODE_ERRORS)
    iri = draw.flag()
    text, name, other = draw.texts(3)
    u = _reference(text, iri)
    if u is None:
        return
    with contextlib.suppress(URIError):
        u.segments(errors=errors)
    try:
        joined = u.joinpath(name, other)
    except URIError:
        pass
    else:
        assert joined.joinpath() == joined
        if joined.path.count("/") > u.path.count("/"):
            assert joined.segments(errors="surrogateescape")[-2:] == [name, other] or not iri
    for navigate in (u.parent, lambda: u.sibling(name)):
        try:
            result = navigate()
        except URIError:
            continue
        assert result.fragment is None
        assert not _has_dot_segment(result) or u.scheme is None


def target_file(draw: Draw) -> None:
    """``from_path`` and ``to_path``: a path written is read back (RFC 8089)."""
    flavor = draw.pick(("posix", "windows"))
    (text,) = draw.texts(1)
    path: PurePath = PurePosixPath(text) if flavor == "posix" else PureWindowsPath(text)
    try:
        uri = urikit.from_path(path)
    except URIError:
        pass
    else:
        assert uri.to_path(flavor) == path, uri  # type: ignore[arg-type]
    with contextlib.suppress(URIError):
        urikit.from_path(text)
    u = _reference(text, iri=False)
    if u is not None:
        with contextlib.suppress(URIError):
            u.to_path(flavor)  # type: ignore[arg-type]


# -- percent-encoding (§2.1, §2.4) and data: URIs (RFC 2397) -------------------------------


def target_percent(draw: Draw) -> None:
    """The percent and form codecs: decoding an encoding gives the text back."""
    component = draw.pick(tuple(PERCENT_COMPONENTS))
    iri = draw.flag()
    errors = draw.pick(DECODE_ERRORS)
    (text,) = draw.texts(1)
    for decode in (urikit.percent_decode, urikit.form_decode):
        try:
            decode(text, errors=errors)
        except URIError:
            assert errors == "strict" or "%" in text  # a "%" that starts no triplet
    try:
        encoded = urikit.percent_encode(text, component, iri=iri)
    except URIError:
        assert any("\ud800" <= c <= "\udfff" for c in text), "only a lone surrogate (§2.5)"
        return
    assert urikit.percent_decode(encoded) == text
    assert urikit.percent_encode(encoded, component, encoded=True, iri=iri) == encoded
    assert urikit.form_decode(urikit.form_encode(text)) == text


def target_data(draw: Draw) -> None:
    """``parse_data`` of any text, and ``data_uri`` read back by ``parse_data``."""
    base64 = draw.pick((None, True, False))
    text, media_type = draw.texts(2)
    with contextlib.suppress(URIError):
        urikit.parse_data(text)
    data = text.encode("utf-8", "surrogatepass")
    try:
        uri = urikit.data_uri(data, media_type, base64=base64)
    except URIError:
        return
    except ValueError as error:
        assert media_type.lower().endswith(";base64"), error  # documented: use base64=True
        return
    assert urikit.parse_data(uri).data == data


# -- the readings of mailto:, news:, ftp: and urn: (RFC 6068, 5538, 1738, 8141) -------------


def target_views(draw: Draw) -> None:
    """``view`` and each scheme's reading: a ``URIError`` or a value."""
    iri = draw.flag()
    scheme = draw.pick(sorted(VIEWS))
    (text,) = draw.texts(1)
    u = _reference(text, iri) or _reference(scheme + ":" + text, iri)
    if u is None:
        return
    for read in (view, VIEWS[scheme]):
        with contextlib.suppress(URIError):
            read(u)


# -- validation of every named rule (RFC 3986 App. A, RFC 3987 §2.2) -------------------


def target_validate(draw: Draw) -> None:
    """``is_valid`` and ``check`` for every rule name: they agree."""
    rule = draw.pick(RULE_NAMES)
    (text,) = draw.texts(1)
    valid = urikit.is_valid(text, rule)
    try:
        check(text, rule)
    except URIError as error:
        assert not valid
        assert 0 <= error.position <= len(text)
    else:
        assert valid


# -- the WHATWG reading: the URL Standard and UTS #46 -------------------------------------

WHATWG_BASES = ("http://example.org/foo/bar", "file:///C:/a", "sc://x/y", "about:blank")
WHATWG_SETTERS = ("href", "protocol", "username", "password", "host", "hostname", "port",
                  "pathname", "search", "hash")  # fmt: skip


def target_whatwg(draw: Draw) -> None:
    """``whatwg.URL``: a URL whose href parses to itself, or a ``URLParseError``; every
    setter either keeps a URL that parses to its href or, for href, raises."""
    use_base = draw.flag()
    base = draw.pick(WHATWG_BASES) if use_base else None
    setter = draw.pick(WHATWG_SETTERS)
    text, value = draw.texts(2)
    try:
        url = whatwg.URL(text, base)
    except whatwg.URLParseError:
        assert not whatwg.URL.can_parse(text, base)
        return
    assert whatwg.URL.can_parse(text, base)
    assert whatwg.URL(url.href).href == url.href
    assert whatwg.components(url.href)[0] == url.href
    url.search_params.sort()
    with contextlib.suppress(whatwg.URLParseError):
        setattr(url, setter, value)
    assert whatwg.URL(url.href).href == url.href
    assert pickle.loads(pickle.dumps(url)) == url


def target_whatwg_checked(draw: Draw) -> None:
    """``URL.checked``: the same URL as ``URL``, with report spans inside the input."""
    (text,) = draw.texts(1)
    try:
        url, reports = whatwg.URL.checked(text)
    except whatwg.URLParseError as error:
        assert error.position is None or 0 <= error.position <= len(text)
        return
    assert url == whatwg.URL(text)
    assert all(0 <= r.span[0] <= r.span[1] <= len(text) for r in reports)


def target_uts46(draw: Draw) -> None:
    """``domain_to_ascii`` (an ASCII result that maps to itself, or ``IDNAError``) and
    ``domain_to_unicode`` (never raises)."""
    strict = draw.flag()
    (text,) = draw.texts(1)
    try:
        result = whatwg.domain_to_ascii(text, strict)
    except whatwg.IDNAError:
        pass
    else:
        assert result.isascii() and whatwg.domain_to_ascii(result, strict) == result
    assert isinstance(whatwg.domain_to_unicode(text), str)


def target_search_params(draw: Draw) -> None:
    """``URLSearchParams``: its serialization parses back to the same pairs."""
    (text,) = draw.texts(1)
    params = whatwg.URLSearchParams(text)
    assert list(whatwg.URLSearchParams(str(params))) == list(params)


# -- URI Templates (RFC 6570) -------------------------------------------------------------

TEMPLATE_OPERATORS = ("", "+", "#", ".", "/", ";", "?", "&", "=", "!")
TEMPLATE_MODIFIERS = ("", "*", ":3", ":0")


def _template_outcome(action: Callable[..., T], *args: object) -> tuple[bool, object]:
    try:
        return True, action(*args)
    except TemplateError as error:
        return False, (error.reason, error.position, error.rule)


def target_template(draw: Draw) -> None:
    """``URITemplate(text)``, ``expand`` and ``partial`` with text values: a template or
    a ``TemplateError`` inside the text; the fast path agrees with §3.2.1; ``partial``
    then ``expand`` is ``expand``."""
    op = draw.pick(TEMPLATE_OPERATORS)
    modifier = draw.pick(TEMPLATE_MODIFIERS)
    text, value, other = draw.texts(3)
    for source in (text, f"{text}{{{op}a{modifier},b}}"):
        try:
            t = URITemplate(source)
        except TemplateError as error:
            assert error.text == source and error.position is not None
            assert 0 <= error.position <= len(source)
            continue
        assert str(t) == source and URITemplate(str(t)) == t
        for values in (
            {},
            {"a": value, "b": other},
            {"a": [value, None, other]},
            {"a": {value: other, other: None}, "b": ""},
        ):
            fast = _template_outcome(t.expand, values)
            plain = _template_outcome(t._expand_plainly, values)
            assert fast == plain
            if not fast[0]:
                continue
            given = {"a": values.get("a")}
            done, partial = _template_outcome(t.partial, given)
            if done:
                assert isinstance(partial, URITemplate)
                rest = {k: v for k, v in values.items() if k != "a"}
                assert partial.expand(rest) == fast[1]


def target_template_match(draw: Draw) -> None:
    """``match`` and ``Router.match`` of any text: values, ``None``, or a
    ``TemplateError`` where the template is ambiguous; what matches reads back the same
    from its expansion, and the router agrees with the template."""
    op = draw.pick(TEMPLATE_OPERATORS[:8])
    modifier = draw.pick(TEMPLATE_MODIFIERS[:3])
    allow = draw.flag()
    literal, uri = draw.texts(2)
    expression = f"{{{op}a{modifier}}}"
    try:
        t = URITemplate(literal + expression)
    except TemplateError:
        t = URITemplate(expression)
    try:
        found = t.match(uri, allow_dot_segments=allow)
    except TemplateError as error:
        assert error.rule in ("expression", "prefix", "explode")
        try:
            Router([t])
        except TemplateError:
            return
        raise AssertionError("the router accepted an ambiguous template") from None
    routed = Router([t], allow_dot_segments=allow).match(uri)
    assert (None if routed is None else routed.variables) == found
    if found is not None:
        assert t.match(t.expand(found), allow_dot_segments=True) == found


#: The text argument of a column function that has no default (a name, templates).
COLUMN_TEXTS: dict[str, object] = {
    "name": "q",
    "templates": ["http://{host}{/path*}{?q*}", "mailto:{to}", "{scheme}:{+rest}"],
}


def target_columns(draw: Draw) -> None:
    """Every function of the column table over an Arrow column built from the fuzzer's
    octets: rows split at "\n" (a lone NUL is a null row), octets that are not UTF-8
    included, in any layout, at a slice offset, in chunks; on the compiled kernel or the
    readable one, a column of the declared type and length comes back, valid as Arrow
    reads it, or a ``URIError`` for ``errors="raise"`` alone."""
    try:
        import pyarrow as pa

        from urikit import _arrow_kernel as kernels
        from urikit import _seam, arrow
        from urikit._column_functions import FUNCTIONS, Shape
    except ImportError:  # the arrow extra
        return
    function = draw.pick(FUNCTIONS)
    layout = draw.pick([(pa.string(), pa.binary()), (pa.large_string(), pa.large_binary())])
    offset = draw.pick([0, 1, 2])
    cut = draw.pick([None, 0, 1, 3])
    compiled = draw.flag()
    rows = [None if row == b"\x00" else row for row in draw.octets().split(b"\n")]
    padded = [b"x"] * offset + rows
    whole = pa.array(padded, layout[1]).view(layout[0])
    column = whole.slice(offset)
    if cut is not None and cut <= len(rows):
        column = pa.chunked_array([column.slice(0, cut), column.slice(cut)], layout[0])
    text: tuple[object, ...] = ()
    if function.text is not None:
        name, default = function.text
        text = (COLUMN_TEXTS[name] if default is None else default,)
    head = ("http://a/b/c/d;p?q",) if function.shape is Shape.BASE_AND_COLUMN else ()
    saved = kernels.KERNEL
    core = _seam.column_core() if compiled else None
    kernels.KERNEL = kernels.CompiledKernel(core) if core is not None else kernels.PureKernel()
    try:
        got = getattr(arrow, function.name)(*head, column, *text)
    finally:
        kernels.KERNEL = saved
    assert got.type == arrow.TYPES[function.result], (function.name, got.type)
    assert len(got) == len(rows)
    got.validate(full=True)


TARGETS: dict[str, Callable[[Draw], None]] = {
    name.removeprefix("target_"): function
    for name, function in sorted(globals().items())
    if name.startswith("target_")
}
