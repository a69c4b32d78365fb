"""URI Templates (RFC 6570): expansion against the peers, matching, and routing.

Three tables, each measured in one run (CPU time of this thread, best of N passes):

- **expand**: each (template, values) pair of a corpus expanded, 25 times a pass (a
  pass of milliseconds, which a busy machine distorts less than one of microseconds),
  each template parsed once: the templates of
  RFC 6570 §1.2 and §3.2 with the variables of §3.2, and API templates of the kind
  GitHub and Google publish, with strings, numbers, lists and associative arrays.
  ``urikit``: ``URITemplate(t)`` parsed once, then ``t.expand(values)``, with the
  compiled core and as pure Python; ``uritemplate`` (python-hyper): ``URITemplate(t)``
  parsed once, then ``t.expand(values)``; ``std-uritemplate``:
  ``StdUriTemplate.expand(t, values)``, which parses each time (it has no parsed form).
- **match**: URIs expanded from the API templates, each matched by its own template
  (``t.match(uri)``), and the same URIs matched by a router of all the templates.
- **routing**: a router of 10, 100 and 1,000 API templates against trying each
  template in turn, most specific first (the first match wins, as in the router):
  the cost per URI, and the ratio.  ``Router.match`` is timed with the compiled core
  (the walk and the regions in C, ``urikit._template``, the values read in Python) and
  as pure Python; ``urikit._template.Router.match`` alone (the template and the text of
  its regions, what a column function reads) and ``.spans`` (the regions as offsets)
  are the C without the values.

The targets: expand at least 3x as fast as uritemplate and faster than
std-uritemplate; the router of 1,000 templates at least 10x as fast as trying each;
the C router of 1,000 templates at least 1 M URIs per second of CPU time.

Run: ``python bench/bench_template.py`` (options: ``--limit N``, ``--repeat N``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any

from _harness import (
    HERE,
    Batch,
    Case,
    Target,
    load_urikit,
    parse_args,
    print_environment,
    print_table,
    run,
)

REFERENCE = "urikit (compiled core)"
PURE = "urikit (pure Python)"
UT = "uritemplate"
STD = "std-uritemplate"

#: The variables of RFC 6570 §3.2, from the vendored uritemplate-test suite.
RFC_VALUES: dict[str, Any] = json.loads(
    (HERE.parent / "tests/vectors/uritemplate-test/spec-examples-by-section.json").read_text(
        encoding="utf-8"
    )
)["3.2.1 Variable Expansion"]["variables"]

RFC_TEMPLATES = [
    "{var}", "{hello}", "{half}", "O{empty}X", "O{undef}X", "{x,y}", "{x,hello,y}",
    "?{x,empty}", "?{x,undef}", "?{undef,y}", "{var:3}", "{var:30}", "{list}", "{list*}",
    "{keys}", "{keys*}", "{+var}", "{+hello}", "{+half}", "{base}index", "{+base}index",
    "{+path}/here", "here?ref={+path}", "up{+path}{var}/here", "{+x,hello,y}",
    "{+path,x}/here", "{+path:6}/here", "{+list}", "{+keys*}", "{#var}", "{#hello}",
    "{#path,x}/here", "{#keys}", "{.who}", "{.who,who}", "www{.dom*}", "X{.list*}",
    "X{.keys*}", "{/who}", "{/who,dub}", "{/var,x}/here", "{/var:1,var}", "{/list*}",
    "{/list*,path:4}", "{/keys*}", "{;who}", "{;v,empty,who}", "{;x,y,undef}",
    "{;hello:5}", "{;list*}", "{;keys*}", "{?who}", "{?x,y,empty}", "{?var:3}",
    "{?list}", "{?list*}", "{?keys*}", "{&who}", "?fixed=yes{&x}", "{&list*}",
]  # fmt: skip

API_TEMPLATES: list[tuple[str, dict[str, Any]]] = [
    ("https://api.github.com/repos/{owner}/{repo}/issues{?state,labels,page,per_page}",
     {"owner": "python", "repo": "cpython", "state": "open", "labels": ["bug", "easy"],
      "page": 2, "per_page": 100}),
    ("https://api.github.com/repos/{owner}/{repo}/contents/{+path}{?ref}",
     {"owner": "octo cat", "repo": "hello", "path": "docs/read me.md", "ref": "main"}),
    ("https://api.github.com/users/{user}/repos{?type,sort,direction}",
     {"user": "torvalds", "sort": "updated"}),
    ("https://api.github.com/search/code{?q,sort,order}",
     {"q": "addClass in:file language:js repo:jquery/jquery", "order": "desc"}),
    ("https://www.googleapis.com/drive/v3/files/{fileId}{?fields,supportsAllDrives}",
     {"fileId": "1a2B3c", "fields": "id,name,mimeType", "supportsAllDrives": True}),
    ("https://www.googleapis.com/storage/v1/b/{bucket}/o{?prefix,maxResults,pageToken}",
     {"bucket": "my-bucket", "prefix": "logs/2024/", "maxResults": 1000}),
    ("https://maps.example.com/mapper{?address*}",
     {"address": {"city": "Newport Beach", "state": "CA", "zip": "92660"}}),
    ("/users/{id}", {"id": 42}),
    ("/files{/path*}{?download}", {"path": ["photos", "2024", "été.jpg"], "download": "1"}),
    ("{+base}/{lang}/docs{/section*}#{frag}",
     {"base": "https://docs.example.org", "lang": "fr", "section": ["api", "uri"],
      "frag": "top"}),
]  # fmt: skip


#: How many times a timed pass expands the corpus: a pass of a few milliseconds, not of
#: tens of microseconds, which a busy machine's interruptions would distort.
ROUNDS = 25


def expand_corpus(limit: int | None) -> list[tuple[str, dict[str, Any]]]:
    corpus = [(t, RFC_VALUES) for t in RFC_TEMPLATES] + API_TEMPLATES
    return corpus[:limit] if limit else corpus


def expand_cases(corpus: Sequence[tuple[str, dict[str, Any]]]) -> list[Case]:
    def urikit_case(pure: bool) -> Batch:
        module = load_urikit(pure)
        template_module = __import__(f"{module.__name__}.template", fromlist=["URITemplate"])
        parsed = [(template_module.URITemplate(t), v) for t, v in corpus]

        def batch() -> int:
            for _ in range(ROUNDS):
                for t, values in parsed:
                    t.expand(values)
            return 0

        return batch

    def uritemplate_case() -> Batch:
        from uritemplate import URITemplate

        # uritemplate writes True as "True" and raises on some values: give it strings
        parsed = [(URITemplate(t), _texts(v)) for t, v in corpus]

        def batch() -> int:
            for _ in range(ROUNDS):
                for t, values in parsed:
                    t.expand(values)
            return 0

        return batch

    def std_case() -> Batch:
        from stduritemplate import StdUriTemplate

        items = [(t, {k: v for k, v in values.items() if v is not None}) for t, values in corpus]

        def batch() -> int:
            for _ in range(ROUNDS):
                for t, values in items:
                    StdUriTemplate.expand(t, values)
            return 0

        return batch

    return [
        Case(REFERENCE, lambda: urikit_case(False), distribution="urikit"),
        Case(PURE, lambda: urikit_case(True), distribution="urikit"),
        Case(UT, uritemplate_case, distribution="uritemplate"),
        Case(STD, std_case, distribution="std-uritemplate"),
    ]


def _texts(values: dict[str, Any]) -> dict[str, Any]:
    def text(v: Any) -> Any:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return str(v)
        if isinstance(v, dict):
            return {k: text(x) for k, x in v.items()}
        if isinstance(v, list):
            return [text(x) for x in v]
        return v

    return {k: text(v) for k, v in values.items() if v is not None}


# --- routing --------------------------------------------------------------------------

RESOURCES = [
    "users", "repos", "issues", "pulls", "orgs", "teams", "gists", "events", "projects",
    "labels", "milestones", "releases", "assets", "hooks", "keys", "commits", "branches",
    "tags", "comments", "reviews", "checks", "runs", "jobs", "artifacts", "secrets",
]  # fmt: skip
SUBRESOURCES = ["members", "stars", "forks", "status", "history", "settings", "logs", "files"]


def route_templates(count: int) -> list[str]:
    """``count`` API templates: versions, resources, ids, subresources, queries."""
    out: list[str] = []
    for version in ("v1", "v2", "v3", "beta"):
        for resource in RESOURCES:
            out.append(f"/api/{version}/{resource}{{?page,per_page}}")
            out.append(f"/api/{version}/{resource}/{{id}}")
            for sub in SUBRESOURCES:
                out.append(f"/api/{version}/{resource}/{{id}}/{sub}{{?q}}")
                out.append(f"/api/{version}/{resource}/{{id}}/{sub}/{{item}}")
    random.Random(6570).shuffle(out)
    return out[:count]


def route_uris(templates: Sequence[str], count: int) -> list[str]:
    """URIs expanded from ``templates`` (one in ten matches none)."""
    from urikit.template import URITemplate

    rng = random.Random(3986)
    values = {"id": "1234", "item": "abc-9", "page": 2, "per_page": 50, "q": "x y"}
    uris = []
    for k in range(count):
        if k % 10 == 9:
            uris.append(f"/api/v9/nothing/{k}")
            continue
        t = URITemplate(rng.choice(templates))
        uris.append(t.expand({n: v for n, v in values.items() if rng.random() < 0.8}))
    return uris


def routing_cases(templates: Sequence[str], uris: Sequence[str]) -> list[Case]:
    def router_case() -> Batch:
        from urikit.template import Router

        router = Router(templates)

        def batch() -> int:
            missed = 0
            for uri in uris:
                if router.match(uri) is None:
                    missed += 1
            return missed

        return batch

    def pure_router_case() -> Batch:
        module = load_urikit(True)
        template_module = __import__(f"{module.__name__}.template", fromlist=["Router"])
        router = template_module.Router(templates)

        def batch() -> int:
            missed = 0
            for uri in uris:
                if router.match(uri) is None:
                    missed += 1
            return missed

        return batch

    def core_case(method: str) -> Callable[[], Batch]:
        def make() -> Batch:
            from urikit._template import Router as CompiledRouter
            from urikit.template import Router

            find = getattr(CompiledRouter(Router(templates).compiled()), method)

            def batch() -> int:
                missed = 0
                for uri in uris:
                    if find(uri) is None:
                        missed += 1
                return missed

            return batch

        return make

    def each_case() -> Batch:
        from urikit.template import URITemplate
        from urikit.template.syntax import Literal

        parsed = [URITemplate(t) for t in templates]
        for t in parsed:
            t.matcher  # noqa: B018  (compiled before timing)
        # most specific first: the first match is the one the router gives
        parsed.sort(key=lambda t: -sum(len(p.expansion) for p in t.parts if isinstance(p, Literal)))

        def batch() -> int:
            missed = 0
            for uri in uris:
                for t in parsed:
                    if t.match(uri) is not None:
                        break
                else:
                    missed += 1
            return missed

        return batch

    def own_case() -> Batch:
        from urikit.template import Router, URITemplate

        router = Router(templates)
        pairs = []
        for uri in uris:
            found = router.match(uri)
            if found is not None:
                pairs.append((found.template, uri))
        for t, _ in pairs:
            assert isinstance(t, URITemplate)

        def batch() -> int:
            for t, uri in pairs:
                t.match(uri)
            return len(uris) - len(pairs)

        return batch

    cases = [
        Case("Router.match", router_case, distribution="urikit"),
        Case(PURE_ROUTER, pure_router_case, distribution="urikit"),
        Case("each template in turn", each_case, distribution="urikit"),
        Case("its own template's match", own_case, distribution="urikit"),
    ]
    if _template_built():
        cases += [
            Case(C_MATCH, core_case("match"), distribution="urikit"),
            Case(C_SPANS, core_case("spans"), distribution="urikit"),
        ]
    return cases


PURE_ROUTER = "Router.match (pure Python)"
C_MATCH = "_template.Router.match (C)"
C_SPANS = "_template.Router.spans (C)"


def _template_built() -> bool:
    from urikit.template import backend

    return backend.compiled


def main() -> None:
    args = parse_args(__doc__.splitlines()[0], default_input=__file__)  # type: ignore[arg-type]
    print_environment()

    corpus = expand_corpus(args.limit)
    results = run(expand_cases(corpus), len(corpus) * ROUNDS, args.repeat)
    print_table(
        f"expand: a parsed template, {len(corpus)} (template, values) pairs {ROUNDS} times a pass",
        results,
        REFERENCE,
        len(corpus) * ROUNDS,
        [
            Target("at least 3x as fast as uritemplate", UT, 1 / 3),
            Target("faster than std-uritemplate", STD, 1.0),
        ],
    )

    print("\nrouting: URIs of API templates; 'x ref' against Router.match")
    scaling: list[tuple[int, dict[str, Any]]] = []
    for count in (10, 100, 1000):
        templates = route_templates(count)
        uris = route_uris(templates, 2000)
        results = run(routing_cases(templates, uris), len(uris), max(3, args.repeat // 2))
        print_table(
            f"{count} templates, {len(uris)} URIs (rejected: matched by none)",
            results,
            "Router.match",
            len(uris),
            [
                Target("at least 10x as fast as trying each", "each template in turn", 0.1),
                Target("faster than the pure Python router", PURE_ROUTER, 1.0),
            ]
            if count == 1000
            else [],
        )
        scaling.append((count, {r.label: r for r in results}))
    print("\nscaling: microseconds per URI (and URIs per second of CPU time)")
    print(
        f"  {'templates':>9}  {'Router.match':>12}  {'each in turn':>12}  {'ratio':>6}"
        f"  {'router URIs/s':>13}  {'pure URIs/s':>11}  {'C URIs/s':>10}"
        f"  {'one template URIs/s':>19}"
    )
    for count, by in scaling:
        router, each, own, pure = (
            by["Router.match"],
            by["each template in turn"],
            by["its own template's match"],
            by[PURE_ROUTER],
        )
        c_match = by.get(C_MATCH)
        c_rate = f"{1e6 / c_match.per_item_us:10,.0f}" if c_match and c_match.per_item_us else "-"
        if router.per_item_us and each.per_item_us and own.per_item_us and pure.per_item_us:
            print(
                f"  {count:9d}  {router.per_item_us:12.2f}  {each.per_item_us:12.2f}"
                f"  {each.per_item_us / router.per_item_us:5.1f}x"
                f"  {1e6 / router.per_item_us:13,.0f}  {1e6 / pure.per_item_us:11,.0f}"
                f"  {c_rate:>10}  {1e6 / own.per_item_us:19,.0f}"
            )


if __name__ == "__main__":
    main()
