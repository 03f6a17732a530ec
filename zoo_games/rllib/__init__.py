"""Training on zoo-games with RLlib (install with ``pip install "zoo-games[rllib]"``).

* :class:`~zoo_games.rllib.env.TurnBasedMultiAgentEnv`: any variant as an RLlib
  ``MultiAgentEnv`` (extra turns and final rewards handled for turn-based games);
* :class:`~zoo_games.rllib.module.MaskedActorCritic`: an action-masking torch RLModule that
  reads our dict observations of any shape and dtype and never samples an illegal action;
* :class:`~zoo_games.rllib.batched_runner.BatchedEnvRunner`: an RLlib EnvRunner that samples
  from the batched engine (:mod:`zoo_games.batched`), with the environment's episodes;
* :func:`~zoo_games.rllib.train.train`: PPO self-play with evaluation against random play,
  checkpoints that survive a kill, metrics and a learning curve, locally or on a Ray cluster.
"""

try:
    import ray.rllib  # noqa: F401
    import torch  # noqa: F401
except ImportError as missing:  # pragma: no cover - depends on the installation
    raise ImportError(
        'zoo_games.rllib needs the training extra: pip install "zoo-games[rllib]"'
    ) from missing
