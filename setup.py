"""The optional compiled modules, urikit._speedups, urikit._columns, urikit._whatwg and
urikit._template; the rest is configured in pyproject.toml.

The extension is optional: where it cannot be built, ``pip install .`` still succeeds and
urikit runs as pure Python.  With ``URIKIT_STRICT_BUILD=1`` (CI) warnings are errors and a
failed build fails the install.
"""

from __future__ import annotations

import os

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

STRICT = os.environ.get("URIKIT_STRICT_BUILD") == "1"

FLAGS = {
    "unix": ["-std=c11", "-O2", "-Wall", "-Wextra", *(["-Werror"] if STRICT else [])],
    "msvc": ["/std:c11", "/O2", "/W4", *(["/WX"] if STRICT else [])],
}


class BuildExt(build_ext):
    """Compiler flags by compiler family: the flags above are GCC/Clang or MSVC spelling."""

    def build_extensions(self) -> None:
        flags = FLAGS.get(self.compiler.compiler_type, FLAGS["unix"])
        for extension in self.extensions:
            extension.extra_compile_args = [*flags, *extension.extra_compile_args]
        super().build_extensions()


speedups = Extension(
    "urikit._speedups",
    sources=["src/urikit/_speedups.c"],
    depends=[
        "src/urikit/_speedups_chars.h",
        "src/urikit/_speedups_lenient.h",
        "src/urikit/_speedups_lenient_kind.h",
        "src/urikit/_speedups_locate.h",
        "src/urikit/_speedups_locate_tables.h",
        "src/urikit/_speedups_ops.h",
        "src/urikit/_speedups_ops_kind.h",
        "src/urikit/_speedups_ops_py.h",
        "src/urikit/_speedups_reference.h",
        "src/urikit/_speedups_scan.h",
        "src/urikit/_speedups_scan_kind.h",
        "src/urikit/_speedups_sites.h",
        "src/urikit/_speedups_tables.h",
        "src/urikit/_speedups_triplets.h",
    ],
    optional=not STRICT,
)

columns = Extension(
    "urikit._columns",
    sources=["src/urikit/_columns.c"],
    depends=[
        "src/urikit/_columns_plain.h",
        "src/urikit/_columns_scan.h",
        "src/urikit/_speedups_ops.h",
        "src/urikit/_speedups_ops_kind.h",
        "src/urikit/_speedups_scan.h",
        "src/urikit/_speedups_scan_kind.h",
        "src/urikit/_speedups_tables.h",
    ],
    optional=not STRICT,
)

WHATWG = "src/urikit/_c/whatwg"
WHATWG_UNITS = ("buffer", "host", "uts46", "fast", "parser", "module")
whatwg = Extension(
    "urikit._whatwg",
    sources=[f"{WHATWG}/{unit}.c" for unit in WHATWG_UNITS],
    depends=[f"{WHATWG}/whatwg.h", f"{WHATWG}/uts46_tables.h"],
    optional=not STRICT,
)

TEMPLATE = "src/urikit/_c/template"
TEMPLATE_UNITS = ("syntax", "router", "build", "module")
template = Extension(
    "urikit._template",
    sources=[f"{TEMPLATE}/{unit}.c" for unit in TEMPLATE_UNITS],
    depends=[f"{TEMPLATE}/template.h"],
    optional=not STRICT,
)

setup(ext_modules=[speedups, columns, whatwg, template], cmdclass={"build_ext": BuildExt})
