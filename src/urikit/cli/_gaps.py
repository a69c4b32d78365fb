"""Names the command needs that urikit's public API does not offer.

``validate --rule`` takes any rule of the grammar and, for an input that does
not match it, says where and why: the rule names are the keys of
``urikit.grammar.RULES``, and ``urikit.validate.check`` is the one function
that locates the error for any rule (``urikit.is_valid`` only answers yes or no).
"""

from __future__ import annotations

from ..grammar import RULES
from ..validate import check

__all__ = ["RULE_NAMES", "check"]

#: The ABNF rules of RFC 3986 Appendix A, RFC 6874 and RFC 3987 §2.2, sorted.
RULE_NAMES: tuple[str, ...] = tuple(sorted(RULES))
