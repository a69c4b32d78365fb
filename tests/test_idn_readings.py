"""The RFC side converts internationalized hosts as browsers do (UTS #46, URL Standard §3.3).

``IRI.to_uri(idna=True)`` (RFC 3987 §3.1), ``same_origin`` (RFC 6454) and the
``idna`` normalization step agree with ``urikit.whatwg.URL`` on every name of the
web-platform-tests' ``toascii.json`` and ``IdnaTestV2.json`` that an IRI can hold as
its host: the same A-labels where UTS #46 accepts the name, a ``URIError`` where it
refuses it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from urikit import IRI, URI, URIError, normalize, same_origin
from urikit.whatwg import URL

WPT = Path(__file__).parent / "vectors" / "wpt"
#: The characters of a reg-name but "%" (RFC 3986 §3.2.2).
REG_NAME = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;="
)


def _names() -> list[tuple[str, str | None]]:
    """Each non-ASCII name of the two files that is an ireg-name, with the URL Standard's
    ASCII form of it (None where its host parser fails)."""
    names: dict[str, str | None] = {}
    for file in ("toascii.json", "IdnaTestV2.json"):
        for case in json.loads((WPT / file).read_text(encoding="utf-8")):
            if not isinstance(case, dict) or case["input"].isascii():
                continue
            text = case["input"]
            try:
                iri = IRI(f"http://{text}/")
            except URIError:
                continue
            if iri.host_type == "reg-name" and iri.host == text:
                names[text] = case["output"]
    return sorted(names.items())


NAMES = _names()


def test_there_are_names_both_ways() -> None:
    assert sum(out is not None for _, out in NAMES) > 300
    assert sum(out is None for _, out in NAMES) > 300


@pytest.mark.parametrize(("name", "output"), NAMES)
def test_to_uri_idna_and_same_origin_agree_with_the_url_standard(
    name: str, output: str | None
) -> None:
    iri = IRI(f"http://{name}/")
    if output is None:
        assert not URL.can_parse(f"http://{name}/")
        with pytest.raises(URIError):
            iri.to_uri(idna=True)
        return
    assert URL(f"http://{name}/").hostname == output
    if not REG_NAME.issuperset(output):
        with pytest.raises(URIError, match="reg-name"):
            iri.to_uri(idna=True)
        return
    host = iri.to_uri(idna=True).host
    assert host is not None and host.lower() == output
    assert same_origin(iri, URI(f"http://{output}/"))
    assert same_origin(iri.to_uri(), URI(f"http://{output}/"))  # percent-encoded UTF-8
    assert normalize(iri, idna="a-label").host == output


def test_the_issues_examples() -> None:
    """Symbol and emoji names, which IDNA 2008 refuses and browsers accept."""
    assert same_origin("http://i%E2%9D%A4.ws/", "http://xn--i-7iq.ws/")
    assert str(IRI("https://i\u2764.ws/").to_uri(idna=True)) == "https://xn--i-7iq.ws/"
    assert str(URI("https://xn--i-7iq.ws/").to_iri(idna=True)) == "https://i\u2764.ws/"
    assert str(normalize("http://XN--I-7IQ.ws/", idna="u-label")) == "http://i\u2764.ws/"
