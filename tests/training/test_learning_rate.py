"""The learning-rate schedule both trainers follow (zoo_games.training.learning_rate)."""

from __future__ import annotations

import numpy as np
import pytest

from zoo_games.training.learning_rate import check_final_fraction, decayed


def test_the_learning_rate_falls_as_a_cosine_from_its_start_to_its_final_share() -> None:
    assert decayed(0.0, 0.1) == pytest.approx(1.0)
    assert decayed(0.5, 0.1) == pytest.approx(0.55)  # halfway down
    assert decayed(1.0, 0.1) == pytest.approx(0.1)
    assert decayed(1.7, 0.1) == pytest.approx(0.1)  # a budget overrun stays at the floor
    shares = [decayed(done, 0.2) for done in np.linspace(0, 1, 11)]
    assert shares == sorted(shares, reverse=True)
    assert decayed(0.3, 1.0) == pytest.approx(1.0)  # a share of 1: a constant rate


@pytest.mark.parametrize("value", [0.0, -0.5, 1.5, float("nan"), float("inf")])
def test_a_final_share_outside_above_0_to_1_is_refused(value: float) -> None:
    with pytest.raises(ValueError, match="final_lr_fraction must be more than 0 and at most 1"):
        check_final_fraction(value)


def test_final_shares_in_range_pass() -> None:
    for value in (0.01, 0.5, 1.0):
        check_final_fraction(value)
