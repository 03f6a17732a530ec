"""The ``zoo-games`` command: list the environments, watch a seeded demo game, train, play.

Examples: ``zoo-games list``, ``zoo-games demo senet-skyruk-5 --seed 3``,
``zoo-games arena togyz-kumalak random greedy --games 100``,
``zoo-games demo senet-kendall-7 --gif game.gif``, ``zoo-games train senet-kendall-5``,
``zoo-games play togyz-kumalak --vs random``.

This module only reads arguments: every value is checked here, up front, so that a mistake
gets one line saying what is wrong and what is allowed (and no work starts); the commands
themselves live in their own modules.
"""

from __future__ import annotations

import argparse
import importlib.util
import ipaddress
import math
import os
import re
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from zoo_games import __version__
from zoo_games.catalog import find_variant, labels, variants
from zoo_games.web.settings import IDLE_MINUTES, MOST_GAMES, MOVE_SECONDS

#: Exit status after the reader of the output went away (128 + SIGPIPE, as shells report it).
BROKEN_PIPE = 128 + signal.SIGPIPE


# ---------------------------------------------------------------------- argument types
def seed(text: str) -> int:
    """A seed: an integer from 0 (numpy's generators take no negative seeds)."""
    value = _integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"a seed must be 0 or more, got {value}")
    return value


def at_least(minimum: int) -> Callable[[str], int]:
    """An integer type that accepts ``minimum`` and more."""

    def count(text: str) -> int:
        value = _integer(text)
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be {minimum} or more, got {value}")
        return value

    count.__name__ = f"integer >= {minimum}"
    return count


def positive_number(text: str) -> float:
    """A finite number above 0 (minutes, a learning rate)."""
    value = _number(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, got {text}")
    return value


def non_negative_number(text: str) -> float:
    """A finite number of 0 or more (seconds, a loss coefficient)."""
    value = _number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {text}")
    return value


def gif_file(text: str) -> str:
    """A ``.gif`` file to write, in a folder that exists and is writable."""
    path = Path(text)
    if path.suffix.lower() != ".gif":
        raise argparse.ArgumentTypeError(f"the picture file must end in .gif, got {text!r}")
    _check_writable_file(path)
    return text


def new_folder(text: str) -> str:
    """A folder to write into: it may exist; if not, its nearest existing parent is writable."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a file, not a folder")
    existing = next(parent for parent in (path, *path.absolute().parents) if parent.exists())
    if not os.access(existing, os.W_OK):
        raise argparse.ArgumentTypeError(f"cannot write into {str(existing)!r}")
    return text


def ray_address(text: str) -> str:
    """``auto``, ``HOST:PORT`` or ``ray://HOST:PORT``: how Ray names a cluster's head."""
    if text == "auto":
        return text
    host, _, port = text.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(
            f"a Ray cluster address is 'auto', HOST:PORT or ray://HOST:PORT, got {text!r}"
        )
    return text


def port(text: str) -> int:
    """A TCP port to listen on, 1 to 65535."""
    value = _integer(text)
    if not 0 < value < 65536:
        raise argparse.ArgumentTypeError(f"a port is a whole number from 1 to 65535, got {value}")
    return value


def host(text: str) -> str:
    """An address or host name to listen on: ``127.0.0.1``, ``::1``, ``0.0.0.0``, ``localhost``."""
    try:
        ipaddress.ip_address(text)
    except ValueError:
        if not re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?", text):
            raise argparse.ArgumentTypeError(
                f"expected an IP address or a host name, got {text!r}"
            ) from None
    return text


def existing_folder(text: str) -> Path:
    """A folder that exists (to read from)."""
    path = Path(text)
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is not a folder")
    return path


def final_fraction(text: str) -> float:
    """A learning rate's final share: a number above 0 and at most 1 (1: a constant rate)."""
    value = _number(text)
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most 1, got {text}")
    return value


def share(text: str) -> float:
    """A share: a number from 0 to 1."""
    value = _number(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"must be from 0 to 1, got {text}")
    return value


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
    return value


def _check_writable_file(path: Path) -> None:
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{str(path)!r} is a folder, not a file")
    folder = path.absolute().parent
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"the folder {str(folder)!r} does not exist")
    # Tried, not asked of os.access: root may "write" into /proc, where no file can be made.
    existed = path.exists()
    try:
        with path.open("ab"):
            pass
    except OSError as problem:
        raise argparse.ArgumentTypeError(
            f"cannot write {str(path)!r}: {problem.strerror or problem}"
        ) from None
    if not existed:
        path.unlink()


# ---------------------------------------------------------------------- commands
def _list(_: argparse.Namespace) -> int:
    for candidate in variants():
        print(f"{candidate.label:<24} {candidate.env_id:<28} {candidate.kwargs}")
    return 0


def _demo(args: argparse.Namespace) -> int:
    from zoo_games.demo import play_demo

    play_demo(find_variant(args.variant), args.seed, args.delay, args.gif)
    return 0


#: ``zoo-games train`` options -> TrainSettings fields (the settings hold the defaults).
TRAIN_OPTIONS = {
    "minutes": "minutes",
    "iterations": "iterations",
    "output": "output_dir",
    "resume": "resume",
    "engine": "engine",
    "overlap": "overlap",
    "env_runners": "env_runners",
    "envs_per_runner": "envs_per_env_runner",
    "hidden": "hidden",
    "train_batch_size": "train_batch_size",
    "minibatch_size": "minibatch_size",
    "epochs": "epochs",
    "lr": "lr",
    "final_lr_fraction": "final_lr_fraction",
    "entropy_coeff": "entropy_coeff",
    "vf_loss_coeff": "vf_loss_coeff",
    "gae_lambda": "lambda_",
    "greedy_share": "greedy_share",
    "random_share": "random_share",
    "eval_every": "eval_every",
    "eval_games": "eval_games",
    "final_eval_games": "final_eval_games",
    "seed": "seed",
    "address": "address",
}


#: ``zoo-games train --algorithm alphazero`` options -> AlphaZeroSettings fields.
ALPHAZERO_OPTIONS = {
    "minutes": "minutes",
    "iterations": "iterations",
    "output": "output_dir",
    "resume": "resume",
    "games": "games",
    "simulations": "simulations",
    "guard": "guard",
    "symmetries": "symmetries",
    "convolutions": "convolutions",
    "search_value_weight": "search_value_weight",
    "value_lambda": "value_lambda",
    "hidden": "hidden",
    "lr": "lr",
    "final_lr_fraction": "final_lr_fraction",
    "eval_every": "eval_every",
    "eval_games": "eval_games",
    "final_eval_games": "final_eval_games",
    "seed": "seed",
    "workers": "workers",
    "address": "address",
}
#: The training algorithms, by ``--algorithm``, and the options each takes.
ALGORITHM_OPTIONS = {
    "ppo": {*TRAIN_OPTIONS, "policy_per_seat"},
    "alphazero": set(ALPHAZERO_OPTIONS),
}


def _train(args: argparse.Namespace) -> int:
    algorithm = getattr(args, "algorithm", "ppo")
    given_options = set(vars(args)) & set().union(*ALGORITHM_OPTIONS.values())
    wrong = sorted(given_options - ALGORITHM_OPTIONS[algorithm])
    if wrong:
        named = ", ".join("--" + name.replace("_", "-") for name in wrong)
        args.parser.error(f"{named} cannot be used with --algorithm {algorithm}")
    if "minutes" in args and "iterations" in args:
        args.parser.error(
            "--minutes and --iterations are two budgets: give one (--iterations alone counts "
            "iterations; --minutes alone, or neither, counts minutes)"
        )
    if "address" in args:
        _authenticate_to_cluster()
    if algorithm == "alphazero":
        return _train_alphazero(args)
    missing = [name for name in ("ray", "torch") if importlib.util.find_spec(name) is None]
    if missing:
        args.parser.error(f'training needs {" and ".join(missing)}: pip install "zoo-games[rllib]"')
    from zoo_games.rllib.train import TrainSettings, train

    given: dict[str, Any] = {
        field: getattr(args, option) for option, field in TRAIN_OPTIONS.items() if option in args
    }
    if getattr(args, "policy_per_seat", False):
        given["shared_policy"] = False
    try:
        settings = TrainSettings(variant=args.variant, **given).checked()
    except ValueError as problem:
        args.parser.error(str(problem))
    return _run_training(lambda: train(settings))


def _train_alphazero(args: argparse.Namespace) -> int:
    from zoo_games.alphazero.settings import AlphaZeroSettings

    options = ALPHAZERO_OPTIONS.items()
    given: dict[str, Any] = {
        field: getattr(args, option) for option, field in options if option in args
    }
    command = " ".join(["zoo-games", *args.argv])
    try:
        settings = AlphaZeroSettings(variant=args.variant, command=command, **given).checked()
    except ValueError as problem:
        args.parser.error(str(problem))
    from zoo_games.alphazero.train import train

    return _run_training(lambda: train(settings))


def _run_training(run: Callable[[], object]) -> int:
    """Run a checked training; what stops it early is one line and exit 1.

    No cluster to join, a checkpoint file that cannot be read back, or too little memory.
    """
    from zoo_games.training.checkpoints import UnreadableCheckpoint
    from zoo_games.training.cluster import ClusterConnectionError

    try:
        run()
    except (ClusterConnectionError, UnreadableCheckpoint) as problem:
        print(f"zoo-games train: {problem}", file=sys.stderr)
        return 1
    except (MemoryError, RuntimeError) as problem:
        # numpy raises MemoryError; torch a RuntimeError from its CPU allocator.
        if isinstance(problem, RuntimeError) and "can't allocate memory" not in str(problem):
            raise
        print(
            "zoo-games train: this machine lacks the memory these settings ask for: ask for "
            "smaller layers, fewer games at once or a smaller replay buffer",
            file=sys.stderr,
        )
        return 1
    return 0


def _authenticate_to_cluster() -> None:
    """Let Ray send this machine's cluster token, as ``ray start`` clusters require.

    Since Ray 2.5x a cluster started with ``ray start --head`` demands a token, but a driver
    joining it sends one only when ``RAY_AUTH_MODE=token`` is set before Ray is imported.
    When the user has not chosen a mode and a token is at hand (``RAY_AUTH_TOKEN``,
    ``RAY_AUTH_TOKEN_PATH``, or ``~/.ray/auth_token``, which ``ray start`` writes on the
    head), token mode is switched on here, before the training modules import Ray.
    """
    if "RAY_AUTH_MODE" in os.environ:
        return
    token_file = Path(os.environ.get("RAY_AUTH_TOKEN_PATH", Path.home() / ".ray" / "auth_token"))
    if os.environ.get("RAY_AUTH_TOKEN") or token_file.is_file():
        os.environ["RAY_AUTH_MODE"] = "token"


def _arena(args: argparse.Namespace) -> int:
    from zoo_games.arena.command import arena_command

    return arena_command(
        args.variant,
        args.agents,
        args.games,
        args.seed,
        workers=args.workers,
        out=args.out,
        gauntlet=args.gauntlet,
        opening_moves=args.opening_moves,
    )


def _play(args: argparse.Namespace) -> int:
    from zoo_games.play import run_play

    return run_play(args.variant, vs=args.vs, seat=args.seat, seed=args.seed)


def _serve(args: argparse.Namespace) -> int:
    missing = [name for name in ("starlette", "uvicorn") if importlib.util.find_spec(name) is None]
    if missing:
        args.parser.error(f'serving needs {" and ".join(missing)}: pip install "zoo-games[web]"')
    from zoo_games.web import ServerSettings
    from zoo_games.web.server import serve

    settings = ServerSettings(
        args.most_games, args.idle_minutes, args.move_seconds, args.checkpoints
    )
    return serve(args.host, args.port, settings)


# ---------------------------------------------------------------------- the parser
class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose mistakes are one line on stderr (exit status 2), no usage.

    Every subcommand's parser is one too (argparse makes them of their parent's class), so
    a mistake reads the same in every subcommand, and ``--help`` still shows the usage.
    """

    def error(self, message: str) -> NoReturn:
        """Print ``message`` in one line, pointing at ``--help``, and exit with status 2."""
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``zoo-games`` command."""
    parser = OneLineParser(prog="zoo-games", description="Board games as PettingZoo environments.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    listing = commands.add_parser("list", help="list every environment variant")
    listing.set_defaults(run=_list)

    known = labels()
    demo = commands.add_parser("demo", help="watch a seeded game between random agents")
    demo.add_argument("variant", nargs="?", default=known[0], choices=known, metavar="VARIANT")
    demo.add_argument("--seed", type=seed, default=0, help="seed of the game and of the agents")
    demo.add_argument(
        "--delay",
        type=non_negative_number,
        help="seconds to wait after each move (default: 0.5 at a terminal, 0 when piped)",
    )
    demo.add_argument("--gif", type=gif_file, help="also write a picture of every move to a GIF")
    demo.set_defaults(run=_demo, parser=demo)

    training = commands.add_parser(
        "train",
        help="self-play training: PPO with RLlib, or AlphaZero (needs the rllib extra)",
        description="Self-play training: PPO with RLlib (default) or AlphaZero on the batched "
        "engine. Defaults: see docs/training.md.",
        argument_default=argparse.SUPPRESS,  # the settings classes hold the defaults
    )
    training.add_argument("variant", choices=known, metavar="VARIANT")
    training.add_argument(
        "--algorithm", choices=tuple(ALGORITHM_OPTIONS), help="ppo (default) or alphazero"
    )
    training.add_argument("--minutes", type=positive_number, help="training time budget")
    training.add_argument(
        "--iterations", type=at_least(1), help="stop after this many instead (not with --minutes)"
    )
    training.add_argument(
        "--output",
        type=new_folder,
        help="output folder (default: a new runs/VARIANT[-N], alphazero: VARIANT-alphazero[-N])",
    )
    training.add_argument("--resume", action="store_true", help="continue the run in --output")
    training.add_argument(
        "--policy-per-seat", action="store_true", help="ppo: one policy per seat, not one shared"
    )
    training.add_argument(
        "--engine",
        choices=("batched", "env"),
        help="ppo: sample with the batched engine (default with numba) or the environment",
    )
    training.add_argument(
        "--games", type=at_least(1), help="alphazero: self-play games played at once"
    )
    training.add_argument(
        "--simulations", type=at_least(1), help="alphazero: search simulations per move"
    )
    training.add_argument(
        "--guard",
        action=argparse.BooleanOptionalAction,
        help="alphazero: self-play plays a win in one and leaves out moves that lose at once",
    )
    training.add_argument(
        "--symmetries",
        action=argparse.BooleanOptionalAction,
        help="alphazero: train on each position in a random symmetry of its board (Santorini's "
        "8 turns and reflections)",
    )
    training.add_argument(
        "--convolutions",
        type=at_least(1),
        nargs="*",
        metavar="CHANNELS",
        help="alphazero: channels of the 3x3 convolutions reading a board of planes (none: "
        "no convolutions)",
    )
    training.add_argument(
        "--search-value-weight",
        type=share,
        metavar="SHARE",
        help="alphazero: the value target's share of the search's root value, the rest the "
        "return (default 0)",
    )
    training.add_argument(
        "--value-lambda",
        type=share,
        metavar="LAMBDA",
        help="alphazero: the lambda of the value target's return, from 0 (the search's value "
        "of the next position) to 1 (the game's outcome, the default)",
    )
    training.add_argument(
        "--hidden",
        type=at_least(1),
        nargs="+",
        metavar="SIZE",
        help="widths of the network's hidden layers, e.g. 256 256",
    )
    training.add_argument(
        "--train-batch-size",
        type=at_least(1),
        metavar="STEPS",
        help="ppo: steps of experience per update (default 8000)",
    )
    training.add_argument(
        "--minibatch-size",
        type=at_least(1),
        metavar="STEPS",
        help="ppo: steps per SGD step, at most --train-batch-size (default 1000): smaller "
        "minibatches take more optimizer steps per batch",
    )
    training.add_argument(
        "--epochs",
        type=at_least(1),
        help="ppo: SGD passes over each batch of experience (default 1)",
    )
    training.add_argument(
        "--lr",
        type=positive_number,
        help="learning rate: the first, falling over the run to --final-lr-fraction of it",
    )
    training.add_argument(
        "--final-lr-fraction",
        type=final_fraction,
        metavar="SHARE",
        help="share of --lr (above 0, at most 1) the learning rate falls to along a cosine by "
        "the end of the budget; 1: constant (ppo default 1, alphazero 0.1)",
    )
    training.add_argument(
        "--entropy-coeff",
        type=non_negative_number,
        help="ppo: weight of the policy's entropy bonus in the loss",
    )
    training.add_argument(
        "--vf-loss-coeff",
        type=non_negative_number,
        help="ppo: weight of the value loss in the loss (default 1; policy and value share "
        "the network's trunk)",
    )
    training.add_argument(
        "--gae-lambda",
        type=share,
        metavar="LAMBDA",
        help="ppo: GAE's lambda, from 0 to 1 (default 0.95)",
    )
    training.add_argument(
        "--greedy-share",
        type=share,
        metavar="SHARE",
        help="ppo, batched engine: share of the games (0 to 1) in which greedy plays one seat "
        "(default 0.5; 0: self-play alone)",
    )
    training.add_argument(
        "--random-share",
        type=share,
        metavar="SHARE",
        help="ppo, batched engine: share of the games (0 to 1) in which uniformly random play "
        "takes one seat (default 0; with --greedy-share, at most 1 in all)",
    )
    training.add_argument(
        "--workers", type=at_least(0), help="alphazero: self-play workers on Ray (0: none)"
    )
    training.add_argument(
        "--overlap",
        action=argparse.BooleanOptionalAction,
        help="ppo: remote runners sample the next batch while the learner updates (default: "
        "on the batched engine unless --env-runners 0)",
    )
    training.add_argument(
        "--env-runners",
        type=at_least(0),
        help="ppo: remote sampling workers (default: 1 when overlapping, else 0, the driver)",
    )
    training.add_argument(
        "--envs-per-runner", type=at_least(1), help="ppo: environments (batched: games) per runner"
    )
    training.add_argument(
        "--eval-every", type=at_least(0), help="iterations between evaluations (0: none)"
    )
    training.add_argument("--eval-games", type=at_least(2), help="games per evaluation")
    training.add_argument("--final-eval-games", type=at_least(2), help="games at the end")
    training.add_argument("--seed", type=seed, help="seed of training and evaluation")
    training.add_argument(
        "--address", type=ray_address, help="join an existing Ray cluster (HOST:PORT or auto)"
    )
    training.set_defaults(run=_train, parser=training)

    # Values are checked by zoo_games.arena.command, which reports each in one line.
    arena = commands.add_parser(
        "arena", help="a round-robin tournament between agents, with win rates and Elo"
    )
    arena.add_argument("variant", metavar="VARIANT", help="a variant of 'zoo-games list'")
    arena.add_argument(
        "agents",
        nargs="+",
        metavar="AGENT",
        help="agent specs, e.g. random or mcts:simulations=400",
    )
    arena.add_argument(
        "--games", type=int, default=100, metavar="N", help="games per pairing, even (100)"
    )
    arena.add_argument("--seed", type=int, default=0, metavar="S", help="seed, >= 0 (0)")
    arena.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="W",
        help="processes playing the games (1)",
    )
    arena.add_argument(
        "--out", metavar="DIR", help="also write arena.json, arena.csv and arena.png there"
    )
    arena.add_argument(
        "--gauntlet",
        action="store_true",
        help="only the first agent's pairings: the first AGENT against each of the others",
    )
    arena.add_argument(
        "--opening-moves",
        type=int,
        default=0,
        metavar="N",
        help="begin every game with N random moves, the same for both seats (0)",
    )
    arena.set_defaults(run=_arena, parser=arena)

    # Values are checked by zoo_games.play, which reports each in one line (docs/play.md).
    playing = commands.add_parser(
        "play",
        help="play a game at the terminal (see docs/play.md)",
        epilog="exit codes: 0 game over, quit or end of input; 2 bad arguments; 130 Ctrl-C",
    )
    playing.add_argument("variant", metavar="VARIANT", help="a variant from 'zoo-games list'")
    playing.add_argument(
        "--vs", default="random", help="AGENT[:option=value,...], or 'human' (default: random)"
    )
    playing.add_argument("--seat", default="first", help="your seat: first or second")
    playing.add_argument("--seed", help="seed of the throws and the agent (default: drawn)")
    playing.set_defaults(run=_play)

    # Values are checked here; the app checks each game's fields (docs/play.md).
    serving = commands.add_parser(
        "serve",
        help="play in the browser: a local web app (see docs/play.md)",
        description="Serve a web app to play every variant against an agent or a person.",
    )
    serving.add_argument(
        "--host", type=host, default="127.0.0.1", help="address to listen on (127.0.0.1)"
    )
    serving.add_argument("--port", type=port, default=8000, help="port to listen on (8000)")
    serving.add_argument(
        "--move-seconds",
        type=positive_number,
        default=MOVE_SECONDS,
        metavar="S",
        help=f"the most an agent may think about one move, in seconds ({MOVE_SECONDS:g})",
    )
    serving.add_argument(
        "--most-games",
        type=at_least(1),
        default=MOST_GAMES,
        metavar="N",
        help=f"games kept in memory at once ({MOST_GAMES})",
    )
    serving.add_argument(
        "--idle-minutes",
        type=positive_number,
        default=IDLE_MINUTES,
        metavar="M",
        help=f"a game is dropped after this long without a request ({IDLE_MINUTES:g})",
    )
    serving.add_argument(
        "--checkpoints",
        type=existing_folder,
        metavar="DIR",
        help="offer the trained runs in DIR as rllib:checkpoint=RUN opponents (default: none)",
    )
    serving.set_defaults(run=_serve, parser=serving)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``zoo-games`` console script.

    When the reader of the output goes away (``zoo-games demo | head -3``), the command ends
    quietly with status 141, as a Unix tool killed by SIGPIPE does.
    """
    args = build_parser().parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)  # the command, as typed
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # Python flushes stdout once more at exit: let that flush go nowhere, silently.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return BROKEN_PIPE


if __name__ == "__main__":
    sys.exit(main())
