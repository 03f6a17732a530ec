"""The Python code blocks of docs/batched.md run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("numba")

PAGE = Path(__file__).parents[2] / "docs" / "batched.md"
BLOCKS = re.findall(r"```python\n(.*?)```", PAGE.read_text(), flags=re.DOTALL)


def test_the_page_has_code() -> None:
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_code_block_runs(number: int, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(BLOCKS[number], f"docs/batched.md[block {number + 1}]", "exec"), {})
