"""AlphaZero-style self-play on the batched engine, and the trained players it ships.

The rooms, in the order a value flows through them:

* :mod:`~zoo_games.alphazero.network`: a policy-value network's weights as plain numpy
  arrays, the file format they are saved in, and their forward pass (no torch: a player of
  the shipped baselines needs numpy and numba only);
* the batched search that turns the network's guesses into better moves lives with the
  engine, in :mod:`zoo_games.batched`;
* self-play, the replay buffer, the learner (torch, the ``rllib`` extra) and the training
  loop;
* the ``alphazero`` agent, which plays a shipped baseline or a run of your own.
"""
