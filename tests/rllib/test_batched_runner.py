"""The batched runner draws its actions from the module's masked categorical distribution."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ray.rllib")
pytest.importorskip("numba")

from zoo_games.rllib.batched_runner import _draw, _log_softmax
from zoo_games.rllib.module import ILLEGAL_LOGIT


def test_draws_follow_the_softmax_of_the_logits_and_never_an_illegal_action():
    logits = np.tile(np.array([0.0, 1.0, ILLEGAL_LOGIT, -1.0, 2.0], dtype=np.float32), (40_000, 1))
    log_probabilities = _log_softmax(logits)
    expected_probabilities = np.exp(logits[0].astype(np.float64) - 2.0)
    expected_probabilities /= expected_probabilities.sum()
    assert np.allclose(np.exp(log_probabilities[0]), expected_probabilities, atol=1e-6)
    for given in (logits, log_probabilities):  # a shift per row changes nothing
        drawn = _draw(given, np.random.default_rng(0), explore=True)
        counts = np.bincount(drawn, minlength=5)
        expected = expected_probabilities * len(drawn)
        assert counts[2] == 0
        # Each count within 5 standard deviations of its expectation.
        spread = np.sqrt(expected * (1 - expected / len(drawn)))
        assert bool((np.abs(counts - expected) <= 5 * spread + 1e-9).all()), (counts, expected)
    assert _draw(logits[:3], np.random.default_rng(0), explore=False).tolist() == [4, 4, 4]


class ZeroDraws:
    """A generator whose uniform draws are all exactly 0."""

    def random(self, shape: tuple[int, ...], dtype: type) -> np.ndarray:
        return np.zeros(shape, dtype=dtype)


def test_a_uniform_draw_of_exactly_zero_still_gives_a_legal_action():
    # numpy's float32 draws are multiples of 2**-24, so 0.0 comes about once in 2**24 draws; a
    # legal action drawing it must not lose to the illegal ones (a 20-minute Senet run once
    # played the pass this way).
    logits = np.array([[ILLEGAL_LOGIT, ILLEGAL_LOGIT, 0.5, ILLEGAL_LOGIT]], dtype=np.float32)
    assert _draw(logits, ZeroDraws(), explore=True).tolist() == [2]  # type: ignore[arg-type]
