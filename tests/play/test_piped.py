"""``python -m zoo_games.cli play`` with its moves piped in, as a shell script would run it;
and the Python examples of ``docs/play.md``, run as written."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]


def run_cli(args: list[str], entries: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "zoo_games.cli", "play", *args],
        input=entries,
        capture_output=True,
        text=True,
        env=environment,
        timeout=60,
        check=False,
    )


def test_a_piped_game_is_played_to_the_end() -> None:
    holes = "".join(f"{hole}\n" for hole in range(1, 10)) * 300  # an empty hole is re-asked
    result = run_cli(["togyz-kumalak", "--vs", "random", "--seed", "2", "--seat", "second"], holes)
    assert result.returncode == 0
    assert "Traceback" not in result.stdout + result.stderr and not result.stderr
    assert re.search(r"game over: .*; kazans: White \d+, Black \d+\n$", result.stdout)
    assert "? " in result.stdout  # some holes were empty: one line, then the prompt again


def test_bad_arguments_exit_with_code_2_and_one_line() -> None:
    result = run_cli(["senet-kendall-5", "--seed", "-5"], "")
    assert result.returncode == 2
    assert result.stderr == (
        "zoo-games play: --seed '-5' is not allowed; a seed is a whole number >= 0\n"
    )
    assert not result.stdout


def test_the_python_examples_of_docs_play_md_run(doc_block) -> None:
    text = (ROOT / "docs" / "play.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks
    for number, source in enumerate(blocks, start=1):
        doc_block(source, f"docs/play.md[python block {number}]")
