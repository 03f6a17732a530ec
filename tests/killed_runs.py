"""A training run killed with SIGKILL while it writes a checkpoint, then resumed.

Both trainers (PPO through RLlib, AlphaZero) keep their runs the same way
(:mod:`zoo_games.training.checkpoints`) and must pass the same checks: a new checkpoint is
written beside the old one and swapped in, so a kill at any moment leaves one complete
checkpoint, and the resumed run's ``metrics.csv`` has every iteration exactly once.
"""

from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from zoo_games.training.checkpoints import CHECKPOINT

#: Starts a run of ``iterations`` iterations (resuming the one in its folder if ``resume``).
StartRun = Callable[[int, bool], subprocess.Popen[str]]


def start_script(script: str, *arguments: str) -> subprocess.Popen[str]:
    """Run ``script`` in a fresh Python, in a process group of its own, its stdout piped."""
    return subprocess.Popen(
        [sys.executable, "-c", script, *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])},
        start_new_session=True,
    )


def kill_while_checkpointing_then_resume(run: Path, start: StartRun) -> None:
    """Kill a run as it writes its third checkpoint, resume it to 4 iterations, check the run.

    The line of iteration 2 is printed as its checkpoint starts being written, so the kill
    lands in the middle of a checkpoint or just after: the resumed run must say it resumed
    from iteration 1 or 2, and end with iterations 0-4 in ``metrics.csv``, each once, the
    same file as its checkpoint's, and no ``checkpoint.new`` or ``checkpoint.old`` left.
    """
    first = start(50, False)
    assert first.stdout is not None
    for line in first.stdout:
        if line.startswith("iter    2"):  # its checkpoint is being written right now
            os.killpg(first.pid, signal.SIGKILL)
            break
    first.wait(timeout=60)
    assert first.returncode == -signal.SIGKILL
    second = start(4, True)
    out, _ = second.communicate(timeout=600)
    assert second.returncode == 0, out
    resumed = out.splitlines()[0]
    assert resumed.startswith("resumed from") and resumed.split()[-2] in ("1", "2"), resumed
    with (run / "metrics.csv").open() as handle:
        iterations = [row["iteration"] for row in csv.DictReader(handle)]
    assert iterations == ["0", "1", "2", "3", "4"]  # no iteration lost or written twice
    assert (run / "metrics.csv").read_text() == (run / CHECKPOINT / "metrics.csv").read_text()
    assert sorted(path.name for path in run.iterdir() if path.name.startswith(CHECKPOINT)) == [
        CHECKPOINT
    ]
