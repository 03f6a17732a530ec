"""What every training algorithm's run writes and how it is judged, shared by PPO and AlphaZero.

* :mod:`~zoo_games.training.checkpoints`: a checkpoint swapped in whole (a ``SIGKILL`` at any
  moment leaves one complete checkpoint), with the metrics it trained;
* :mod:`~zoo_games.training.evaluation`: the trained player against baseline agents, in the
  arena;
* :mod:`~zoo_games.training.plot`: the learning curve, strength against training time;
* :mod:`~zoo_games.training.folders`: a new run's folder, never one holding another run;
* :mod:`~zoo_games.training.threads`: the torch threads of a training process (needs torch);
* :mod:`~zoo_games.training.heap`: the objects made before the loop, kept out of the garbage
  collector's passes while it runs;
* :mod:`~zoo_games.training.cluster`: a Ray of the run's own, or a cluster joined (needs Ray).

They sit beside the agents and the arena, and both
:mod:`zoo_games.rllib` and :mod:`zoo_games.alphazero` import them.
"""
