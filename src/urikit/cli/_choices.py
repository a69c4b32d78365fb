"""Option values matched without regard to case (RFC 5234 §2.1: rule names are
case-insensitive), as ``argparse`` types that give the canonical spelling."""

from __future__ import annotations

from collections.abc import Callable, Iterable


def case_insensitive(choices: Iterable[str]) -> Callable[[str], str]:
    """An ``argparse`` type: the choice equal to the value but for case, else the value."""
    canonical = {choice.lower(): choice for choice in choices}

    def choose(value: str) -> str:
        return canonical.get(value.lower(), value)

    return choose
