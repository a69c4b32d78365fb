"""The methods on URI and IRI take the parameters of the functions they wrap.

A convenient method (``u.resolve(ref)``) and the function it stands for
(``urikit.resolve(base, ref)``, ``urikit.query.query_params(query, ...)``)
must not drift apart: after the first parameter (the reference, or the
component it reads), the names, kinds, defaults and annotations agree.
Parameters that the method fills in from the reference itself are listed.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

import urikit
from urikit import IRI, URI
from urikit import paths as paths_module
from urikit import query as query_module

#: (method name, function, parameters the method supplies from the reference)
WRAPPED: list[tuple[str, Callable[..., Any], frozenset[str]]] = [
    ("resolve", urikit.resolve, frozenset()),
    ("relativize", urikit.relativize, frozenset()),
    ("normalize", urikit.normalize, frozenset()),
    ("query_params", query_module.query_params, frozenset()),
    ("query_param", query_module.query_param, frozenset()),
    ("query_param_all", query_module.query_param_all, frozenset()),
    ("has_query_param", query_module.has_query_param, frozenset()),
    ("add_query_param", query_module.add_query_param, frozenset({"iri"})),
    ("set_query_param", query_module.set_query_param, frozenset({"iri"})),
    ("remove_query_param", query_module.remove_query_param, frozenset()),
    ("remove_query_params", query_module.remove_query_params, frozenset()),
    ("update_query_params", query_module.update_query_params, frozenset({"iri"})),
    ("segments", paths_module.segments, frozenset()),
]


def _parameters(
    function: Callable[..., Any], skip_first: bool, supplied: frozenset[str]
) -> list[tuple[str, Any, Any, Any]]:
    params = list(inspect.signature(function).parameters.values())
    if skip_first:
        params = params[1:]
    return [
        (p.name, p.kind, p.default, str(p.annotation)) for p in params if p.name not in supplied
    ]


@pytest.mark.parametrize(("name", "function", "supplied"), WRAPPED, ids=[w[0] for w in WRAPPED])
@pytest.mark.parametrize("cls", [URI, IRI])
def test_method_takes_the_functions_parameters(
    cls: type[URI | IRI], name: str, function: Callable[..., Any], supplied: frozenset[str]
) -> None:
    method = getattr(cls, name)
    assert _parameters(method, True, frozenset()) == _parameters(function, True, supplied)


def test_with_query_params_takes_the_functions_parameters() -> None:
    # The function builds a whole query, so it has no first argument to skip.
    method = _parameters(URI.with_query_params, True, frozenset())
    assert method == _parameters(query_module.with_query_params, False, frozenset({"iri"}))
