"""The floors of the package (docs/architecture.md): imports run only downward.

Every import in ``src/urikit`` is read from the source, at module level, inside
functions and under ``TYPE_CHECKING`` alike.  A module may import modules of a
lower floor, and modules of its own floor as long as no loop closes; nothing
imports upward, and the command uses only the public API.  One module, the seam,
imports the compiled core and reads the switch ``URIKIT_NO_EXTENSIONS``; and no
module shares its name with a function of the package.
"""

from __future__ import annotations

import ast
import inspect
import types
from pathlib import Path

import pytest

import urikit

PACKAGE = Path(urikit.__file__).resolve().parent

#: Each module (or subpackage) of urikit and the floor it stands on.
FLOORS: dict[str, int] = {
    # 0: the ground: grammar, errors, reports, option names, generated data
    "errors": 0,
    "grammar": 0,
    "report": 0,
    "types": 0,
    "_scheme_data": 0,
    "_contracts": 0,
    "_uts46_data": 0,
    # 1: encodings and data, readable: percent-encoding, the registry, components, hosts,
    # the Unicode steps of the URL Standard, the template syntax
    "percent": 1,
    "schemes": 1,
    "components": 1,
    "host": 1,
    "_defaults": 1,
    "diagnose": 1,
    "_store": 1,
    "_speedups": 1,
    "_columns": 1,
    "_whatwg": 1,
    "_template": 1,
    "punycode": 1,
    "_nfc": 1,
    "_encoding_names": 1,
    "_param_names": 1,
    "uts46": 1,
    # 2: the RFC operations with a compiled twin, readable, on component text
    "resolution": 2,
    "normalization": 2,
    "protocol_steps": 2,
    "legacy": 2,
    "bidi": 2,
    "character_repairs": 2,
    # 3: the seam, which chooses the compiled core or the readable Python
    "_seam": 3,
    # 4: the operations that reach a concept through the seam
    "validate": 4,
    "query": 4,
    "paths": 4,
    "mapping": 4,
    "fileuri": 4,
    "lenient": 4,
    "_shortcuts": 4,
    "template": 4,
    # 5: the value type and its functional forms
    "uri": 5,
    "functions": 5,
    # 6: tools built on the value
    "compare": 6,
    "datauri": 6,
    "views": 6,
    "text": 6,
    "security": 6,
    "dsn": 6,
    "whatwg": 6,
    "sites": 6,
    # 7: adapters and the command
    "cli": 7,
    "pydantic": 7,
    "arrow": 7,
    "_arrow_kernel": 7,
    "_column_functions": 7,
    "polars": 7,
    "pandas": 7,
    "duckdb": 7,
    "spark": 7,
    "dask": 7,
    "jsonschema": 7,
    "_pydantic_dsn": 7,
    "_pydantic_text": 7,
    "__main__": 7,
}

#: What the command may import: the public API.
PUBLIC = {
    "urikit",
    "urikit.types",
    "urikit.report",
    "urikit.schemes",
    "urikit.protocol_steps",
    "urikit.validate",
    "urikit.text",
    "urikit.security",
    "urikit.sites",
    "urikit.whatwg",
    "urikit.arrow",
    "urikit.template",
}


#: The compiled modules (C), by full name.
COMPILED_MODULES = {"urikit._speedups", "urikit._columns", "urikit._whatwg", "urikit._template"}


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(("urikit", *parts))] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The urikit modules that ``name`` imports, resolved to full names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names if alias.name.startswith("urikit"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            if not module.startswith("urikit"):
                continue
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                out.add(sub if sub in MODULES or sub in COMPILED_MODULES else module)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "import_module":
            out.add("importlib.import_module")
    return out


def _floor(module: str) -> int | None:
    parts = module.split(".")
    if len(parts) == 1:
        return None  # the package itself: above every floor
    return FLOORS.get(parts[1])


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def test_every_module_has_a_floor() -> None:
    missing = [m for m in MODULES if m != "urikit" and _floor(m) is None]
    assert not missing, f"give these modules a floor in FLOORS and docs/architecture.md: {missing}"


@pytest.mark.parametrize("name", sorted(m for m in MODULES if m != "urikit"))
def test_imports_run_only_downward(name: str) -> None:
    floor = _floor(name)
    assert floor is not None
    for target in GRAPH[name]:
        assert target != "importlib.import_module", f"{name} imports by name at run time"
        if target.split(".")[:2] == name.split(".")[:2]:
            continue  # inside one subpackage: checked for loops below
        if target == "urikit":
            assert floor == max(FLOORS.values()), f"{name} imports the package root"
            continue
        target_floor = _floor(target)
        assert target_floor is not None, f"{name} imports {target}, which has no floor"
        assert target_floor <= floor, (
            f"{name} (floor {floor}) imports {target} (floor {target_floor})"
        )


def test_no_import_closes_a_loop() -> None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for target in sorted(GRAPH.get(node, ())):
            if target not in MODULES or target == "urikit":
                continue
            if state.get(target) == 1:
                loop = [*stack[stack.index(target) :], target]
                raise AssertionError("import loop: " + " -> ".join(loop))
            if target not in state:
                visit(target)
        stack.pop()
        state[node] = 2

    for module in sorted(MODULES):
        if module not in state:
            visit(module)


def test_the_command_uses_only_the_public_api() -> None:
    for name in MODULES:
        if not name.startswith("urikit.cli"):
            continue
        for target in GRAPH[name]:
            if target.startswith("urikit.cli"):
                continue
            assert target in PUBLIC, f"{name} imports {target}, outside the public API"


#: The one module that imports the compiled modules and reads the switch.
SEAM = "urikit._seam"


def test_only_the_seam_imports_the_compiled_core() -> None:
    importers = {
        name for name, targets in GRAPH.items() if targets & COMPILED_MODULES and name != SEAM
    }
    assert not importers, f"only {SEAM} imports {COMPILED_MODULES}: {importers}"
    assert GRAPH[SEAM] >= COMPILED_MODULES


def _names_the_switch(path: Path) -> bool:
    """Does the code of ``path`` (not its docstrings or comments) name the switch?"""
    return any(
        isinstance(node, ast.Constant) and node.value == "URIKIT_NO_EXTENSIONS"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
    )


def test_only_the_seam_reads_the_switch() -> None:
    readers = {name for name, path in MODULES.items() if _names_the_switch(path)}
    assert SEAM in readers
    assert readers == {SEAM}, f"only {SEAM} reads URIKIT_NO_EXTENSIONS: {readers}"


def test_no_module_shares_its_name_with_a_function_of_the_package() -> None:
    functions = {name for name in urikit.__all__ if inspect.isfunction(getattr(urikit, name, None))}
    functions |= {name for name, value in vars(urikit).items() if inspect.isfunction(value)}
    modules = {name.split(".")[1] for name in MODULES if name.count(".") >= 1}
    assert "resolve" in functions and "normalize" in functions
    assert not functions & modules, f"modules named like functions of urikit: {functions & modules}"
    assert isinstance(urikit, types.ModuleType) and type(urikit) is types.ModuleType


#: The most lines a hand-written module holds (STYLE: one idea per file).
MAX_LINES = 800


def test_no_hand_written_module_is_over_800_lines() -> None:
    """Each file holds one idea: no module over 800 lines, generated tables apart."""
    over = {}
    for name, path in MODULES.items():
        text = path.read_text(encoding="utf-8")
        count = len(text.splitlines())
        if count > MAX_LINES and "generated by" not in text[:300].lower():
            over[name] = count
    assert over == {}
