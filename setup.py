"""The optional compiled modules, urikit._speedups, urikit._columns, urikit._whatwg and
urikit._template; the rest is configured in pyproject.toml.

The extension is optional: where it cannot be built, ``pip install .`` still succeeds and
urikit runs as pure Python.  With ``URIKIT_STRICT_BUILD=1`` (CI) warnings are errors and a
failed build fails the install.  With ``URIKIT_C_CHECKS=1`` the invariant assertions of
the C (``src/urikit/_c/check.h``) are compiled in; a release build leaves them out.

The C lives in ``src/urikit/_c/``, one unit a concern (``docs/architecture.md`` lists
them).  The units of the scanner, the error locator, the RFC operations and the tables
are linked into urikit._speedups and urikit._columns; each module has the units of its
own.  The parser of the URL Standard, urikit._whatwg, is its own set of units in
``src/urikit/_c/whatwg/``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

STRICT = os.environ.get("URIKIT_STRICT_BUILD") == "1"
CHECKS = os.environ.get("URIKIT_C_CHECKS") == "1"

FLAGS = {
    "unix": [
        "-std=c11",
        "-O2",
        "-Wall",
        "-Wextra",
        "-fvisibility=hidden",
        "-ffunction-sections",
        "-fdata-sections",
        *(["-Werror"] if STRICT else []),
    ],
    "msvc": ["/std:c11", "/O2", "/W4", *(["/WX"] if STRICT else [])],
}

C = Path("src") / "urikit" / "_c"


def units(*names: str) -> list[str]:
    """The paths of the C units ``names``, as setuptools wants them (relative, "/")."""
    return [(C / f"{name}.c").as_posix() for name in names]


#: The units both modules link: the scanner, the error locator, the RFC operations and
#: the character classes.
SHARED = ("scan", "locate", "ops", "classes")
#: Every header and template, on which every unit may depend.
HEADERS = sorted(path.as_posix() for pattern in ("*.h", "*.inc") for path in C.glob(pattern))


#: Linker flags: the functions of a shared unit that a module does not call are left out.
LINK_FLAGS = {
    "unix": ["-Wl,-dead_strip"] if sys.platform == "darwin" else ["-Wl,--gc-sections"],
    "msvc": ["/OPT:REF"],
}


class BuildExt(build_ext):
    """Compiler flags by compiler family: the flags above are GCC/Clang or MSVC spelling."""

    def build_extensions(self) -> None:
        family = self.compiler.compiler_type if self.compiler.compiler_type in FLAGS else "unix"
        for extension in self.extensions:
            extension.extra_compile_args = [*FLAGS[family], *extension.extra_compile_args]
            extension.extra_link_args = [*LINK_FLAGS[family], *extension.extra_link_args]
        super().build_extensions()


def extension(name: str, own: tuple[str, ...]) -> Extension:
    return Extension(
        f"urikit.{name}",
        sources=units(*own, *SHARED),
        depends=HEADERS,
        define_macros=[("UK_CHECKS", "1")] if CHECKS else [("NDEBUG", None)],
        undef_macros=["NDEBUG"] if CHECKS else [],
        optional=not STRICT,
    )


speedups = extension(
    "_speedups",
    ("speedups", "reference", "reference_calls", "error", "ops_py", "percent", "lenient",
     "triplets", "chars", "sites"),
)  # fmt: skip
columns = extension("_columns", ("columns", "arrow", "column_split", "column_map"))

WHATWG = C / "whatwg"
WHATWG_UNITS = ("buffer", "host", "uts46", "fast", "parser", "module")
whatwg = Extension(
    "urikit._whatwg",
    sources=[(WHATWG / f"{unit}.c").as_posix() for unit in WHATWG_UNITS],
    depends=[(WHATWG / name).as_posix() for name in ("whatwg.h", "uts46_tables.h")],
    optional=not STRICT,
)

TEMPLATE = "src/urikit/_c/template"
TEMPLATE_UNITS = ("syntax", "router", "build", "bind", "module")
template = Extension(
    "urikit._template",
    sources=[f"{TEMPLATE}/{unit}.c" for unit in TEMPLATE_UNITS],
    depends=[f"{TEMPLATE}/template.h"],
    optional=not STRICT,
)

setup(ext_modules=[speedups, columns, whatwg, template], cmdclass={"build_ext": BuildExt})
