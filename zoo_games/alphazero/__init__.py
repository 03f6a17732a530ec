"""AlphaZero-style self-play on the batched engine, and the trained players it ships.

The rooms, in the order a value flows through them:

* :mod:`~zoo_games.alphazero.network`: a policy-value network's weights as plain numpy
  arrays, the file format they are saved in, and their forward pass (no torch: a player of
  the shipped baselines needs numpy and numba only);
* the batched search that turns the network's guesses into better moves lives with the
  engine (:mod:`zoo_games.batched.search.alphazero`); :mod:`~zoo_games.alphazero.searching` says
  what this package needs of it, and is the one place that makes it;
* :mod:`~zoo_games.alphazero.selfplay`: every game of a batched engine played by the search,
  each position recorded with its search target and, once the game ends, its outcome or the
  λ-return of the searches that followed (:mod:`~zoo_games.alphazero.returns`);
* :mod:`~zoo_games.alphazero.replay`: the replay buffer, a numpy ring of positions;
* :mod:`~zoo_games.alphazero.learner`: the network in torch (the ``rllib`` extra), its loss
  and its optimizer, and the conversions to and from the numpy network;
* :mod:`~zoo_games.alphazero.settings` and :mod:`~zoo_games.alphazero.train`: the training
  loop (``zoo-games train VARIANT --algorithm alphazero``), with
  :mod:`~zoo_games.alphazero.remote` for self-play on Ray actors;
* :mod:`~zoo_games.alphazero.augment`: training positions shown in a random one of the
  board's symmetries;
* :mod:`~zoo_games.alphazero.player`: a network as an agent, alone or guiding the search,
  which training evaluates in the arena, with :mod:`~zoo_games.alphazero.guard` (what a read
  of the board settles before the search) and its readings averaged over the board's
  symmetries by :mod:`~zoo_games.alphazero.symmetric` (each position turned, numpy) or
  :mod:`~zoo_games.alphazero.folded` (the turns folded into the weights, for the search);
* :mod:`~zoo_games.alphazero.saved` and :mod:`~zoo_games.alphazero.agent`: the shipped
  baselines, and the ``alphazero`` agent that plays them or a run of your own.
"""
