"""URI Templates (RFC 6570): expand, match a URI back to its variables, and route.

:class:`URITemplate` reads a template once (§2) and raises :class:`TemplateError`
(a :class:`urikit.URIError`) with the position, the rule and a caret where it
leaves the grammar.  ``expand`` is §3 exactly; ``partial`` expands some of the
variables and keeps the rest as a template; ``match`` is expansion read
backwards, refusing what it would have to guess and, unless asked, values
that decode to dot-segments or hold U+0000.  :class:`Router` matches a URI
against many templates at once: the most specific one wins.  :func:`is_template`
says whether a text is a template without building one.  The syntax check and the
router's matching are written twice, readable and in C, chosen in
``urikit.template.backend``.

>>> from urikit.template import URITemplate
>>> URITemplate("/users/{id}{?fields*}").expand(id=42, fields={"name": "a b"})
'/users/42?name=a%20b'
"""

from __future__ import annotations

from .backend import error_position, is_template, template_format
from .matching import MatchValue
from .routing import CompiledRouter, RouteMatch, Router
from .syntax import TemplateError
from .value import URITemplate

__all__ = [
    "CompiledRouter",
    "MatchValue",
    "RouteMatch",
    "Router",
    "TemplateError",
    "URITemplate",
    "error_position",
    "is_template",
    "template_format",
]
