"""numba's cache of kernels sees edits to what they import from other files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")

from zoo_games.batched import PACKAGE
from zoo_games.batched.cache import SourceTreeLocator, tree_stamp

#: A kernel compiled with numba's cache that reads a constant of another module.
KERNEL = """
from numba import njit

from weights import WEIGHT


@njit(cache=True)
def weighted(value):
    return WEIGHT * value
"""
#: Run in a fresh process: prints the kernel's result and whether it came from the cache.
RUN = """
import sys
from pathlib import Path

tree = Path(sys.argv[1])
sys.path.insert(0, str(tree))
if sys.argv[2] == "watched":
    from zoo_games.batched import cache

    cache.watch(tree / "weights", tree / "kernels")
from kernels import weighted

print(weighted(1), sum(weighted.stats.cache_hits.values()))
"""


def make_tree(root: Path, weight: int) -> Path:
    """Two packages: ``weights`` holding ``WEIGHT``, ``kernels`` compiling a kernel of it."""
    (root / "weights").mkdir(parents=True)
    (root / "kernels").mkdir()
    (root / "kernels" / "__init__.py").write_text(KERNEL)
    set_weight(root, weight)
    return root


def set_weight(root: Path, weight: int) -> None:
    (root / "weights" / "__init__.py").write_text(f"WEIGHT = {weight}\n")


def run(tree: Path, mode: str, cache_dir: Path | None = None) -> tuple[int, int]:
    """``(the kernel's result for 1, cache hits)`` in a new process."""
    env = {"PYTHONPATH": str(PACKAGE.parent), "PATH": ""}
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = str(cache_dir)
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(tree), mode],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    result, hits = done.stdout.split()
    return int(result), int(hits)


def test_an_edited_import_is_recompiled_and_an_unchanged_tree_is_loaded(tmp_path):
    tree = make_tree(tmp_path / "watched", weight=3)
    assert run(tree, "watched") == (3, 0)  # compiled and cached
    assert run(tree, "watched") == (3, 1)  # loaded from the cache
    set_weight(tree, 5)
    assert run(tree, "watched") == (5, 0)  # the edit in another file is seen


def test_a_cache_folder_of_the_user_is_kept_and_watched(tmp_path):
    tree = make_tree(tmp_path / "tree", weight=3)
    cache_dir = tmp_path / "numba-cache"
    assert run(tree, "watched", cache_dir) == (3, 0)
    assert run(tree, "watched", cache_dir) == (3, 1)
    set_weight(tree, 5)
    assert run(tree, "watched", cache_dir) == (5, 0)
    assert list(cache_dir.rglob("*.nbi")) and not list(tree.rglob("*.nbi"))


def test_numba_alone_keeps_the_stale_constant(tmp_path):
    # What the watch is for: numba stamps a function with its own file only.
    tree = make_tree(tmp_path / "unwatched", weight=3)
    assert run(tree, "unwatched") == (3, 0)
    set_weight(tree, 5)
    assert run(tree, "unwatched") == (3, 1)


def test_the_kernels_are_stamped_by_every_file_they_compile_from():
    from zoo_games.batched import santorini, senet

    stamps = set()
    for kernel in (senet.legal_mask, senet.evaluate, santorini.reachable_levels):
        locator = kernel._cache._impl.locator
        assert isinstance(locator, SourceTreeLocator)
        assert {PACKAGE / "core", PACKAGE / "senet", PACKAGE / "batched"} <= set(locator.folders)
        stamps.add(locator.get_source_stamp())
    assert stamps == {tree_stamp(locator.folders)}
