"""The command that runs one of this package's modules in a child Python process.

The child is isolated (``python -I``): neither the working directory nor ``PYTHON*``
variables reach its import path, so a ``json.py`` where the run was started is never imported
in place of the standard library's. Its path starts with the folder this ``cogarch`` is
imported from, so the child runs the same code as its parent whatever its working directory.
"""

from __future__ import annotations

import sys
from pathlib import Path


def code_root() -> str:
    """The folder holding the ``cogarch`` package this process runs."""
    return str(Path(str(sys.modules["cogarch"].__file__)).resolve().parent.parent)


def child_command(module: str) -> list[str]:
    """The command running ``module.main()`` in an isolated interpreter on this cogarch."""
    code = f"import sys; sys.path.insert(0, {code_root()!r}); from {module} import main; main()"
    return [sys.executable, "-I", "-c", code]


__all__ = ["child_command", "code_root"]
