"""urikit.pydantic: PublicHttpURL and the host, userinfo and port constraints."""

from __future__ import annotations

from typing import Annotated, Any

import pytest
from test_names import INTERNAL_SPELLINGS

from urikit import URI

pydantic = pytest.importorskip("pydantic")

from pydantic import BaseModel, TypeAdapter, ValidationError  # noqa: E402

from urikit.pydantic import HttpURL, PublicHttpURL, URIConstraints  # noqa: E402

PUBLIC = TypeAdapter(PublicHttpURL)


def refusal(adapter: TypeAdapter[Any], text: str) -> dict[str, Any]:
    with pytest.raises(ValidationError) as caught:
        adapter.validate_python(text)
    [error] = caught.value.errors(include_url=False)
    return dict(error)


@pytest.mark.parametrize(
    "text",
    [
        "https://example.com/",
        "HTTP://Example.COM:8080/a?b#c",
        "https://www.example.com./",
        "http://93.184.215.14/",
        "http://[2606:4700:4700::1111]:443/",
        "https://xn--bcher-kva.de/",
        "http://%65xample.com/",
    ],
)
def test_public_urls_pass_as_written(text: str) -> None:
    assert PUBLIC.validate_python(text) == URI(text)
    assert PUBLIC.validate_json(f'"{text}"') == URI(text)


@pytest.mark.parametrize(
    ("text", "kind", "position"),
    [
        ("http://-x/", "uri_not_dns_name", 7),
        ("http://a..b/", "uri_not_dns_name", 9),
        ("http://" + "a" * 70 + ".com/", "uri_not_dns_name", 7),
        ("http://ok.a_b.com/", "uri_not_dns_name", 10),
        ("http://localhost/", "uri_reserved_name", 7),
        ("http://api.localhost:3000/", "uri_reserved_name", 7),
        ("http://printer.local/", "uri_reserved_name", 7),
        ("http://db.internal/", "uri_reserved_name", 7),
        ("http://a.test/", "uri_reserved_name", 7),
        ("http://x.invalid/", "uri_reserved_name", 7),
        ("http://intranet/", "uri_single_label", 7),
        ("http://u@example.com/", "uri_userinfo", 7),
        ("http://user:secret@example.com/", "uri_userinfo", 7),
        ("http://example.com:0/", "uri_port", 19),
        ("http://example.com:65536/", "uri_port", 19),
        ("http://[v1.x]/", "uri_not_an_address", 7),
        ("ftp://example.com/", "uri_scheme", 0),
        ("http:///a", "uri_host", 7),
    ],
)
def test_refusals_name_the_reason(text: str, kind: str, position: int) -> None:
    error = refusal(PUBLIC, text)
    assert error["type"] == kind
    assert error["ctx"]["position"] == position
    assert error["msg"] == error["ctx"]["reason"]
    assert "secret" not in str(error["msg"])


@pytest.mark.parametrize("host", [h for h in INTERNAL_SPELLINGS if h.isascii()])
def test_internal_addresses_are_refused_in_any_spelling(host: str) -> None:
    error = refusal(PUBLIC, f"http://{host}/x")
    assert error["type"] == "uri_internal_address"
    assert error["ctx"]["code"] == "internal-address"
    assert error["ctx"]["address"]
    assert "internal address" in error["msg"]


def test_the_refusal_reads_in_a_model() -> None:
    class Hook(BaseModel):
        url: PublicHttpURL

    with pytest.raises(ValidationError) as caught:
        Hook(url="http://169.254.169.254/latest/meta-data/")
    text = str(caught.value)
    assert "uri_internal_address" in text and "169.254.0.0/16, Link Local" in text


def test_ports_narrow_the_field() -> None:
    https_only = TypeAdapter(Annotated[PublicHttpURL, URIConstraints(ports={443, 8443})])
    assert https_only.validate_python("https://example.com/") == "https://example.com/"
    assert https_only.validate_python("http://example.com:8443/") == "http://example.com:8443/"
    error = refusal(https_only, "http://example.com/")
    assert error["type"] == "uri_port" and "default port 80" in error["msg"]
    assert error["ctx"]["allowed"] == "443 or 8443"
    error = refusal(https_only, "https://example.com:444/")
    assert error["msg"] == "the port 444 is not allowed (443 or 8443)"


def test_a_scheme_without_a_default_port_needs_one_when_ports_are_given() -> None:
    field = TypeAdapter(Annotated[URI, URIConstraints(ports=range(1, 1024))])
    assert field.validate_python("foo://h:22/") == "foo://h:22/"
    error = refusal(field, "foo://h/")
    assert error["type"] == "uri_port" and "no default port" in error["msg"]
    assert field.validate_python("mailto:a@example.com") == "mailto:a@example.com"  # no host


def test_dns_host_takes_addresses_as_written_and_names_that_are_dns_names() -> None:
    field = TypeAdapter(Annotated[HttpURL, URIConstraints(dns_host=True)])
    for text in ("http://example.com/", "http://127.0.0.1/", "http://[::1]/", "http://intranet/"):
        assert field.validate_python(text) == text
    for text in ("http://-x/", "http://a..b/", "http://0x7f.1/", "http://a_b/"):
        assert refusal(field, text)["type"] == "uri_not_dns_name"


def test_userinfo_false_alone() -> None:
    field = TypeAdapter(Annotated[URI, URIConstraints(userinfo=False)])
    assert field.validate_python("//h/") == "//h/"
    assert refusal(field, "//u@h/")["type"] == "uri_userinfo"


def test_public_host_works_on_iris() -> None:
    from urikit import IRI

    field = TypeAdapter(Annotated[IRI, URIConstraints(public_host=True)])
    assert field.validate_python("http://b\u00fccher.de/") == IRI("http://b\u00fccher.de/")
    assert refusal(field, "http://\uff45\uff58.com/")["type"] == "uri_not_dns_name"
    assert refusal(field, "http://\uff11\uff12\uff17.1/")["type"] == "uri_internal_address"


def test_constraints_combine() -> None:
    a = URIConstraints(ports={80, 443}, userinfo=False)
    b = URIConstraints(ports=range(400, 500), dns_host=True)
    both = a._narrowed(b)
    assert both.ports == frozenset({443})
    assert not both.userinfo and both.dns_host and not both.public_host
    assert URIConstraints(ports=range(1, 100))._narrowed(
        URIConstraints(ports=range(50, 200))
    ).ports == range(50, 100)
    with pytest.raises(ValueError, match="none in common"):
        a._narrowed(URIConstraints(ports={8080}))
    assert repr(both) == "URIConstraints(dns_host=True, userinfo=False, ports=frozenset({443}))"
    assert both == URIConstraints(dns_host=True, userinfo=False, ports=[443])
    assert hash(both) == hash(URIConstraints(dns_host=True, userinfo=False, ports={443}))


@pytest.mark.parametrize("ports", [{-1}, {65536}, range(0, 70000), {"80"}, set(), 443, "443"])
def test_bad_ports_are_refused_when_declared(ports: Any) -> None:
    with pytest.raises((TypeError, ValueError)):
        URIConstraints(ports=ports)


# -- sites (issue 31 item 1: registrable domains, once the sites issue landed) ---------------

ON_SITES = TypeAdapter(
    Annotated[HttpURL, URIConstraints(sites={"example.co.uk", "https://a.github.io/"})]
)


@pytest.mark.parametrize(
    "text",
    [
        "https://example.co.uk/",
        "https://www.example.co.uk/a",
        "http://login.example.co.uk:8080/",
        "HTTPS://Shop.Example.CO.UK/",
        "https://a.github.io/page",
    ],
)
def test_sites_take_each_site_and_its_hosts(text: str) -> None:
    assert ON_SITES.validate_python(text) == URI(text)
    assert ON_SITES.validate_json(f'"{text}"') == URI(text)


@pytest.mark.parametrize(
    ("text", "site", "position"),
    [
        ("https://evil.co.uk/", "https://evil.co.uk", 8),
        ("https://example.co.uk.evil.example/", "https://evil.example", 8),
        ("https://b.github.io/", "https://b.github.io", 8),
        ("http://a.github.io/", "http://a.github.io", 7),  # named by a URL: its scheme too
        ("https://www.example.co.uk./", "https://example.co.uk.", 8),
    ],
)
def test_sites_refuse_other_sites_with_the_reason(text: str, site: str, position: int) -> None:
    error = refusal(ON_SITES, text)
    assert error["type"] == "uri_site"
    assert error["ctx"]["position"] == position and error["ctx"]["rule"] == "host"
    assert error["ctx"]["allowed"] == ["example.co.uk", "https://a.github.io"]
    assert f"is on the site {site!r}, which is not allowed" in error["msg"]


def test_sites_refuse_a_reference_without_a_site() -> None:
    field = TypeAdapter(Annotated[URI, URIConstraints(sites=["example.com"])])
    for text in ("/a", "mailto:a@example.com", "//www.example.com/"):
        error = refusal(field, text)
        assert error["type"] == "uri_site" and "on no site" in error["msg"]


def test_sites_combine_and_compare() -> None:
    both = URIConstraints(sites=["example.com", "example.org"])._narrowed(
        URIConstraints(sites=["https://www.example.com/"])
    )
    assert repr(both) == "URIConstraints(sites=('https://example.com',))"
    assert both == URIConstraints(sites=["https://example.com"])
    assert hash(both) == hash(URIConstraints(sites=[URI("https://example.com/")]))
    with pytest.raises(ValueError, match="none in common"):
        URIConstraints(sites=["example.com"])._narrowed(URIConstraints(sites=["example.org"]))
    field = TypeAdapter(
        Annotated[
            Annotated[HttpURL, URIConstraints(sites=["example.com"])],
            URIConstraints(sites=["https://example.com"]),
        ]
    )
    assert field.validate_python("https://api.example.com/") == URI("https://api.example.com/")
    assert refusal(field, "http://api.example.com/")["type"] == "uri_site"


@pytest.mark.parametrize(
    "sites", ["example.com", ["www.example.com"], ["co.uk"], ["github.io"], [], [42], 42]
)
def test_bad_sites_are_refused_when_declared(sites: Any) -> None:
    with pytest.raises((TypeError, ValueError)):
        URIConstraints(sites=sites)


def test_json_schema_stays_uri() -> None:
    assert PUBLIC.json_schema() == {"format": "uri", "type": "string"}


# -- multi-host connection strings (urikit.dsn) ----------------------------------------


def test_postgres_and_multi_host_dsn_fields() -> None:
    from urikit.dsn import DSN, DSNHost, parse_dsn
    from urikit.pydantic import MultiHostDsn, PostgresDsn

    class Settings(BaseModel):
        database: PostgresDsn
        cache: MultiHostDsn | None = None

    text = "postgresql://app:s3cret@db1:5432,db2:5433/app?sslmode=require"
    settings = Settings(database=text, cache="mongodb://a,b:27018/?replicaSet=rs")
    assert isinstance(settings.database, DSN)
    assert settings.database.hosts == (DSNHost("db1", 5432), DSNHost("db2", 5433))
    assert "s3cret" not in repr(settings) and "s3cret" not in str(settings)
    # serialized as written, the password included: the connection needs it
    assert settings.model_dump()["database"] == text
    assert Settings.model_validate_json(settings.model_dump_json()) == settings
    assert Settings(database=parse_dsn(text)).database == settings.database
    schema = Settings.model_json_schema()["properties"]["database"]
    assert schema == {"format": "multi-host-uri", "title": "Database", "type": "string"}


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("mongodb://a,b/", "dsn_scheme"),
        ("postgresql://h:99999/db", "dsn_syntax"),
        ("http://h/", "dsn_syntax"),
    ],
)
def test_dsn_refusals(text: str, kind: str) -> None:
    from urikit.pydantic import PostgresDsn

    error = refusal(TypeAdapter(PostgresDsn), text)
    assert error["type"] == kind
    assert error["ctx"]["position"] is not None and error["ctx"]["rule"]


def test_dsn_type_error() -> None:
    from urikit.pydantic import MultiHostDsn

    assert refusal(TypeAdapter(MultiHostDsn), 12)["type"] == "dsn_type"  # type: ignore[arg-type]
