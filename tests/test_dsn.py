"""urikit.dsn: libpq connection URIs and MongoDB connection strings, with several hosts.

The examples are those of the PostgreSQL documentation ("Connection URIs",
§32.1.1.2 of libpq) and of the MongoDB Connection String Specification and its
Initial DNS Seedlist Discovery, quoted as they stand there.
"""

from __future__ import annotations

import contextlib
import pickle
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from linear import assert_linear

from urikit import URIError
from urikit.dsn import DSN, DSNHost, parse_dsn

# -- libpq -------------------------------------------------------------------------------

#: The URIs of the libpq documentation, and what libpq makes of them.
LIBPQ_EXAMPLES: list[tuple[str, dict[str, Any]]] = [
    ("postgresql://", {"hosts": ()}),
    ("postgresql://localhost", {"hosts": (("localhost", None),)}),
    ("postgresql://localhost:5433", {"hosts": (("localhost", 5433),)}),
    ("postgresql://localhost/mydb", {"database": "mydb"}),
    ("postgresql://user@localhost", {"user": "user", "password": None}),
    ("postgresql://user:secret@localhost", {"user": "user", "password": "secret"}),
    (
        "postgresql://other@localhost/otherdb?connect_timeout=10&application_name=myapp",
        {
            "user": "other",
            "database": "otherdb",
            "options": {"connect_timeout": "10", "application_name": "myapp"},
        },
    ),
    (
        "postgresql://host1:123,host2:456/somedb?target_session_attrs=any&application_name=myapp",
        {
            "hosts": (("host1", 123), ("host2", 456)),
            "database": "somedb",
            "options": {"target_session_attrs": "any", "application_name": "myapp"},
        },
    ),
    (
        "postgresql:///mydb?host=localhost&port=5433",
        {"hosts": (("localhost", 5433),), "database": "mydb", "options": {}},
    ),
    ("postgresql://[2001:db8::1234]/database", {"hosts": (("2001:db8::1234", None),)}),
    ("postgresql:///dbname?host=/var/lib/postgresql", {"hosts": (("/var/lib/postgresql", None),)}),
    ("postgresql://%2Fvar%2Flib%2Fpostgresql/dbname", {"hosts": (("/var/lib/postgresql", None),)}),
    ("postgres://localhost/mydb", {"scheme": "postgres", "profile": "postgresql"}),
]


@pytest.mark.parametrize(("text", "expected"), LIBPQ_EXAMPLES)
def test_the_libpq_examples(text: str, expected: dict[str, Any]) -> None:
    dsn = parse_dsn(text)
    assert dsn.profile == "postgresql" and dsn.text == text
    for name, value in expected.items():
        got = getattr(dsn, name)
        if name == "options":
            got = dict(got)
        assert got == value, name


def test_the_issues_example() -> None:
    dsn = parse_dsn("postgresql://u:p@h1:5432,h2:5433/db?sslmode=require")
    assert dsn.hosts == (DSNHost("h1", 5432), DSNHost("h2", 5433))
    assert (dsn.user, dsn.password, dsn.database) == ("u", "p", "db")
    assert dict(dsn.options) == {"sslmode": "require"}
    assert repr(dsn) == "DSN('postgresql://u:***@h1:5432,h2:5433/db?sslmode=require')"
    assert str(dsn) == "postgresql://u:***@h1:5432,h2:5433/db?sslmode=require"


@pytest.mark.parametrize(
    ("text", "hosts"),
    [
        # one port serves every host; otherwise one a host, an empty one the default
        ("postgresql:///db?host=a,b,c&port=5433", (("a", 5433), ("b", 5433), ("c", 5433))),
        ("postgresql:///db?host=a,b&port=1,2", (("a", 1), ("b", 2))),
        ("postgresql://h1,h2:5433/db", (("h1", None), ("h2", 5433))),
        ("postgresql://h1:5433/db?host=h2", (("h2", 5433),)),  # the query takes the URI's place
        ("postgresql://h1,,h2/db", (("h1", None), ("", None), ("h2", None))),
        ("postgresql://:5433/db", (("", 5433),)),  # the default socket, at that port
        ("postgresql://[::1]:5433,[fe80::1%25eth0]/db", (("::1", 5433), ("fe80::1%eth0", None))),
        ("postgresql:///db?host=@abstract", (("@abstract", None),)),
    ],
)
def test_libpq_hosts_and_ports(text: str, hosts: tuple[tuple[str, int | None], ...]) -> None:
    assert parse_dsn(text).hosts == hosts


@pytest.mark.parametrize(
    ("text", "host"),
    [
        ("postgresql://[fe80::1%25eth0]/", "fe80::1%eth0"),
        ("postgresql://[fe80::1%25en%2531]/", "fe80::1%en%31"),
        ("postgresql://[fe80::1%25eth%2D0]/", "fe80::1%eth-0"),  # decoded, as a name is
        ("postgresql://[v1.x]/", "v1.x"),
    ],
)
def test_the_zone_id_of_a_host_is_percent_decoded(text: str, host: str) -> None:
    """RFC 6874 §2: the zone ID follows "%25"; the host is given as RFC 4007 §11 writes it."""
    assert parse_dsn(text).hosts == (DSNHost(host, None),)


@pytest.mark.parametrize(
    "text", ["postgresql://[fe80::1%25a%00]/", "postgresql://[fe80::1%25%FF]/"]
)
def test_a_zone_id_is_refused_as_a_name_is(text: str) -> None:
    with pytest.raises(URIError) as caught:
        parse_dsn(text)
    assert caught.value.position == text.index("%25") + 3 and caught.value.rule == "ZoneID"


def test_sockets() -> None:
    dsn = parse_dsn("postgresql://h1,%2Frun%2Fpostgresql,/db")
    assert [h.is_socket for h in dsn.hosts] == [False, True, True]


def test_libpq_parameters_become_fields() -> None:
    dsn = parse_dsn("postgresql://u:pw1@h/d?user=v&password=pw2&dbname=e&ssl=true&x=%3D")
    assert (dsn.user, dsn.password, dsn.database) == ("v", "pw2", "e")
    assert dict(dsn.options) == {"sslmode": "require", "x": "="}  # JDBC's ssl=true (libpq)
    assert dsn.option_items[:3] == (("user", "v"), ("password", "pw2"), ("dbname", "e"))
    assert "pw1" not in repr(dsn) and "pw2" not in str(dsn)
    assert str(dsn) == "postgresql://u:***@h/d?user=v&password=***&dbname=e&ssl=true&x=%3D"


@pytest.mark.parametrize(
    ("text", "position", "rule"),
    [
        ("postgresql://h:99999/", 15, "port"),
        ("postgresql://h:0/", 15, "port"),
        ("postgresql://h:x/", 15, "port"),
        ("postgresql://h1:1,h2:2/db?port=1,2,3", 31, "port"),
        ("postgresql:///db?host=a,b&port=1,x", 31, "port"),
        ("postgresql://h/db?a", 18, "query"),  # libpq: missing key/value separator
        ("postgresql://h/db?a=b=c", 21, "query"),  # libpq: extra key/value separator
        ("postgresql://h/db?a=1&&b=2", 22, "query"),
        ("postgresql://h/db?a=%00", 20, "query"),
        ("postgresql://h/db?a=%zz", 21, "query"),
        ("postgresql://u@v@h/", 14, "userinfo"),
        ("postgresql://[::1/", 17, "IP-literal"),
        ("postgresql://[::1]x/", 18, "host"),
        ("postgresql://h/d b", 16, "segment"),
        ("postgresql://h/db#f", 17, "segment"),
        ("postgresql://a b/", 14, "host"),
        ("postgres:/h/", 0, "scheme"),
        ("mysql://h/", 0, "scheme"),
    ],
)
def test_libpq_errors_say_where(text: str, position: int, rule: str) -> None:
    with pytest.raises(URIError) as caught:
        parse_dsn(text)
    assert (caught.value.position, caught.value.rule) == (position, rule), caught.value.reason


def test_libpq_reads_an_empty_query_and_a_final_ampersand() -> None:
    assert dict(parse_dsn("postgresql://h/db?").options) == {}
    assert dict(parse_dsn("postgresql://h/db?a=1&").options) == {"a": "1"}


# -- MongoDB ------------------------------------------------------------------------------


def test_the_specs_general_syntax() -> None:
    dsn = parse_dsn(
        "mongodb://username:password@example.com:27017,example2.com:27017/database?key=value&keyN=valueN"
    )
    assert dsn.hosts == (("example.com", 27017), ("example2.com", 27017))
    assert (dsn.user, dsn.password, dsn.database) == ("username", "password", "database")
    assert dict(dsn.options) == {"key": "value", "keyn": "valueN"}  # keys compare in lower case
    assert dsn.option_items == (("key", "value"), ("keyN", "valueN"))


def test_the_specs_reference_implementation_example() -> None:
    dsn = parse_dsn(
        "mongodb://foo:bar%3A@mongodb.example.com,%2Ftmp%2Fmongodb-27018.sock/admin?w=1"
    )
    assert (dsn.user, dsn.password) == ("foo", "bar:")
    assert [h.host for h in dsn.hosts] == ["mongodb.example.com", "/tmp/mongodb-27018.sock"]
    assert [h.is_socket for h in dsn.hosts] == [False, True]
    assert (dsn.database, dict(dsn.options)) == ("admin", {"w": "1"})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("mongodb://a,b/", {"hosts": (("a", None), ("b", None))}),
        ("mongodb://localhost/admin%3F?w=1", {"database": "admin?", "options": {"w": "1"}}),
        ("mongodb://example.com?w=1", {"database": None, "options": {"w": "1"}}),
        (
            "mongodb://user:pass@%2Ftmp%2Fmongodb-27017.sock/authDB?replicaSet=rs",
            {"database": "authDB"},
        ),
        ("mongodb://[::1]:27017,10.0.0.1:27018/", {"hosts": (("::1", 27017), ("10.0.0.1", 27018))}),
        ("mongodb://kerberosuser%40EXAMPLE.COM@example.com/", {"user": "kerberosuser@EXAMPLE.COM"}),
        ("mongodb://u:@h/", {"user": "u", "password": ""}),
        (
            "mongodb+srv://myDatabaseUser:D1fficultP%40ssw0rd@mongodb0.example.com/?authSource=admin",
            {
                "profile": "mongodb+srv",
                "password": "D1fficultP@ssw0rd",
                "hosts": (("mongodb0.example.com", None),),
            },
        ),
        (
            "mongodb://h/?readPreferenceTags=dc:ny,rack:1&readPreferenceTags=dc:ny",
            {"options": {"readpreferencetags": "dc:ny"}},
        ),
        (
            "mongodb://h/?authMechanismProperties=TOKEN_RESOURCE:mongodb://foo",
            {"options": {"authmechanismproperties": "TOKEN_RESOURCE:mongodb://foo"}},
        ),
    ],
)
def test_mongodb_strings(text: str, expected: dict[str, Any]) -> None:
    dsn = parse_dsn(text)
    for name, value in expected.items():
        got = getattr(dsn, name)
        assert (dict(got) if name == "options" else got) == value, name


@pytest.mark.parametrize(
    "text",
    [
        "",
        "mongo://localhost:27017",
        "mongodb://",
        "mongodb://localhost::27017",
        "mongodb://::",
        "mongodb://localhost,localhost::",
        "mongodb://localhost:-1",
        "mongodb://localhost:0/",
        "mongodb://localhost:65536",
        "mongodb://localhost:foo",
        "mongodb://[::1]:0/",
        "mongodb://example.com/?w",
        "mongodb://alice:foo:bar@127.0.0.1",  # userinfo: more than one ":"
        "mongodb://alice@@127.0.0.1",  # an "@" in the userinfo
        "mongodb://alice@foo:bar@127.0.0.1",
        "mongodb://alice/@localhost/db",
        "mongodb://alice:foo/bar@localhost/db",
        "mongodb:///tmp/mongodb-27017.sock/",  # a socket path must be percent-encoded
        "mongodb://%2Ftmp%2Fmongodb",  # a socket path ends in ".sock"
        "mongodb://a,,b/",
        "mongodb://:p@h/",  # an empty user name
        "mongodb://h/a%2Fb",  # the database name holds no "/", "\\", " ", '"' or "$"
        "mongodb://h/a$b",
        "mongodb://h/?a=1&",
        "mongodb+srv://test5.test.mongodb.com,test6.test.mongodb.com",  # one host only
        "mongodb+srv://test7.test.mongodb.com:27018",  # no port
        "mongodb+srv://[::1]/",
        "mongodb+srv://%2Ftmp%2Fm.sock/",
    ],
)
def test_mongodb_refusals(text: str) -> None:
    with pytest.raises(URIError) as caught:
        parse_dsn(text)
    error = caught.value
    assert error.position is not None and 0 <= error.position <= len(text)
    assert error.rule is not None and error.reason


# -- the value -----------------------------------------------------------------------------


def test_passwords_never_show() -> None:
    for text in (
        "postgresql://u:hunter2@h/d",
        "postgresql://h/d?password=hunter2",
        "postgresql://h/d?sslpassword=hunter2",
        "mongodb://u:hunter2@h/",
        "mongodb://h/?tlsCertificateKeyFilePassword=hunter2",
        "mongodb://h/?authMechanismProperties=AWS_SESSION_TOKEN:hunter2",
    ):
        dsn = parse_dsn(text)
        assert (
            "hunter2" not in repr(dsn) and "hunter2" not in str(dsn) and "hunter2" not in f"{dsn}"
        )
        assert "hunter2" in dsn.text
        assert dsn.redacted("<hidden>").count("<hidden>") == 1


def test_value_laws() -> None:
    dsn = parse_dsn("mongodb://u:p@a:1,b:2/db?w=1")
    assert pickle.loads(pickle.dumps(dsn)) == dsn
    assert dsn == parse_dsn(dsn.text) and hash(dsn) == hash(dsn.text)
    assert dsn != parse_dsn("mongodb://u:p@a:1,b:2/db?w=2")
    with pytest.raises(AttributeError):
        dsn.user = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        dsn.options["w"] = "2"  # type: ignore[index]
    host, port = dsn.hosts[0]
    assert (host, port) == ("a", 1)
    assert isinstance(dsn, DSN) and DSN(dsn.text) == dsn
    with pytest.raises(URIError):
        DSN("mysql://h/")


def test_non_text_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        parse_dsn(b"postgresql://h/")  # type: ignore[arg-type]


# -- laws ------------------------------------------------------------------------------------

NAMES = st.from_regex(r"[a-z][a-z0-9-]{0,8}(\.[a-z]{2,4})?", fullmatch=True)
PORTS = st.none() | st.integers(1, 65535)


@given(
    st.lists(st.tuples(NAMES, PORTS), min_size=1, max_size=5),
    st.sampled_from(["postgresql", "mongodb"]),
)
def test_hosts_written_are_read_back(hosts: list[tuple[str, int | None]], scheme: str) -> None:
    written = ",".join(h if p is None else f"{h}:{p}" for h, p in hosts)
    dsn = parse_dsn(f"{scheme}://user:pw@{written}/db?x=1")
    assert dsn.hosts == tuple(hosts)
    assert (dsn.user, dsn.password, dsn.database) == ("user", "pw", "db")


@given(st.text(alphabet="pmostgrea+db:/@,[]%2F1?=&#sk.", max_size=40))
def test_only_uri_errors_escape(text: str) -> None:
    try:
        dsn = parse_dsn(text)
    except URIError as error:
        assert error.position is not None and 0 <= error.position <= len(text)
        return
    assert dsn.text == text
    assert parse_dsn(dsn.text) == dsn
    for host in dsn.hosts:
        assert host.port is None or 1 <= host.port <= 65535


def test_linear_time() -> None:
    for make in (
        lambda n: "postgresql://" + "h," * n,
        lambda n: "mongodb://" + "h:1," * n + "/",
        lambda n: "postgresql://h/db?" + "a=1&" * n,
        lambda n: "mongodb://" + "[" * n,
        lambda n: "postgresql://" + "@" * n,
    ):
        assert_linear(make, _parse_or_refuse)


def _parse_or_refuse(text: str) -> None:
    with contextlib.suppress(URIError):
        parse_dsn(text)
