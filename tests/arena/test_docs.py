"""Every Python block of docs/arena.md runs as written and prints what the page says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PAGE = Path(__file__).parents[2] / "docs" / "arena.md"
BLOCKS = re.findall(r"```python\n(.*?)```", PAGE.read_text(), flags=re.DOTALL)


def test_the_page_has_python_examples():
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_python_block_runs(number, capsys, tmp_path, monkeypatch, doc_block):
    monkeypatch.chdir(tmp_path)
    source = BLOCKS[number]
    doc_block(source, f"docs/arena.md[python block {number + 1}]")
    printed = capsys.readouterr().out
    assert printed
    # Output quoted in the block's trailing comments must be what it prints.
    quoted = [line[2:] for line in source.splitlines() if re.match(r"# \d", line)]
    for line in quoted:
        assert line in printed.splitlines()
