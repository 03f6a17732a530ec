"""Tree search over the batched kernels: one tree layout, two drivers, two kinds of leaf values.

The searches build on the engine's kernels (the room below) and serve the agents and
AlphaZero's self-play (the rooms above):

* :mod:`~zoo_games.batched.search.tree`: the node records, their allocation, chance nodes,
  backup and solving, shared by both searches;
* :mod:`~zoo_games.batched.search.selection`: how a child is picked (UCT, PUCT, Gumbel);
* :mod:`~zoo_games.batched.search.templates`: how the compiled code binds one game's kernels;
* :mod:`~zoo_games.batched.search.rollouts` and :mod:`~zoo_games.batched.search.evaluators`:
  leaf values from random rollouts (compiled) or from any evaluator called from Python, such
  as a policy-value network;
* :mod:`~zoo_games.batched.search.uct`: ``batched-mcts``'s driver, whole simulations compiled;
* :mod:`~zoo_games.batched.search.alphabeta`: the ``alphabeta`` agent's depth-first search,
  no tree kept, its stack of plies compiled;
* :mod:`~zoo_games.batched.search.alphazero` (with its compiled steps,
  :mod:`~zoo_games.batched.search.alphazero_steps`): many games' trees searched at once, their
  leaves evaluated together between compiled steps.
"""
