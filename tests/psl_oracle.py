"""The Public Suffix List's formal algorithm, transcribed as publicsuffix.org writes it.

An oracle for ``urikit.sites``: slow and plain.  The list is read line by line; the
domain and every rule are canonicalized "in the normal way for hostnames - lower-case,
Punycode (RFC 3492)"; every rule is matched against the domain; steps 2-5 choose the
prevailing rule.  One reading is added, the one browsers and the list's linter make
(``docs/deviations.md``): a wildcard rule ``*.X`` also stands for the rule ``X``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class OracleRule:
    labels: tuple[str, ...]  # canonical labels, left to right; "*" for a wildcard
    exception: bool
    icann: bool


def canonical(label: str) -> str:
    """A label in lower case and Punycode (RFC 3492)."""
    label = label.lower()
    if label.isascii():
        return label
    return "xn--" + label.encode("punycode").decode("ascii")


def read_list(text: str) -> list[OracleRule]:
    """Each line up to its first white space; "//" begins a comment; "!" an exception."""
    rules = []
    icann = False
    for line in text.split("\n"):
        words = line.split()
        if not words:
            continue
        if words[0].startswith("//"):
            if "===BEGIN ICANN DOMAINS===" in line:
                icann = True
            elif "===END ICANN DOMAINS===" in line:
                icann = False
            continue
        rule = words[0]
        exception = rule.startswith("!")
        labels = tuple(canonical(label) for label in rule.removeprefix("!").split("."))
        rules.append(OracleRule(labels, exception, icann))
        if labels[0] == "*" and not exception and len(labels) > 1:
            rules.append(OracleRule(labels[1:], False, icann))  # *.X stands for X too
    return rules


def matches(domain: list[str], rule: OracleRule) -> bool:
    """The domain has as many labels as the rule or more, and from the right each label
    of the rule is the domain's label or "*"."""
    if len(domain) < len(rule.labels):
        return False
    pairs = zip(reversed(domain), reversed(rule.labels), strict=False)
    return all(mine == theirs or theirs == "*" for mine, theirs in pairs)


class OracleList:
    """The rules of a list, found by their last label (only to spare time: every rule
    whose last label is the domain's, or "*", is still matched as the algorithm says)."""

    def __init__(self, text: str) -> None:
        self.by_last: dict[str, list[OracleRule]] = {}
        for rule in read_list(text):
            self.by_last.setdefault(rule.labels[-1], []).append(rule)

    def rules_for(self, labels: list[str]) -> list[OracleRule]:
        return [*self.by_last.get(labels[-1], []), *self.by_last.get("*", [])]


def public_suffix_length(domain: str, rules: OracleList, *, private: bool = True) -> int:
    """How many labels of ``domain`` (a name with no empty label) its public suffix has."""
    labels = [canonical(label) for label in domain.split(".")]
    # 1. Match domain against all rules and take note of the matching ones.
    candidates = rules.rules_for(labels)
    matching = [r for r in candidates if (private or r.icann) and matches(labels, r)]
    # 2. If no rules match, the prevailing rule is "*".
    if not matching:
        return 1
    # 3. If more than one rule matches, the prevailing rule is the one which is an
    #    exception rule.
    exceptions = [r for r in matching if r.exception]
    if exceptions:
        prevailing = max(exceptions, key=lambda r: len(r.labels))
        # 5. If the prevailing rule is an exception rule, modify it by removing the
        #    leftmost label.
        return len(prevailing.labels) - 1
    # 4. If there is no matching exception rule, the prevailing rule is the one with
    #    the most labels.  ("*" matches a domain of one label or more, so it never
    #    prevails over a rule that matches.)
    return max(len(r.labels) for r in matching)


def registrable_domain(domain: str, rules: OracleList, *, private: bool = True) -> str | None:
    """6, 7: the public suffix is the labels of the prevailing rule, the registrable
    domain the public suffix plus one additional label (in the domain's spelling)."""
    labels = domain.split(".")
    count = public_suffix_length(domain, rules, private=private) + 1
    return ".".join(labels[-count:]).lower() if len(labels) >= count else None


def public_suffix(domain: str, rules: OracleList, *, private: bool = True) -> str:
    labels = domain.split(".")
    return ".".join(labels[-public_suffix_length(domain, rules, private=private) :]).lower()
