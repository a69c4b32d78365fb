"""Reference resolution, RFC 3986 §5.2, and its inverse, relativization.

The functions work on the components of references (:class:`~urikit.components.Parts`)
and return the text of the result; ``URI.resolve`` and ``urikit.resolve`` parse
it.  One implementation serves URIs and IRIs (RFC 3987 §6.5).  The sections of
§5.2 follow in order: §5.2.1 the base, §5.2.2 the transformation, §5.2.3
merge, §5.2.4 remove_dot_segments; §5.3 recomposition is
:func:`~urikit.components.recompose`.

The two cases the RFC leaves open are answered as ``docs/deviations.md`` records:

* a target with no authority whose path begins with "//" (base ``foo:/a``,
  reference ``..//b``) would recompose (§5.3) to text that reads back with an
  authority.  The path is written with a "/." prefix instead (``foo:/.//b``):
  that names the same path, since remove_dot_segments maps it back.
* ".." above the first segment of a rootless path follows §5.2.4 as written
  (base ``foo:a/b``, reference ``../../c`` gives ``foo:/c``): that is a URI.
"""

from __future__ import annotations

from .components import Parts, recompose, split
from .errors import URIError
from .grammar import Grammar

__all__ = [
    "check_base",
    "merge",
    "relative_path",
    "relativize",
    "remove_dot_segments",
    "rooted_path",
    "transform_references",
]


# RFC 3986 5.2.1. Pre-parse the Base URI
def check_base(base: Parts) -> None:
    """A base URI must be absolute: it needs a scheme (§5.1, §5.2.1).

    Its fragment, if any, is ignored by resolution, so it is accepted here.
    """
    if base.scheme is None:
        raise URIError(
            "a base URI must be absolute (RFC 3986 §5.1): it needs a scheme, and this "
            "reference has none; resolve it against an absolute base first",
            text=base.text(),
            position=0,
            rule="absolute-URI",
        )


# RFC 3986 5.2.2. Transform References
def transform_references(base: Parts, ref: Parts, *, strict: bool = True) -> str:
    """The target of ``ref`` against the absolute ``base``, as text (§5.2.2, §5.3).

    ``strict=False`` ignores a scheme in ``ref`` equal to the scheme of
    ``base`` (the loophole of §5.2.2 for backward compatibility).
    """
    r_scheme = ref.scheme
    if not strict and r_scheme is not None and r_scheme.lower() == str(base.scheme).lower():
        r_scheme = None
    t_scheme: str | None
    if r_scheme is not None:
        t_scheme = r_scheme
        t_authority = ref.authority
        t_path = remove_dot_segments(ref.path)
        t_query = ref.query
    else:
        if ref.authority is not None:
            t_authority = ref.authority
            t_path = remove_dot_segments(ref.path)
            t_query = ref.query
        else:
            if ref.path == "":
                t_path = base.path
                t_query = ref.query if ref.query is not None else base.query
            else:
                if ref.path.startswith("/"):
                    t_path = remove_dot_segments(ref.path)
                else:
                    t_path = merge(base.authority, base.path, ref.path)
                    t_path = remove_dot_segments(t_path)
                t_query = ref.query
            t_authority = base.authority
        t_scheme = base.scheme
    t_fragment = ref.fragment
    if t_authority is None:
        t_path = rooted_path(t_path)
    return recompose(t_scheme, t_authority, t_path, t_query, t_fragment)


# RFC 3986 5.2.3. Merge Paths
def merge(base_authority: str | None, base_path: str, ref_path: str) -> str:
    """Merge a relative-path reference with the path of the base (§5.2.3)."""
    if base_authority is not None and base_path == "":
        return "/" + ref_path
    return base_path[: base_path.rfind("/") + 1] + ref_path


# RFC 3986 5.2.4. Remove Dot Segments
def remove_dot_segments(path: str) -> str:
    """Remove the "." and ".." segments of ``path`` (RFC 3986 §5.2.4).

    The output buffer is a stack of segments, each held with its leading "/",
    so the work is linear in the length of the path.

    >>> remove_dot_segments("/a/b/c/./../../g")
    '/a/g'
    >>> remove_dot_segments("mid/content=5/../6")
    'mid/6'
    """
    if "/." not in path and path[:1] != ".":
        return path  # no segment begins with ".", so none is a dot-segment
    # 2A and 2D can only apply while the output buffer is still empty: every
    # other rule leaves an input buffer that is empty or begins with "/".
    start = 0
    while True:
        if path.startswith("../", start):  # 2A
            start += 3
        elif path.startswith("./", start):  # 2A
            start += 2
        else:
            break
    rest = path[start:]
    if rest == "." or rest == "..":  # 2D
        return ""
    segments = rest.split("/")
    last = len(segments) - 1
    output: list[str] = []
    if segments[0]:
        output.append(segments[0])  # 2E: a first segment without a "/"
    for index in range(1, len(segments)):
        segment = segments[index]
        if segment == ".":  # 2B
            if index == last:
                output.append("/")
        elif segment == "..":  # 2C
            if output:
                output.pop()
            if index == last:
                output.append("/")
        else:  # 2E
            output.append("/" + segment)
    return "".join(output)


def rooted_path(path: str) -> str:
    """A path for a reference without authority, written so that it reads back as itself.

    §5.3 would recompose a path "//x" after "scheme:" as an authority; "/.//x"
    is the same path after remove_dot_segments, and parses as a path.
    """
    return "/." + path if path[:2] == "//" else path


# -- relativization: the inverse of §5.2 ------------------------------------------------


def relativize(base: Parts, goal: Parts, grammar: Grammar) -> str:
    """The shortest reference that resolves against ``base`` to ``goal`` (§5.2, §4.2).

    ``goal`` is a resolved target (no dot-segments in its path).  Candidates are
    tried from the shortest, and each is proven by resolving it: the answer
    ``r`` always satisfies ``transform_references(base, r) == goal``.  When
    nothing shorter works the answer is ``goal`` itself (always so for another
    scheme).
    """
    goal_text = goal.text()
    if goal.scheme != base.scheme:
        return goal_text
    hash_tail = "" if goal.fragment is None else "#" + goal.fragment
    tail = hash_tail if goal.query is None else "?" + goal.query + hash_tail
    candidates: list[str] = []
    if goal.authority == base.authority:
        if goal.path == base.path:
            if goal.query == base.query:
                candidates.append(hash_tail)  # "" or "#s": same document (§4.4)
            elif goal.query is not None:
                candidates.append(tail)  # "?y"
        directory = remove_dot_segments(merge(base.authority, base.path, ""))
        relative = relative_path(directory, remove_dot_segments(goal.path))
        if relative is not None:
            candidates.append(relative + tail)
        if goal.path[:1] == "/":
            candidates.append(rooted_path(goal.path) + tail)
    if goal.authority is not None:
        candidates.append("//" + goal.authority + goal.path + tail)
    candidates.sort(key=len)
    for text in candidates:
        if len(text) >= len(goal_text):
            break
        candidate = split(text, grammar)
        if candidate is not None and transform_references(base, candidate) == goal_text:
            return text
    return goal_text


def relative_path(directory: str, path: str) -> str | None:
    """A relative-path reference from ``directory`` to ``path`` (both without dot-segments).

    ``directory`` is where a relative path is merged (§5.2.3), after
    remove_dot_segments.  Climb with ".." to the longest common ancestor, then
    descend.  ``None`` when one path is rooted and the other is not.  The
    caller checks the answer by resolving it: ".." above the first segment of
    a rootless path does not climb as it would in a rooted one (§5.2.4).
    """
    here = directory.split("/")[:-1]
    there = path.split("/")
    if (here[:1] == [""]) != (there[:1] == [""]) and here:
        return None
    common = 0
    limit = min(len(here), len(there) - 1)
    while common < limit and here[common] == there[common]:
        common += 1
    up = len(here) - common
    rest = there[common:]
    if up == 0:
        if rest == [""]:
            return "."
        first = rest[0]
        if first == "" or ":" in first:
            return "./" + "/".join(rest)  # §4.2: not read as a scheme nor as "//"
        return "/".join(rest)
    if rest == [""]:
        return "/".join([".."] * up)
    return "../" * up + "/".join(rest)
