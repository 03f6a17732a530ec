"""PPO self-play on any zoo-games variant with RLlib, from a laptop to a Ray cluster.

:func:`train` (and ``zoo-games train``) builds PPO on RLlib's new API stack with the
:class:`~zoo_games.rllib.module.MaskedActorCritic` module, plays both seats with one shared
policy (or, with ``shared_policy=False``, one policy per seat), evaluates every few iterations
against baseline agents (``eval_opponents``, played in the arena), and writes into
``output_dir``:

* ``checkpoint/``: the latest algorithm checkpoint (``resume=True`` continues from it);
* ``metrics.csv``: one row per iteration (time, steps, loss, and the evaluations: a
  ``win_rate_vs_<opponent>`` column per opponent);
* ``learning_curve.png``: the win rate against each opponent over training time.

With ``address`` it connects to an existing Ray cluster (``ray start --head`` on one machine,
``ray start --address=...`` on the others) and spreads ``env_runners`` sampling workers over
it; without, it starts Ray on this machine.
"""

from __future__ import annotations

import functools
import importlib.util
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from ray.rllib.algorithms.algorithm import Algorithm
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.tune.registry import register_env

from zoo_games.arena.results import PairingResult
from zoo_games.catalog import find_variant
from zoo_games.core.adapter import AGENTS
from zoo_games.rllib.agent import load_module
from zoo_games.rllib.env import (
    GAMES_KEY,
    GREEDY_SHARE_KEY,
    RANDOM_SHARE_KEY,
    TurnBasedMultiAgentEnv,
)
from zoo_games.rllib.module import MaskedActorCritic
from zoo_games.rllib.overlapped_ppo import OverlappedPPO
from zoo_games.rllib.policies import module_folder, policy_ids, policy_mapping
from zoo_games.rllib.policy_agent import ModuleAgent
from zoo_games.rllib.ppo_batch import PPOBatch
from zoo_games.rllib.shaping import is_shaped
from zoo_games.training.budget import Budget
from zoo_games.training.checkpoints import (
    CHECKPOINT,
    METRICS,
    SETTINGS,
    check_budget_left,
    iterations_done,
    recover,
    save,
    saved_run,
    trained_rows,
    write_metrics,
)
from zoo_games.training.checks import (
    check_hidden,
    check_local_actors,
    check_non_negative,
    check_positive,
    check_seed,
    check_share,
    check_sparring_shares,
    usable_cores,
)
from zoo_games.training.cluster import start_ray
from zoo_games.training.evaluation import (
    check_evaluation,
    evaluate_against,
    win_rate_column,
    win_rates_text,
)
from zoo_games.training.folders import check_creatable, new_run_folder
from zoo_games.training.learning_rate import check_final_fraction, decayed
from zoo_games.training.loop import Schedule, Steps, train_iterations
from zoo_games.training.plot import plot_learning_curve
from zoo_games.training.threads import training_threads

ENV_NAME = "zoo_games_turn_based"
#: How the runners sample: the batched engine's kernels, or the PettingZoo environment.
ENGINES = ("batched", "env")
#: Games each runner plays at once, by engine. Batched: every game and seat makes an episode
#: chunk per sampling call, whatever its length, and RLlib's learner connectors work chunk by
#: chunk, so 64 games made whole iterations faster than 256 while sampling nearly as fast
#: (docs/training.md, "Choosing the settings"). Environment: eight environments stepped
#: together, several times faster than one.
ENVIRONMENTS_PER_RUNNER = {"batched": 64, "env": 8}
#: Iterations between evaluations, by engine. An evaluation counts against a run's minutes, so
#: they come rarely enough to cost about 5% of a run: a batched iteration is about ten times
#: shorter than one on the environment, and an evaluation of 100 games per opponent costs
#: about as much as 5-6 of Kendall's batched iterations (docs/training.md, "The folded
#: training pass, and faster evaluations").
EVAL_EVERY = {"batched": 100, "env": 10}
#: The share of each runner's games in which greedy plays one seat, by engine: half of them on
#: the batched engine (self-play alone learned to beat itself, not greedy:
#: docs/training_results.md); none on the environment path, which has no compiled greedy to
#: play it.
GREEDY_SHARE = {"batched": 0.5, "env": 0.0}
#: SGD passes over each batch. One: with sampling at the batched engine's speed the learner is
#: most of an iteration, so one pass leaves time for more batches, and in 20-minute runs it
#: learned as well as or better than two passes (docs/training.md, "Choosing the settings").
EPOCHS = 1
#: The share of ``lr`` the learning rate falls to by the end of the budget, along a cosine
#: (:func:`~zoo_games.training.learning_rate.decayed`): 1, a constant rate.
FINAL_LR_FRACTION = 1.0
#: What a run saved before runs recorded a setting was trained with (the values of their day,
#: which today's defaults need not keep): no sparring partner, two epochs, a constant learning
#: rate, no discount, GAE's lambda of 0.95 and RLlib's value-loss weight of 1.
UNRECORDED = {
    "greedy_share": 0.0,
    "random_share": 0.0,
    "epochs": 2,
    "final_lr_fraction": 1.0,
    "gamma": 1.0,
    "lambda_": 0.95,
    "vf_loss_coeff": 1.0,
}


@dataclass
class TrainSettings:
    """Everything a training run depends on; the defaults suit a 2-core machine."""

    variant: str = "senet-kendall-5"
    #: Where the run writes; ``None``: ``runs/<variant>``, or ``runs/<variant>-2``, ``-3``, ...
    #: if that already holds a run (resuming: ``runs/<variant>``).
    output_dir: str | None = None
    minutes: float = 20.0
    iterations: int | None = None
    shared_policy: bool = True
    #: ``"batched"`` (the batched engine's kernels, :mod:`zoo_games.rllib.batched_runner`) or
    #: ``"env"`` (the PettingZoo environment); ``None``: batched when numba is installed.
    engine: str | None = None
    #: Sample the next batch on the remote runners while the learner updates on this one
    #: (:mod:`zoo_games.rllib.overlapped_ppo`): each batch is one update old when trained on.
    #: ``None``: on the batched engine unless ``env_runners`` is 0 or the machine has one core.
    overlap: bool | None = None
    #: Remote sampling runners (0: the driver samples); ``None``: 1 when overlapping, else 0.
    env_runners: int | None = None
    #: Games each sampling runner plays at once; ``None``: ``ENVIRONMENTS_PER_RUNNER[engine]``.
    envs_per_env_runner: int | None = None
    # Two layers of 128: with sampling at the batched engine's speed the learner is most of
    # an iteration, and [128, 128] costs it far less time per step than [256, 256]
    # (docs/training.md, "Choosing the settings").
    hidden: list[int] = field(default_factory=lambda: [128, 128])
    train_batch_size: int = 8000
    minibatch_size: int = 1000
    #: SGD passes over each batch; ``None``: ``EPOCHS``, or a resumed run's own.
    epochs: int | None = None
    lr: float = 3e-4
    #: The learning rate falls from ``lr`` to this share of it over the budget (1: constant);
    #: ``None``: ``FINAL_LR_FRACTION``, or a resumed run's own.
    final_lr_fraction: float | None = None
    #: The discount (0 to 1). Board games are episodic with one reward at the end: no reason
    #: to discount it.
    gamma: float = 1.0
    #: GAE's lambda (0 to 1): how far advantages look ahead through real rewards before they
    #: lean on the value estimate.
    lambda_: float = 0.95
    entropy_coeff: float = 0.01
    #: The value loss's weight in PPO's loss (RLlib's default, 1). Policy and value share the
    #: module's trunk, so this weighs how much the trunk's features serve the value estimate
    #: against the policy.
    vf_loss_coeff: float = 1.0
    #: Potential-based shaping for games that define a potential (Togyz Kumalak and
    #: Santorini); returns are unchanged, see zoo_games.rllib.shaping.
    shaping: bool = True
    #: The share of each runner's games (0 to 1) in which the ``greedy`` agent, compiled,
    #: plays one seat and the policy the other (the batched engine only); 0: self-play alone.
    #: ``None``: ``GREEDY_SHARE[engine]``, or a resumed run's own.
    greedy_share: float | None = None
    #: The share of each runner's games (0 to 1) in which uniformly random play takes one seat
    #: (the batched engine only; with ``greedy_share``, at most 1 in all). ``None``: 0, or a
    #: resumed run's own.
    random_share: float | None = None
    #: Iterations between evaluations (0: none); ``None``: ``EVAL_EVERY[engine]``.
    eval_every: int | None = None
    eval_games: int = 100
    final_eval_games: int = 200
    #: Agent specs the trained policy is evaluated against (zoo_games.agents), each giving a
    #: ``win_rate_vs_<opponent>`` column; the first one's final result is what train returns.
    eval_opponents: tuple[str, ...] = ("random", "greedy")
    seed: int = 0
    address: str | None = None
    resume: bool = False

    @property
    def budget(self) -> Budget:
        """What the run may train: ``iterations`` when given, else ``minutes``."""
        return Budget(self.iterations, self.minutes)

    def checked(self) -> TrainSettings:
        """These settings with ``output_dir`` decided, or ``ValueError`` if they train nothing.

        Refused: an unknown variant or engine (or the batched engine without numba); a budget
        that trains nothing (minutes or iterations of 0 or less); counts below what they mean
        (``env_runners < 0``, no environment per runner); overlapping without remote runners
        (``overlap`` with ``env_runners`` of 0); evaluation games that cannot alternate
        seats, or unknown opponents; a share of games against greedy or random play outside 0-1,
        shares adding up to more than 1, or any above 0 off the batched engine; resuming a run
        that has no checkpoint, or one whose budget is spent, or whose checkpoint these settings
        cannot continue (another variant, engine, network shape, policy split, number of epochs,
        learning rate or its final share, entropy coefficient, value-loss weight, discount, GAE's
        lambda or shares of games against greedy and random play);
        and writing into a folder that already holds another run (it is never replaced), or an
        output folder that cannot be created.
        Resuming, a checkpoint swap that a kill interrupted is finished first
        (:func:`~zoo_games.training.checkpoints.recover`), and an unset engine, share or
        number of epochs is the run's own.
        """
        find_variant(self.variant)
        engine, environments = sampling(self)
        share, random_share, epochs = self.greedy_share, self.random_share, self.epochs
        final_fraction = self.final_lr_fraction
        if engine not in ENGINES:
            raise ValueError(f"unknown engine {engine!r}: choose one of {', '.join(ENGINES)}")
        if engine == "batched" and not numba_installed():
            raise ValueError(
                'the batched engine needs numba: pip install "zoo-games[batched]", '
                "or train with engine 'env'"
            )
        check_evaluation(  # an unknown opponent, or games that cannot alternate seats
            self.eval_opponents, eval_games=self.eval_games, final_eval_games=self.final_eval_games
        )
        self.budget.check()
        if environments < 1:
            raise ValueError(f"envs_per_env_runner must be 1 or more, got {environments}")
        for name, minimum in (
            ("env_runners", 0),
            ("train_batch_size", 1),
            ("minibatch_size", 1),
            ("epochs", 1),
        ):
            value = getattr(self, name)
            if value is not None and value < minimum:
                raise ValueError(f"{name} must be {minimum} or more, got {value}")
        if self.minibatch_size > self.train_batch_size:
            raise ValueError(
                f"minibatch_size {self.minibatch_size} is more than train_batch_size "
                f"{self.train_batch_size}: a minibatch is a part of the batch"
            )
        if self.overlap and self.env_runners == 0:
            raise ValueError(
                "overlap needs remote runners to sample while the learner updates: ask for "
                "env_runners of 1 or more, or do not overlap"
            )
        check_seed(self.seed)
        check_hidden(self.hidden)
        check_positive("lr", self.lr)
        if self.final_lr_fraction is not None:
            check_final_fraction(self.final_lr_fraction)
        check_non_negative("entropy_coeff", self.entropy_coeff)
        check_non_negative("vf_loss_coeff", self.vf_loss_coeff)
        check_share("gamma", self.gamma)
        check_share("lambda_", self.lambda_)
        for name in ("greedy_share", "random_share"):
            if getattr(self, name) is not None:
                check_share(name, getattr(self, name))
        output = Path(self.output_dir or f"runs/{self.variant}")
        if self.resume:
            recover(output)
            if not (output / CHECKPOINT).is_dir():
                raise ValueError(f"nothing to resume: {output / CHECKPOINT} does not exist")
            resumable = ("engine", "greedy_share", "random_share", "epochs", "final_lr_fraction")
            unset = [name for name in resumable if getattr(self, name) is None]
            asked = {**self.run_settings(), "engine": engine}
            continued = _continued(output, asked, unset)
            if not any((output / CHECKPOINT).glob(f"{Algorithm.STATE_FILE_NAME}.*")):
                raise ValueError(
                    f"nothing to resume: {output / CHECKPOINT} holds no algorithm state "
                    f"({Algorithm.STATE_FILE_NAME}.pkl), which a PPO run's checkpoint holds"
                )
            engine, share = continued["engine"], continued["greedy_share"]
            random_share, epochs = continued["random_share"], continued["epochs"]
            final_fraction = continued["final_lr_fraction"]
            if self.envs_per_env_runner is None:
                environments = ENVIRONMENTS_PER_RUNNER[engine]
            check_budget_left(output, self.budget)
        else:
            output = new_run_folder(output, chosen=self.output_dir is not None)
        # Decided on the engine the run samples with: a resume may have taken the run's own.
        overlap, env_runners = overlapping(self, engine)
        check_local_actors("env_runners", env_runners, self.address)
        share, random_share = greedy_share(share, engine), random_share or 0.0
        for name, value in (("greedy_share", share), ("random_share", random_share)):
            if value and engine != "batched":
                raise ValueError(
                    f"{name} {value} needs the batched engine (the sparring partners play on "
                    "its rows); the environment path trains by self-play alone"
                )
        default = " (the default)" if self.greedy_share is None else ""
        check_sparring_shares(share, random_share, default)
        check_creatable(output)
        eval_every = EVAL_EVERY[engine] if self.eval_every is None else self.eval_every
        if eval_every < 0:
            raise ValueError(f"eval_every must be 0 or more, got {eval_every}")
        return replace(
            self,
            output_dir=str(output),
            engine=engine,
            overlap=overlap,
            env_runners=env_runners,
            envs_per_env_runner=environments,
            eval_every=eval_every,
            greedy_share=share,
            random_share=random_share,
            epochs=EPOCHS if epochs is None else epochs,
            final_lr_fraction=FINAL_LR_FRACTION if final_fraction is None else final_fraction,
        )

    def run_settings(self) -> dict[str, Any]:
        """What a checkpoint of these settings can only be continued with.

        The epochs, the learning rate and its final share, the entropy coefficient, the value
        loss's weight, the discount, GAE's lambda, the shares of games against greedy and
        random play and the reward shaping too: a resumed run goes on as it was trained, rather
        than mixing settings within one run's curve without saying so. The variant's
        observation shape as well, should a variant's default observation change between the
        run and its resume. Shaping is recorded as it applies
        (:func:`~zoo_games.rllib.shaping.is_shaped`), so that asking for it or not in a game
        that has no potential changes nothing.
        """
        return {
            "variant": self.variant,
            "observation_shape": list(find_variant(self.variant).observation_shape),
            "engine": self.engine,
            "shared_policy": self.shared_policy,
            "hidden": list(self.hidden),
            "epochs": self.epochs,
            "lr": self.lr,
            "final_lr_fraction": self.final_lr_fraction,
            "entropy_coeff": self.entropy_coeff,
            "vf_loss_coeff": self.vf_loss_coeff,
            "gamma": self.gamma,
            "lambda_": self.lambda_,
            "greedy_share": self.greedy_share,
            "random_share": self.random_share,
            "shaping": is_shaped(find_variant(self.variant).game.name, self.shaping),
        }


def _continued(output: Path, asked: dict[str, Any], unset: list[str]) -> dict[str, Any]:
    """``asked`` as the run in ``output`` continues it, or ``ValueError`` if it cannot.

    The settings named in ``unset`` (the engine, the shares of games against greedy and random
    play, the epochs, the learning rate's final share) continue with the run's own; a run saved
    before it recorded one of ``UNRECORDED`` trained with the value there.
    """
    saved = saved_run(output, list(asked))
    if "algorithm" in saved:  # only AlphaZero's runs name theirs
        raise ValueError(
            f"the run in {output} was trained with --algorithm {saved['algorithm']}; resume it "
            "with that algorithm"
        )
    saved = {**UNRECORDED, **saved}
    if "variant" in saved:
        # Recorded as it applied. A run saved before it was recorded had the default, shaping
        # on (the command has no setting for it), and an older run's settings.txt holds the
        # flag as asked: either way, what applied follows from its game.
        game_name = find_variant(saved["variant"]).game.name
        saved["shaping"] = is_shaped(game_name, saved.get("shaping", True))
    if "observation_shape" not in saved:
        # A run saved before runs recorded it (a togyz-kumalak run of the board, say, before
        # the captures became that variant's default): its module says what it reads.
        folder = module_folder(output / CHECKPOINT, AGENTS[0], saved.get("shared_policy", True))
        if folder.is_dir():
            module = load_module(folder)
            saved["observation_shape"] = list(module.observation_space["observation"].shape)
    for name in unset:
        if name in saved:
            asked[name] = saved[name]
    for name, value in saved.items():
        if asked.get(name) != value:
            raise ValueError(
                f"cannot resume the run in {output} with {name} {asked.get(name)!r}: it was "
                f"trained with {name} {value!r}"
            )
    return asked


def numba_installed() -> bool:
    """Whether the batched engine can run here."""
    return importlib.util.find_spec("numba") is not None


def sampling(settings: TrainSettings) -> tuple[str, int]:
    """The engine and the environments (games) per runner these settings sample with.

    Unset, the engine is ``"batched"`` when numba is installed (every variant has kernels),
    else ``"env"``; the environments per runner are the engine's default.
    """
    engine = settings.engine or ("batched" if numba_installed() else "env")
    environments = settings.envs_per_env_runner
    if environments is None:
        environments = ENVIRONMENTS_PER_RUNNER.get(engine, 1)
    return engine, environments


def overlapping(settings: TrainSettings, engine: str) -> tuple[bool, int]:
    """Whether these settings overlap sampling with the update on ``engine``; their runners.

    Unset, runners overlap on the batched engine (where sampling and the update each take
    about half of an iteration) unless ``env_runners`` is 0, which asks for sampling on the
    driver, or the run starts a Ray of its own on a machine of one core, where the runner and
    the learner would only take turns at it. Overlapping needs a remote runner, one unless
    ``env_runners`` says more.
    """
    overlap = settings.overlap
    if overlap is None:
        spare_core = settings.address is not None or usable_cores() > 1
        overlap = engine == "batched" and settings.env_runners != 0 and spare_core
    env_runners = settings.env_runners
    if env_runners is None:
        env_runners = 1 if overlap else 0
    return overlap, env_runners


def greedy_share(share: float | None, engine: str) -> float:
    """The share of games against greedy: ``share``, or the engine's default if it is unset."""
    return GREEDY_SHARE.get(engine, 0.0) if share is None else share


def ppo_config(settings: TrainSettings) -> PPOConfig:
    """PPO on the new API stack, masked module, self-play."""
    find_variant(settings.variant)  # fail early, with the list of variants, on a typo
    engine, environments = sampling(settings)
    overlap, env_runners = overlapping(settings, engine)
    environment: dict[str, Any] = {"variant": settings.variant, "shaping": settings.shaping}
    runners: dict[str, Any] = {
        "num_env_runners": env_runners,
        # Our connectors hold no state (no observation filter), so there is nothing to merge
        # across runners after an iteration; gathering it would also wait for an overlapped
        # sample still in flight.
        "merge_env_runner_states": False,
        "broadcast_env_runner_states": False,
    }
    if engine == "batched":
        from zoo_games.rllib.batched_runner import BatchedEnvRunner

        environment[GAMES_KEY] = environments
        environment[GREEDY_SHARE_KEY] = greedy_share(settings.greedy_share, engine)
        environment[RANDOM_SHARE_KEY] = settings.random_share or 0.0
        # One environment per runner, for its spaces; the runner plays the engine's games.
        runners.update(env_runner_cls=BatchedEnvRunner, num_envs_per_env_runner=1)
    else:
        runners.update(num_envs_per_env_runner=environments)
    register_env(ENV_NAME, lambda config: TurnBasedMultiAgentEnv(config))
    module_spec = RLModuleSpec(
        module_class=MaskedActorCritic, model_config={"hidden": list(settings.hidden)}
    )
    policies = policy_ids(settings.shared_policy)
    return (
        PPOConfig(algo_class=OverlappedPPO if overlap else None)
        .environment(
            ENV_NAME,
            env_config=environment,
            # RLlib's checker steps once with an unmasked random action; our raw_env rightly
            # raises on an illegal action, so the check is skipped (the tests cover the env).
            disable_env_checking=True,
        )
        .env_runners(**runners)
        .multi_agent(
            policies=set(policies), policy_mapping_fn=policy_mapping(settings.shared_policy)
        )
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(rl_module_specs=dict.fromkeys(policies, module_spec))
        )
        .training(
            train_batch_size_per_learner=settings.train_batch_size,
            minibatch_size=settings.minibatch_size,
            num_epochs=EPOCHS if settings.epochs is None else settings.epochs,
            lr=settings.lr,
            gamma=settings.gamma,
            lambda_=settings.lambda_,
            entropy_coeff=settings.entropy_coeff,
            vf_loss_coeff=settings.vf_loss_coeff,
        )
        .learners(
            # The whole learner pipeline, GAE included, in one piece that works on arrays.
            learner_connector=functools.partial(
                PPOBatch, gamma=settings.gamma, lambda_=settings.lambda_
            ),
            add_default_connectors_to_learner_pipeline=False,
        )
        .debugging(seed=settings.seed)
        # OverlappedPPO calls its runners itself, not through RLlib's fault-tolerant manager:
        # a runner that fails ends the run (its checkpoint resumes it), and Ray is not asked
        # to restart runners in the middle of a sample nobody would collect.
        .fault_tolerance(restart_failed_env_runners=not overlap)
    )


def _train_iteration(algo: Any, settings: TrainSettings, spent: float) -> dict[str, Any]:
    """One PPO iteration at the learning rate of the budget ``spent`` before it.

    RLlib holds a constant rate (``ppo_config`` gives it ``lr``) and sets each optimizer back
    to it after every update, so the rate of the schedule is set on the learners' optimizers
    before each iteration: all of the iteration's minibatches step with it.
    """
    assert settings.final_lr_fraction is not None  # set by checked()
    lr = settings.lr * decayed(spent, settings.final_lr_fraction)

    def set_rate(learner: Any) -> None:
        for module_id in list(learner.module.keys()):
            for _, optimizer in learner.get_optimizers_for_module(module_id):
                for group in optimizer.param_groups:
                    group["lr"] = lr

    algo.learner_group.foreach_learner(set_rate)
    return algo.train()


def trained_agent(algo: Any, settings: TrainSettings) -> ModuleAgent:
    """The trained policies as an agent: each seat played greedily by its module."""
    mapping = policy_mapping(settings.shared_policy)
    modules = {seat: algo.get_module(mapping(seat)) for seat in AGENTS}
    return ModuleAgent(modules, settings.variant)


def evaluate(algo: Any, settings: TrainSettings, games: int, seed: int) -> dict[str, PairingResult]:
    """The trained policies against each of ``settings.eval_opponents``, arena seed ``seed``."""
    return evaluate_against(
        trained_agent(algo, settings), settings.variant, settings.eval_opponents, games, seed
    )


def train(settings: TrainSettings, progress: Callable[[str], None] = print) -> PairingResult:
    """Train until ``minutes`` or ``iterations`` run out; return the final evaluation.

    The policy is evaluated before training (iteration 0, so that a learning curve always has
    its start), every ``eval_every`` iterations, and at the end, against each of
    ``eval_opponents``; the evaluation returned is the final one against the first of them
    (every opponent's is in ``metrics.csv``). Torch and numpy's BLAS run on
    :data:`~zoo_games.training.threads.TRAINING_THREADS` threads.
    """
    with training_threads():
        return _train(settings.checked(), progress)


def _train(settings: TrainSettings, progress: Callable[[str], None]) -> PairingResult:
    assert settings.output_dir is not None
    start_ray(settings.address)
    output = Path(settings.output_dir).resolve()
    output.mkdir(parents=True, exist_ok=True)
    checkpoint = output / CHECKPOINT
    algo = ppo_config(settings).build_algo()
    rows: list[dict[str, Any]] = []
    if settings.resume:
        algo.restore_from_path(str(checkpoint))
        rows = trained_rows(output)  # the rows the checkpoint trained, whatever a kill left
        write_metrics(output / METRICS, rows, metrics_columns(settings.eval_opponents))
        progress(f"resumed from {checkpoint} after {iterations_done(rows)} iterations")
    steps = Steps(
        iterate=lambda spent: _metrics_row(_train_iteration(algo, settings, spent)),
        evaluate=lambda games, seed: evaluate(algo, settings, games, seed),
        save=lambda saved_rows: _save(algo, saved_rows, output, settings),
    )
    schedule = Schedule(
        settings.budget,
        settings.eval_every or 0,  # set by checked()
        settings.eval_games,
        settings.final_eval_games,
        settings.seed,
    )
    try:
        finals = train_iterations(steps, schedule, rows, progress, _progress_line)
        progress(f"outputs in {output}")
        return finals[settings.eval_opponents[0]]
    finally:
        algo.stop()


def metrics_columns(opponents: tuple[str, ...]) -> list[str]:
    """The columns of ``metrics.csv``: training figures, then the evaluations."""
    win_rates = [win_rate_column(opponent) for opponent in opponents]
    return [
        "iteration",
        "minutes",
        "env_steps",
        "episodes",
        "mean_episode_length",
        "policy_loss",
        "value_loss",
        "entropy",
        *win_rates,
        "eval_games",
        *("final_" + column for column in win_rates),
        "final_eval_games",
    ]


def _metrics_row(result: dict[str, Any]) -> dict[str, Any]:
    """The figures of ``metrics.csv`` that an iteration's result dict holds."""
    runners = result.get("env_runners", {})
    learners = result.get("learners", {})
    learner: dict[str, Any] = next((v for k, v in learners.items() if k != "__all_modules__"), {})
    return {
        "env_steps": runners.get("num_env_steps_sampled_lifetime"),
        "episodes": runners.get("num_episodes_lifetime"),
        "mean_episode_length": _rounded(runners.get("episode_len_mean")),
        "policy_loss": _rounded(learner.get("policy_loss")),
        "value_loss": _rounded(learner.get("vf_loss")),
        "entropy": _rounded(learner.get("entropy")),
    }


def _rounded(value: Any) -> Any:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return ""
    return round(number, 5) if math.isfinite(number) else ""


def _progress_line(row: dict[str, Any]) -> str:
    text = f"iter {row['iteration']:>4}  {float(row['minutes']):6.2f} min"
    if "env_steps" in row:  # not before the first iteration
        text += f"  steps {row['env_steps']}  entropy {row['entropy']}"
    return text + win_rates_text(row)


def _save(algo: Any, rows: list[dict[str, Any]], output: Path, settings: TrainSettings) -> None:
    """The checkpoint (swapped in whole, with its metrics), then the run's outputs."""
    columns = metrics_columns(settings.eval_opponents)
    save(
        output,
        lambda folder: algo.save_to_path(str(folder)),
        settings.run_settings(),
        rows,
        columns,
    )
    write_metrics(output / METRICS, rows, columns)
    (output / SETTINGS).write_text(
        "\n".join(f"{key} = {value!r}" for key, value in asdict(settings).items()) + "\n"
    )
    plot_learning_curve(
        rows,
        output / "learning_curve.png",
        title=settings.variant,
        opponents={opponent: win_rate_column(opponent) for opponent in settings.eval_opponents},
    )
