"""Every Python and shell snippet in the README and the site runs, or says why it does not."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from .snippets import ROOT, Snippet, all_snippets, snippets_of

SNIPPETS = all_snippets()
RUN = [s for s in SNIPPETS if s.skip_reason is None]


def test_every_snippet_is_run_or_marked_with_a_reason(capsys: pytest.CaptureFixture[str]) -> None:
    assert all(s.skip_reason for s in SNIPPETS if s.skip_reason is not None)
    counts = Counter((s.lang, "run" if s.skip_reason is None else "marked") for s in SNIPPETS)
    with capsys.disabled():
        print(
            f"\nsnippets: {len(SNIPPETS)} in {len({s.file for s in SNIPPETS})} files; "
            f"run {len(RUN)} (python {counts['python', 'run']}, bash {counts['bash', 'run']}), "
            f"marked not run {len(SNIPPETS) - len(RUN)} (python {counts['python', 'marked']}, "
            f"bash {counts['bash', 'marked']})"
        )
    assert counts["python", "run"] >= 3 and counts["bash", "run"] >= 3


def test_the_collector_reads_markers_and_indented_fences(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "text\n<!-- snippet: not run: needs a GPU -->\n```bash\nnvidia-smi\n```\n"
        "- item\n\n  ```python\n  print(1)\n  ```\n```yaml\na: 1\n```\n",
        encoding="utf-8",
    )
    first, second = snippets_of(page)
    assert (first.lang, first.skip_reason, first.code) == ("bash", "needs a GPU", "nvidia-smi\n")
    assert (second.lang, second.skip_reason, second.code) == ("python", None, "print(1)\n")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder that looks like a checkout to the snippets (its runs/ stays in the test)."""
    path = tmp_path_factory.mktemp("checkout")
    for name in ("experiments", "examples", "workspace", "tests"):
        (path / name).symlink_to(ROOT / name)
    return path


def _python_pages() -> list[str]:
    return sorted({s.file for s in RUN if s.lang == "python"})


@pytest.mark.parametrize("file", _python_pages())
def test_python_snippets_of_a_page_run_in_order(
    file: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "__snippet__"}
    for snippet in (s for s in RUN if s.file == file and s.lang == "python"):
        try:
            exec(compile(snippet.code, snippet.id, "exec"), namespace)
        except ModuleNotFoundError as missing:
            # A page about an optional extra (agent-framework, ...) runs where it is installed;
            # CI installs every extra, so there nothing may be missing.
            if os.environ.get("CI") == "true" or (missing.name or "").startswith("cogarch"):
                raise
            pytest.skip(f"{snippet.id} needs {missing.name}, an optional extra")


@pytest.mark.parametrize("snippet", [s for s in RUN if s.lang == "bash"], ids=lambda s: s.id)
def test_shell_snippet_runs(snippet: Snippet, workdir: Path) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]),
    }
    done = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", snippet.code],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, (
        f"{snippet.id} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
