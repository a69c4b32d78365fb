"""The classified vector lists, each vector checked against every classifier.

``vectors/uri_syntax.json``: references with their validity for URI,
URI-reference, absolute-URI and relative-ref, their components and host type.
``vectors/rule_syntax.json``: inputs with their validity for one ABNF rule.
Every vector is also checked against the independent transcription of
RFC 3986 Appendix A (``abnf_oracle``), so a disagreement shows which side
is wrong.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import abnf_oracle as oracle
import pytest
from strategies import recompose

from urikit import URI, URIError, is_valid
from urikit.validate import check

VECTORS = Path(__file__).resolve().parent / "vectors"
COMPONENTS = ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment")


def _load(name: str) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads((VECTORS / name).read_text(encoding="utf-8"))
    return data


URI_VECTORS = _load("uri_syntax.json")
RULE_VECTORS = _load("rule_syntax.json")


def _id(vector: dict[str, Any]) -> str:
    text = vector["input"]
    shown = text if len(text) < 60 and text.isprintable() else ascii(text[:60])
    return f"{vector.get('rule', 'ref')}:{shown}"


def test_the_lists_are_classified() -> None:
    assert len(URI_VECTORS) > 100 and len(RULE_VECTORS) > 100
    assert any(v["valid"]["URI-reference"] for v in URI_VECTORS)
    assert any(not v["valid"]["URI-reference"] for v in URI_VECTORS)
    for v in URI_VECTORS:
        valid = v["valid"]
        # URI-reference = URI / relative-ref (§4.1); an absolute-URI is a URI (§4.3)
        assert valid["URI-reference"] == (valid["URI"] or valid["relative-ref"]), v
        assert not (valid["URI"] and valid["relative-ref"]), v
        assert valid["URI"] or not valid["absolute-URI"], v
        assert (v["components"] is not None) == valid["URI-reference"], v
    for rule in {v["rule"] for v in RULE_VECTORS}:
        kinds = {v["valid"] for v in RULE_VECTORS if v["rule"] == rule}
        assert kinds == {True, False}, rule


@pytest.mark.parametrize("vector", URI_VECTORS, ids=_id)
def test_uri_vector(vector: dict[str, Any]) -> None:
    text = vector["input"]
    valid: dict[str, bool] = vector["valid"]
    for rule, expected in valid.items():
        assert oracle.matches(text, rule) == expected, (
            f"the vector disagrees with Appendix A: {rule}"
        )
        assert is_valid(text, rule) == expected, rule
        if not expected:
            with pytest.raises(URIError) as info:
                check(text, rule)
            assert info.value.position == oracle.error_position(text, rule)[0], rule
    if valid["URI-reference"]:
        u = URI(text)
        assert str(u) == text
        assert u.is_relative == valid["relative-ref"]
        assert u.is_absolute == valid["absolute-URI"]
        expected_components = vector["components"]
        assert expected_components is not None
        assert {name: getattr(u, name) for name in COMPONENTS} == expected_components
        assert recompose(expected_components) == text  # §5.3
        assert u.host_type == vector["host_type"]
    else:
        with pytest.raises(URIError) as info:
            URI(text)
        assert info.value.position == oracle.error_position(text)[0]


@pytest.mark.parametrize("vector", RULE_VECTORS, ids=_id)
def test_rule_vector(vector: dict[str, Any]) -> None:
    text, rule, expected = vector["input"], vector["rule"], vector["valid"]
    assert oracle.matches(text, rule) == expected, "the vector disagrees with Appendix A"
    assert is_valid(text, rule) == expected
    if expected:
        check(text, rule)
    else:
        with pytest.raises(URIError) as info:
            check(text, rule)
        assert info.value.position == oracle.error_position(text, rule)[0]
    if rule == "host" and expected:
        u = URI(f"//{text}")
        assert u.host == text
    if rule == "IPv6address" and expected:
        assert URI(f"//[{text}]").host_type == "ipv6"
    if rule == "IPv4address" and expected:
        assert URI(f"//{text}").host_type == "ipv4"
