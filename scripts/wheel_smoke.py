"""Check zoo-games as a user receives it: the installed wheel, not the repository.

Run with the Python of an environment where only the built wheel (and its dependencies) is
installed, from a directory outside the repository; ``scripts/ci_package.sh`` does exactly
that. It checks that the package is imported from the installation with its version metadata
and ``py.typed``, makes every variant of the catalog and plays a seeded game with random
agents, draws a picture, loads the packaged master games of Togyz Kumalak, runs the
``zoo-games`` command, finds the files of the browser page and plays every shipped
``alphazero`` baseline (the labels given as arguments). Any failure raises; the last
line printed is ``wheel smoke test passed``.
"""

from __future__ import annotations

import importlib.metadata
import importlib.resources
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

import zoo_games
from zoo_games import agents, catalog
from zoo_games.togyz_kumalak import master_games
from zoo_games.togyz_kumalak.notation import replay

MASTER_GAMES = 742


def check_installation() -> None:
    """The package comes from site-packages, with one version and its type marker."""
    location = Path(zoo_games.__file__).resolve()
    assert "site-packages" in location.parts, f"zoo_games imported from {location}, not a wheel"
    installed = importlib.metadata.version("zoo-games")
    assert installed == zoo_games.__version__, (installed, zoo_games.__version__)
    assert (importlib.resources.files("zoo_games") / "py.typed").is_file(), "py.typed missing"
    print(f"zoo-games {installed} from {location.parent}")


def play_every_variant() -> None:
    """Every variant plays a whole seeded game between random agents and ends zero-sum."""
    for variant in catalog.variants():
        env = variant.env()
        env.reset(seed=0)
        players = {agent: agents.make("random", seed=0) for agent in env.possible_agents}
        decisions = 0
        final_rewards = {}
        for agent in env.agent_iter():
            _, reward, termination, truncation, _ = env.last()
            if termination or truncation:
                final_rewards[agent] = reward
                env.step(None)
                continue
            env.step(players[agent].act(env.unwrapped.game_state))
            decisions += 1
        assert len(final_rewards) == 2, (variant.label, final_rewards)
        assert sum(final_rewards.values()) == 0, (variant.label, final_rewards)
        print(f"{variant.label}: {decisions} decisions, rewards {final_rewards}")


def draw_a_picture(folder: Path) -> None:
    """Every game draws an RGB picture, which Pillow saves as a PNG."""
    for variant in catalog.variants():
        env = variant.raw_env(render_mode="rgb_array")
        env.reset(seed=0)
        picture = env.render()
        assert picture.ndim == 3 and picture.shape[2] == 3, (variant.label, picture.shape)
        path = folder / f"{variant.label}.png"
        Image.fromarray(picture).save(path)
        assert path.stat().st_size > 0
    print(f"pictures of {len(catalog.variants())} variants drawn")


def load_master_games() -> None:
    """The packaged master games of Togyz Kumalak are all there and read back."""
    records = master_games()
    assert len(records) == MASTER_GAMES, f"{len(records)} master games, not {MASTER_GAMES}"
    replay(records[0].moves)  # raises at a move that is illegal or differs from its record
    print(f"{len(records)} master games of Togyz Kumalak; the first replays")


def run_the_command() -> None:
    """``zoo-games list``, the installed console script, names every variant."""
    command = Path(sys.executable).parent / "zoo-games"
    result = subprocess.run([str(command), "list"], capture_output=True, text=True, check=True)
    missing = [v.label for v in catalog.variants() if v.label not in result.stdout]
    assert not missing, f"zoo-games list does not name {missing}:\n{result.stdout}"
    print("zoo-games list names every variant")


def check_the_web_page() -> None:
    """The page of ``zoo-games serve`` ships in the wheel, and the command explains itself."""
    from zoo_games.web.page import read_static_files

    files = read_static_files()
    assert all(files.values()), [name for name, content in files.items() if not content]
    assert b'<script src="/static/app.js">' in files["index.html"]
    command = Path(sys.executable).parent / "zoo-games"
    result = subprocess.run(
        [str(command), "serve", "--help"], capture_output=True, text=True, check=True
    )
    assert "--move-seconds" in result.stdout, result.stdout
    print(f"the web page's {len(files)} files are in the wheel")


def play_the_baselines(expected: list[str]) -> None:
    """The wheel ships exactly the ``expected`` baselines, and each plays its variant.

    ``expected`` is what the repository's ``zoo_games/alphazero/baselines/`` holds
    (``ci_package.sh`` lists it), so a baseline left out of the package data is caught.
    The network alone (``simulations=0``) plays a seeded game against random: numpy only.
    """
    from zoo_games.alphazero.saved import baseline_variants
    from zoo_games.arena.play import play_arena_game

    shipped = baseline_variants()
    assert shipped == sorted(expected), f"the wheel ships baselines {shipped}, not {expected}"
    for label in shipped:
        seated = (agents.make("alphazero", simulations=0), agents.make("random", seed=0))
        played = play_arena_game(catalog.find_variant(label).game, seated, chance_seed=0)
        print(f"the {label} baseline plays: {played.moves[0]} moves against random")
    print(f"{len(shipped)} alphazero baselines in the wheel")


def main() -> None:
    """Run every check; the arguments are the baselines the wheel must ship."""
    check_installation()
    play_every_variant()
    with tempfile.TemporaryDirectory() as folder:
        draw_a_picture(Path(folder))
    load_master_games()
    run_the_command()
    check_the_web_page()
    play_the_baselines(sys.argv[1:])
    print("wheel smoke test passed")


if __name__ == "__main__":
    main()
