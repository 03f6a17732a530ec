"""The batched runner draws its actions from the module's masked categorical distribution."""

from __future__ import annotations

import pytest

pytest.importorskip("ray.rllib")
pytest.importorskip("numba")

import torch

from zoo_games.rllib.batched_runner import _draw
from zoo_games.rllib.module import ILLEGAL_LOGIT


def test_draws_follow_the_softmax_of_the_logits_and_never_an_illegal_action():
    torch.manual_seed(0)
    logits = torch.tensor([[0.0, 1.0, ILLEGAL_LOGIT, -1.0, 2.0]]).repeat(40_000, 1)
    drawn = _draw(logits, explore=True)
    counts = torch.bincount(drawn, minlength=5).double()
    expected = torch.softmax(logits[0].double(), dim=0) * len(drawn)
    assert counts[2] == 0
    # Each count within 5 standard deviations of its expectation.
    spread = (expected * (1 - expected / len(drawn))).sqrt()
    assert bool(((counts - expected).abs() <= 5 * spread + 1e-9).all()), (counts, expected)
    assert _draw(logits[:3], explore=False).tolist() == [4, 4, 4]


def test_a_uniform_draw_of_exactly_zero_still_gives_a_legal_action(monkeypatch):
    # torch.rand_like returns 0.0 about once in 2**24 draws; a legal action drawing it must
    # not lose to the illegal ones (a 20-minute Senet run once played the pass this way).
    logits = torch.tensor([[ILLEGAL_LOGIT, ILLEGAL_LOGIT, 0.5, ILLEGAL_LOGIT]])
    monkeypatch.setattr(torch, "rand_like", torch.zeros_like)
    assert _draw(logits, explore=True).tolist() == [2]
