"""The ``zoo-games`` command: list the environments, watch a seeded demo game, train, play.

Examples: ``zoo-games list``, ``zoo-games demo senet-skyruk-5 --seed 3``,
``zoo-games demo senet-kendall-7 --gif game.gif``, ``zoo-games train senet-kendall-5``,
``zoo-games play togyz-kumalak --vs random``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

import numpy as np

from zoo_games.catalog import Variant, find_variant, variants
from zoo_games.core.adapter import BoardGameEnv


def _list(_: argparse.Namespace) -> int:
    for candidate in variants():
        print(f"{candidate.label:<24} {candidate.env_id:<28} {candidate.kwargs}")
    return 0


def play_demo(chosen: Variant, seed: int, delay: float = 0.0, gif: str | None = None) -> int:
    """Play one game between uniformly random agents, printing every move; return its length."""
    env = chosen.raw_env(render_mode="ansi")
    assert isinstance(env, BoardGameEnv)
    pictures = chosen.raw_env(render_mode="rgb_array") if gif else None
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    frames = []
    decisions = 0
    print(f"{chosen.label}: random agents, seed {seed}\n")
    while not all(env.terminations.values()):
        print(env.render())
        if pictures is not None:
            pictures.reset(options={"position": env.position()})
            frames.append(pictures.render())
        agent = env.agent_selection
        legal = env.legal_actions()
        action = int(legal[rng.integers(len(legal))])
        print(f"\n{agent} plays {action}: {env.action_to_string(action)}\n")
        env.step(action)
        decisions += 1
        if delay:
            time.sleep(delay)
    print(env.render())
    returns = {agent: env._cumulative_rewards[agent] for agent in env.possible_agents}
    print(f"\ngame over after {decisions} decisions; returns: {returns}")
    if gif and pictures is not None:
        _save_gif(gif, frames)
        print(f"pictures of every move written to {gif}")
    return decisions


def _save_gif(path: str, frames: list[np.ndarray]) -> None:
    from PIL import Image

    images = [Image.fromarray(frame) for frame in frames]
    images[0].save(path, save_all=True, append_images=images[1:], duration=600, loop=0)


def _demo(args: argparse.Namespace) -> int:
    play_demo(find_variant(args.variant), args.seed, args.delay, args.gif)
    return 0


def _train(args: argparse.Namespace) -> int:
    try:
        from zoo_games.rllib.train import TrainSettings, train
    except ImportError as missing:
        print(f"zoo-games train: {missing}", file=sys.stderr)
        return 2
    settings = TrainSettings(
        variant=args.variant,
        output_dir=args.output or f"runs/{args.variant}",
        minutes=args.minutes,
        iterations=args.iterations,
        shared_policy=not args.policy_per_seat,
        env_runners=args.env_runners,
        envs_per_env_runner=args.envs_per_runner,
        eval_every=args.eval_every,
        eval_games=args.eval_games,
        final_eval_games=args.final_eval_games,
        seed=args.seed,
        address=args.address,
        resume=args.resume,
    )
    train(settings)
    return 0


def _play(args: argparse.Namespace) -> int:
    from zoo_games.play import run_play

    return run_play(args.variant, vs=args.vs, seat=args.seat, seed=args.seed)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``zoo-games`` command."""
    parser = argparse.ArgumentParser(
        prog="zoo-games", description="Board games as PettingZoo environments."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    listing = commands.add_parser("list", help="list every environment variant")
    listing.set_defaults(run=_list)
    demo = commands.add_parser("demo", help="watch a seeded game between random agents")
    labels = [v.label for v in variants()]
    demo.add_argument("variant", nargs="?", default=labels[0], choices=labels, metavar="VARIANT")
    demo.add_argument("--seed", type=int, default=0, help="seed of the game and of the agents")
    demo.add_argument("--delay", type=float, default=0.0, help="seconds to wait after each move")
    demo.add_argument("--gif", help="also write a picture of every move to this GIF file")
    demo.set_defaults(run=_demo)

    training = commands.add_parser(
        "train", help="PPO self-play with RLlib (needs: pip install 'zoo-games[rllib]')"
    )
    training.add_argument("variant", choices=labels, metavar="VARIANT")
    training.add_argument("--minutes", type=float, default=20.0, help="training time budget")
    training.add_argument("--iterations", type=int, help="stop after this many iterations instead")
    training.add_argument("--output", help="output folder (default runs/VARIANT)")
    training.add_argument("--resume", action="store_true", help="continue from the checkpoint")
    training.add_argument(
        "--policy-per-seat", action="store_true", help="one policy per seat, not one shared"
    )
    training.add_argument("--env-runners", type=int, default=0, help="remote sampling workers")
    training.add_argument("--envs-per-runner", type=int, default=8, help="environments per runner")
    training.add_argument(
        "--eval-every", type=int, default=10, help="iterations between evaluations"
    )
    training.add_argument("--eval-games", type=int, default=100, help="games per evaluation")
    training.add_argument("--final-eval-games", type=int, default=200, help="games at the end")
    training.add_argument("--seed", type=int, default=0)
    training.add_argument("--address", help="address of an existing Ray cluster to join")
    training.set_defaults(run=_train)

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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``zoo-games`` console script."""
    args = build_parser().parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
