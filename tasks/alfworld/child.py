"""The command that runs one of this package's modules in a child Python process.

The child is isolated (``python -I``): neither the working directory nor ``PYTHON*``
variables reach its import path, so a ``json.py`` where the run was started is never imported
in place of the standard library's. Its path starts with the folder this ``cogarch`` is
imported from, then the rest of the parent's path (without its working directory), so the child
runs the same code as its parent, whatever its working directory.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def code_root() -> str:
    """The folder holding the ``cogarch`` package this process runs."""
    return str(Path(str(sys.modules["cogarch"].__file__)).resolve().parent.parent)


def import_path() -> list[str]:
    """The child's import path: this cogarch's folder, then this process's path without the
    working directory (a user site folder, which ``-I`` leaves out, stays in)."""
    here = os.getcwd()
    kept = [
        p
        for p in sys.path
        if p and os.path.isabs(p) and os.path.realpath(p) != os.path.realpath(here)
    ]
    return list(dict.fromkeys([code_root(), *kept]))


def child_command(module: str) -> list[str]:
    """The command running ``module.main()`` in an isolated interpreter on this cogarch."""
    code = (
        f"import sys; sys.path[:] = {import_path()!r} + [p for p in sys.path if p]; "
        f"from {module} import main; main()"
    )
    return [sys.executable, "-I", "-c", code]
