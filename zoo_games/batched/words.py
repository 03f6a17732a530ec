"""Eight bytes at a time: a row's bytes read and written as 64-bit words.

The kernels keep boards and masks as bytes, most of them 0 or 1. Read as one 64-bit word,
eight such bytes are counted, summed or turned into bits with a multiplication or two instead
of eight reads and eight branches. numba compiles :func:`read_eight` and :func:`write_eight`
to a single load or store.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from zoo_games.batched.rng import Integer

#: A 1 in each byte of a 64-bit word.
BYTE_ONES = np.uint64(0x0101010101010101)
#: The top bit of each byte.
BYTE_TOPS = np.uint64(0x8080808080808080)
#: Multiplying a word of 0/1 bytes by this gathers byte ``i`` into bit ``56 + i``.
GATHER_BYTES = np.uint64(0x0102040810204080)
_SHIFT_7 = np.uint64(7)
_SHIFT_56 = np.uint64(56)


@njit(cache=True, inline="always")
def read_eight(values: np.ndarray, first: Integer) -> np.uint64:
    """``values[first : first + 8]`` (bytes) as one 64-bit word, the first in the low byte."""
    word = np.uint64(0)
    for offset in range(8):
        word |= np.uint64(values[first + offset]) << np.uint64(8 * offset)
    return word


@njit(cache=True, inline="always")
def read_at_most_eight(values: np.ndarray, first: Integer) -> np.uint64:
    """:func:`read_eight`, with zero bytes past the end of ``values``."""
    if first + 8 <= values.shape[0]:
        return read_eight(values, first)
    word = np.uint64(0)
    for offset in range(values.shape[0] - first):
        word |= np.uint64(values[first + offset]) << np.uint64(8 * offset)
    return word


@njit(cache=True, inline="always")
def write_eight(out: np.ndarray, first: Integer, word: np.uint64) -> None:
    """The eight bytes of ``word`` into ``out[first : first + 8]``, the low byte first."""
    for offset in range(8):
        out[first + offset] = (word >> np.uint64(8 * offset)) & np.uint64(0xFF)


@njit(cache=True, inline="always")
def byte_sum(word: np.uint64) -> int:
    """The sum of a word's bytes, when it is below 256 (eight 0/1 bytes, say).

    Multiplying by :data:`BYTE_ONES` adds every byte into the top one.
    """
    return int((word * BYTE_ONES) >> _SHIFT_56)


@njit(cache=True, inline="always")
def bytes_at_most(sums: np.uint64, limit: Integer) -> int:
    """How many bytes of ``sums`` are at most ``limit`` (all bytes and ``limit`` below 128).

    Each byte of ``(limit + 128) - byte`` keeps its top bit exactly when ``byte <= limit``,
    and no byte borrows from the next.
    """
    margins = ((np.uint64(limit) * BYTE_ONES) | BYTE_TOPS) - sums
    return byte_sum((margins & BYTE_TOPS) >> _SHIFT_7)


@njit(cache=True, inline="always")
def gather_bits(word: np.uint64) -> int:
    """The eight 0/1 bytes of ``word`` as the bits of one byte, byte ``i`` as bit ``i``."""
    return int((word * GATHER_BYTES) >> _SHIFT_56)


@njit(cache=True, inline="always")
def lowest_bit(word: np.uint64) -> int:
    """The place of the lowest set bit of a nonzero ``word`` (one instruction)."""
    return int(trailing_zeros(word))  # type: ignore[call-arg]  # numba's intrinsic, typed by numba


_BIT_PAIRS = np.uint64(0x5555555555555555)
_BIT_QUADS = np.uint64(0x3333333333333333)
_BIT_NIBBLES = np.uint64(0x0F0F0F0F0F0F0F0F)
_ONE, _TWO, _FOUR = np.uint64(1), np.uint64(2), np.uint64(4)


@njit(cache=True, inline="always")
def count_bits(word: np.uint64) -> int:
    """How many bits of ``word`` are set.

    The bits are summed in pairs, then fours, then bytes, and the bytes by :func:`byte_sum`.
    """
    pairs = word - ((word >> _ONE) & _BIT_PAIRS)
    quads = (pairs & _BIT_QUADS) + ((pairs >> _TWO) & _BIT_QUADS)
    return byte_sum((quads + (quads >> _FOUR)) & _BIT_NIBBLES)
