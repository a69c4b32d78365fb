"""JSON Schema formats of URIs, IRIs and URI Templates (the optional extra ``urikit[jsonschema]``).

:data:`format_checker` is a ``jsonschema.FormatChecker`` that knows every
format ``jsonschema`` knows, with the five of JSON Schema 2020-12 Validation
§7.3.5 and §7.3.6 checked by urikit's grammar:

=================  =========================================================
``uri``            RFC 3986 ``URI`` (§3): a scheme, a fragment allowed
``uri-reference``  RFC 3986 ``URI-reference`` (§4.1)
``iri``            RFC 3987 ``IRI`` (§2.2)
``iri-reference``  RFC 3987 ``IRI-reference`` (§2.2)
``uri-template``   RFC 6570 ``URI-Template`` (§2), of any level (§1.2), the
                   grammar of :mod:`urikit.template` (with erratum 6937)
=================  =========================================================

A value that is not a string passes, as every string format does (§7.1).

>>> from jsonschema import Draft202012Validator
>>> validator = Draft202012Validator({"format": "uri"}, format_checker=format_checker)
>>> validator.is_valid("http://a/b"), validator.is_valid("http://a/\\n")
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from jsonschema import FormatChecker

from ._seam import Store
from .template.backend import template_format
from .validate import is_valid

__all__ = ["FORMATS", "format_checker"]


def _rule_checker(rule: str) -> Callable[[object], bool]:
    """The check of ``rule`` for any instance; with the compiled core a str is decided in
    C, without a Python frame (``Store._rule_validator``)."""

    def conforms(instance: object) -> bool:
        # not a string: no string format applies (JSON Schema Validation §7.1)
        return is_valid(instance, rule) if isinstance(instance, str) else True

    conforms.__name__ = "is_" + rule.lower().replace("-", "_")
    conforms.__doc__ = f"Is a string instance an RFC {'3987' if 'I' in rule else '3986'} {rule}?"
    return Store._rule_validator(rule, conforms)


#: Each format and the function that checks it; a non-string instance passes.
FORMATS: Final[dict[str, Callable[[object], bool]]] = {
    "uri": _rule_checker("URI"),
    "uri-reference": _rule_checker("URI-reference"),
    "iri": _rule_checker("IRI"),
    "iri-reference": _rule_checker("IRI-reference"),
    "uri-template": template_format,
}

#: A ``jsonschema.FormatChecker``: jsonschema's own checkers, with urikit's for
#: the formats of :data:`FORMATS`.  Pass it as ``format_checker=`` to a validator.
format_checker: Final = FormatChecker()
for _name, _function in FORMATS.items():
    format_checker.checks(_name)(_function)
