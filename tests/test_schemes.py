"""The scheme registry (RFC 3986 §3.1, §3.2.3, §6.2.3) and its generated table."""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path
from types import ModuleType

import pytest
from generators import load_tool

from urikit import _scheme_data
from urikit.errors import URIError
from urikit.schemes import (
    COMPONENTS,
    DEFAULT_REGISTRY,
    SPECIAL_RULES,
    Scheme,
    SchemeRegistry,
)

ROOT = Path(__file__).resolve().parent.parent

# The schemes issue 4 requires, with their default ports from each scheme's
# specification (None: the scheme defines no default port).
REQUIRED_PORTS: dict[str, int | None] = {
    "http": 80,  # RFC 9110 §4.2.1
    "https": 443,  # RFC 9110 §4.2.2
    "ws": 80,  # RFC 6455 §3
    "wss": 443,  # RFC 6455 §3
    "ftp": 21,  # RFC 1738 §3.2
    "sftp": 22,
    "ssh": 22,
    "telnet": 23,  # RFC 4248
    "gopher": 70,  # RFC 4266
    "ldap": 389,  # RFC 4516
    "ldaps": 636,
    "imap": 143,  # RFC 5092
    "pop": 110,  # RFC 2384
    "nntp": 119,  # RFC 5538
    "news": 119,  # RFC 5538
    "snews": 563,
    "mailto": None,  # RFC 6068
    "file": None,  # RFC 8089
    "urn": None,  # RFC 8141
    "tel": None,  # RFC 3966
    "data": None,  # RFC 2397
    "git": 9418,
    "rtsp": 554,  # RFC 7826
    "coap": 5683,  # RFC 7252 §6.1
    "coaps": 5684,  # RFC 7252 §6.2
    "redis": 6379,
    "postgresql": 5432,
    "mysql": 3306,
    "mongodb": 27017,
    "amqp": 5672,
    "mqtt": 1883,
}


def _user_scheme(name: str = "myapp", port: int | None = 7000) -> Scheme:
    return Scheme(name, default_port=port, authority="required", host_required=True)


# --- coverage and values ------------------------------------------------------


@pytest.mark.parametrize(("name", "port"), sorted(REQUIRED_PORTS.items()))
def test_required_scheme_present_with_default_port(name: str, port: int | None) -> None:
    assert name in DEFAULT_REGISTRY
    assert DEFAULT_REGISTRY[name].default_port == port
    assert DEFAULT_REGISTRY.default_port(name) == port


def test_rfc3986_6_2_3_http_default_port_and_empty_path() -> None:
    # §6.2.3: http://example.com ≡ http://example.com/ ≡ http://example.com:80/
    http = DEFAULT_REGISTRY["http"]
    assert http.default_port == 80
    assert http.empty_path_is_root
    assert http.authority == "required"
    assert http.host_required


def test_schemes_without_authority() -> None:
    for name in ("mailto", "urn", "tel", "data", "sip", "sips"):
        scheme = DEFAULT_REGISTRY[name]
        assert scheme.authority == "forbidden"
        assert not scheme.empty_path_is_root


def test_special_rules_of_mailto_urn_file() -> None:
    assert DEFAULT_REGISTRY["mailto"].special_rules == {"mailto-domain"}  # RFC 6068
    assert DEFAULT_REGISTRY["urn"].special_rules == {"urn-nid"}  # RFC 8141 §3.1
    assert DEFAULT_REGISTRY["file"].special_rules == {"file-localhost"}  # RFC 8089 §2
    assert not DEFAULT_REGISTRY["http"].special_rules


def test_file_host_may_be_empty() -> None:
    # RFC 8089 §2: "file:///path" has an empty host; "file:/path" has no authority.
    file = DEFAULT_REGISTRY["file"]
    assert file.authority == "optional"
    assert not file.host_required
    assert file.default_port is None


def test_every_builtin_scheme_is_consistent() -> None:
    used_rules: set[str] = set()
    for name, scheme in DEFAULT_REGISTRY.items():
        assert scheme.name == name
        assert scheme.reference
        used_rules |= scheme.special_rules
        if scheme.authority == "forbidden":
            assert scheme.default_port is None
            assert not scheme.case_insensitive & {"host", "userinfo"}
        else:
            # RFC 3986 §3.2.2: the host is case-insensitive.
            assert "host" in scheme.case_insensitive
    assert used_rules == set(SPECIAL_RULES)


def test_schemes_that_wrap_a_url() -> None:
    assert DEFAULT_REGISTRY["jar"].wraps_uri == "!/"  # jar:<url>!/<entry>
    assert DEFAULT_REGISTRY["view-source"].wraps_uri == ""
    assert DEFAULT_REGISTRY["feed"].wraps_uri == ""
    assert DEFAULT_REGISTRY["http"].wraps_uri is None


def test_historical_schemes_are_not_well_known() -> None:
    assert not DEFAULT_REGISTRY["wais"].well_known  # RFC 4156
    assert not DEFAULT_REGISTRY["prospero"].well_known  # RFC 4157
    assert DEFAULT_REGISTRY["https"].well_known


# --- lookup: RFC 3986 §3.1, scheme names are case-insensitive ------------------


@pytest.mark.parametrize("spelling", ["HTTP", "Http", "hTtP", "http"])
def test_rfc3986_3_1_lookup_ignores_case(spelling: str) -> None:
    assert spelling in DEFAULT_REGISTRY
    assert DEFAULT_REGISTRY[spelling] is DEFAULT_REGISTRY["http"]
    assert DEFAULT_REGISTRY.get(spelling) is DEFAULT_REGISTRY["http"]
    assert DEFAULT_REGISTRY.default_port(spelling) == 80


def test_lookup_with_symbols_in_name() -> None:
    assert DEFAULT_REGISTRY["COAPS+WS"].default_port == 443
    assert DEFAULT_REGISTRY["MongoDB+SRV"].default_port is None


def test_only_ascii_letters_fold() -> None:
    # U+212A KELVIN SIGN lower-cases to "k", but a scheme is ASCII (§3.1).
    registry = SchemeRegistry([_user_scheme("kv")])
    assert "KV" in registry
    assert "\u212av" not in registry
    assert registry.get("\u212av") is None


def test_unknown_scheme() -> None:
    assert "nosuchscheme" not in DEFAULT_REGISTRY
    assert DEFAULT_REGISTRY.get("nosuchscheme") is None
    assert DEFAULT_REGISTRY.get("nosuchscheme", "fallback") == "fallback"
    assert DEFAULT_REGISTRY.default_port("nosuchscheme") is None
    with pytest.raises(KeyError):
        DEFAULT_REGISTRY["nosuchscheme"]
    not_a_name: object = 80
    assert not_a_name not in DEFAULT_REGISTRY


def test_iteration_yields_canonical_names() -> None:
    names = list(DEFAULT_REGISTRY)
    assert len(names) == len(DEFAULT_REGISTRY)
    assert names == [name.lower() for name in names]
    assert names == sorted(names)
    assert set(REQUIRED_PORTS) <= set(names)


# --- immutability ---------------------------------------------------------------


def test_scheme_is_frozen_and_hashable() -> None:
    http = DEFAULT_REGISTRY["http"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        http.default_port = 8080  # type: ignore[misc]
    assert hash(http) == hash(dataclasses.replace(http))
    assert dataclasses.replace(http, default_port=8080) != http


def test_registry_cannot_be_changed() -> None:
    with pytest.raises(TypeError):
        DEFAULT_REGISTRY["myapp"] = _user_scheme()  # type: ignore[index]
    with pytest.raises(AttributeError):
        DEFAULT_REGISTRY._schemes = {}
    with pytest.raises(AttributeError):
        del DEFAULT_REGISTRY._schemes
    with pytest.raises(AttributeError):
        DEFAULT_REGISTRY.extra = 1


def test_with_scheme_returns_new_registry() -> None:
    before = len(DEFAULT_REGISTRY)
    extended = DEFAULT_REGISTRY.with_scheme(_user_scheme())
    assert extended is not DEFAULT_REGISTRY
    assert extended["MYAPP"].default_port == 7000
    assert "myapp" not in DEFAULT_REGISTRY
    assert len(DEFAULT_REGISTRY) == before
    assert len(extended) == before + 1
    assert extended.services == DEFAULT_REGISTRY.services


def test_with_scheme_replaces_same_name() -> None:
    custom_http = dataclasses.replace(DEFAULT_REGISTRY["http"], default_port=8080)
    changed = DEFAULT_REGISTRY.with_scheme(custom_http)
    assert changed["http"].default_port == 8080
    assert DEFAULT_REGISTRY["http"].default_port == 80
    assert len(changed) == len(DEFAULT_REGISTRY)
    assert "http" in changed.port_owner(8080)
    assert "http" not in changed.port_owner(80)


def test_without_returns_new_registry() -> None:
    smaller = DEFAULT_REGISTRY.without("GOPHER")
    assert "gopher" not in smaller
    assert "gopher" in DEFAULT_REGISTRY
    assert len(smaller) == len(DEFAULT_REGISTRY) - 1
    assert smaller.port_owner(70) == []
    same = DEFAULT_REGISTRY.without("nosuchscheme")
    assert same == DEFAULT_REGISTRY
    assert same is not DEFAULT_REGISTRY


# --- a user's registry is a value passed around --------------------------------


def _port_in_effect(scheme: str, port: str | None, registry: SchemeRegistry) -> int | None:
    """The port a URI's authority connects to (RFC 3986 §3.2.3), per ``registry``."""
    if port:
        return int(port)
    return registry.default_port(scheme)


def test_user_registry_passed_around() -> None:
    mine = SchemeRegistry([_user_scheme(), DEFAULT_REGISTRY["https"]])
    assert len(mine) == 2
    assert _port_in_effect("myapp", None, mine) == 7000
    assert _port_in_effect("myapp", "", mine) == 7000
    assert _port_in_effect("myapp", "7001", mine) == 7001
    assert _port_in_effect("HTTPS", None, mine) == 443
    assert _port_in_effect("http", None, mine) is None
    assert _port_in_effect("myapp", None, DEFAULT_REGISTRY) is None
    assert _port_in_effect("http", None, DEFAULT_REGISTRY) == 80
    assert mine.port_owner(7000) == ["myapp"]
    assert mine.services == ()


def test_user_scheme_defaults() -> None:
    scheme = Scheme("x-private")
    assert scheme.default_port is None
    assert scheme.authority == "optional"
    assert not scheme.well_known
    assert scheme.case_insensitive == frozenset()


def test_registry_equality_hash_and_pickle() -> None:
    rebuilt = SchemeRegistry(DEFAULT_REGISTRY.values(), DEFAULT_REGISTRY.services)
    assert rebuilt == DEFAULT_REGISTRY
    assert hash(rebuilt) == hash(DEFAULT_REGISTRY)
    assert rebuilt != SchemeRegistry(DEFAULT_REGISTRY.values())
    assert dict(DEFAULT_REGISTRY) != DEFAULT_REGISTRY
    restored = pickle.loads(pickle.dumps(DEFAULT_REGISTRY))
    assert restored == DEFAULT_REGISTRY
    assert restored["HTTP"] == DEFAULT_REGISTRY["http"]


def test_registry_rejects_duplicates_and_bad_services() -> None:
    with pytest.raises(ValueError, match="twice"):
        SchemeRegistry([_user_scheme(), _user_scheme(port=7001)])
    with pytest.raises(TypeError):
        SchemeRegistry(["http"])  # type: ignore[list-item]
    with pytest.raises(ValueError):
        SchemeRegistry([], [("smtp", 70000)])
    with pytest.raises(ValueError):
        SchemeRegistry([], [("smtp", True)])


# --- port_owner: whose well-known port is this? --------------------------------


@pytest.mark.parametrize(
    ("port", "owner"),
    [
        (25, "smtp"),
        (587, "submission"),
        (53, "dns"),
        (22, "ssh"),
        (23, "telnet"),
        (110, "pop3"),
        (143, "imap"),
        (389, "ldap"),
        (445, "smb"),
        (3389, "rdp"),
        (6379, "redis"),
        (11211, "memcached"),
        (3306, "mysql"),
        (5432, "postgresql"),
        (27017, "mongodb"),
        (5060, "sip"),
        (9418, "git"),
    ],
)
def test_port_owner_names_protocol(port: int, owner: str) -> None:
    assert owner in DEFAULT_REGISTRY.port_owner(port)


def test_port_owner_lists_every_owner_sorted() -> None:
    assert DEFAULT_REGISTRY.port_owner(25) == ["smtp"]
    assert DEFAULT_REGISTRY.port_owner(22) == ["sftp", "ssh"]
    assert DEFAULT_REGISTRY.port_owner(443) == ["coaps+ws", "https", "wss"]
    assert DEFAULT_REGISTRY.port_owner(80) == ["coap+ws", "http", "ws"]
    assert DEFAULT_REGISTRY.port_owner(6667) == ["irc"]
    assert DEFAULT_REGISTRY.port_owner(1) == []


def test_port_owner_covers_every_default_port() -> None:
    for name, scheme in DEFAULT_REGISTRY.items():
        if scheme.default_port is not None:
            assert name in DEFAULT_REGISTRY.port_owner(scheme.default_port)


def test_port_owner_returns_a_fresh_list() -> None:
    owners = DEFAULT_REGISTRY.port_owner(25)
    owners.append("changed")
    assert DEFAULT_REGISTRY.port_owner(25) == ["smtp"]


def test_services_sorted_by_port() -> None:
    services = DEFAULT_REGISTRY.services
    assert services == tuple(sorted(services, key=lambda pair: (pair[1], pair[0])))
    assert ("smtp", 25) in services


# --- Scheme validation ------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "position"),
    [("1http", 0), ("ht tp", 2), ("", 0), ("http:", 4), ("HTTP", 0), ("myApp", 2)],
)
def test_rfc3986_3_1_scheme_name_checked(name: str, position: int) -> None:
    with pytest.raises(URIError) as info:
        Scheme(name)
    assert info.value.rule == "scheme"
    assert info.value.position == position


@pytest.mark.parametrize(
    "kwargs",
    [
        {"authority": "sometimes"},
        {"default_port": 65536},
        {"default_port": -1},
        {"default_port": True},
        {"case_insensitive": frozenset({"scheme"})},
        {"special_rules": frozenset({"mailto-dommain"})},
        {"authority": "forbidden", "default_port": 80},
        {"authority": "forbidden", "host_required": True},
        {"authority": "forbidden", "empty_path_is_root": True},
        {"authority": "forbidden", "case_insensitive": frozenset({"host"})},
    ],
)
def test_scheme_rejects_bad_fields(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        Scheme("x-test", **kwargs)  # type: ignore[arg-type]


def test_scheme_field_types_checked() -> None:
    with pytest.raises(TypeError):
        Scheme("x-test", case_insensitive={"host"})  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Scheme("x-test", host_required="yes")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Scheme(b"http")  # type: ignore[arg-type]


def test_components_vocabulary() -> None:
    assert {"host", "userinfo", "path", "query"} <= COMPONENTS


# --- the generated table -----------------------------------------------------------


def _generator() -> ModuleType:
    pytest.importorskip("tomllib")
    return load_tool("gen_schemes")


def test_generated_fields_match_scheme() -> None:
    assert tuple(f.name for f in dataclasses.fields(Scheme)) == _scheme_data.SCHEME_FIELDS


_SMALL_TABLE = """
[scheme.b]
default_port = 2
authority = "required"
host_required = true
empty_path_is_root = false
case_insensitive = ["host"]
special_rules = []
well_known = true
reference = "B"

[scheme.a]
authority = "forbidden"
host_required = false
empty_path_is_root = false
case_insensitive = []
special_rules = []
well_known = true
reference = "A"

[service]
z = [9, 1]
y = [1]
"""


def test_generator_output_is_deterministic_and_sorted() -> None:
    gen = _generator()
    text = gen.render(_SMALL_TABLE)
    assert text == gen.render(_SMALL_TABLE)
    assert text.index('("a", None,') < text.index('("b", 2,')
    namespace: dict[str, object] = {}
    exec(compile(text, "_scheme_data.py", "exec"), namespace)
    assert namespace["SCHEMES"] == (
        ("a", None, "forbidden", False, False, (), (), True, "A", None),
        ("b", 2, "required", True, False, ("host",), (), True, "B", None),
    )
    assert namespace["SERVICE_PORTS"] == (("y", 1), ("z", 1), ("z", 9))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('reference = "B"', 'reference = "B"\ncolour = "red"'),  # unknown key
        ('reference = "B"\n', ""),  # missing key
        ("default_port = 2", "default_port = 65536"),
        ("default_port = 2", 'default_port = "2"'),
        ("[scheme.b]", "[scheme.B]"),
        ('case_insensitive = ["host"]', 'case_insensitive = "host"'),
        ("host_required = true", 'host_required = "yes"'),
        ("z = [9, 1]", "z = []"),
    ],
)
def test_generator_rejects_malformed_table(old: str, new: str) -> None:
    gen = _generator()
    assert old in _SMALL_TABLE
    with pytest.raises(gen.SchemeTableError):
        gen.render(_SMALL_TABLE.replace(old, new, 1))
