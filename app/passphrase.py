"""A passphrase strength hint for the vault-creation screen (advice, not a gate)."""

from __future__ import annotations

import math
import string
from dataclasses import dataclass

MIN_LENGTH = 10


@dataclass(frozen=True)
class Strength:
    score: int  # 0 weak, 1 fair, 2 good, 3 strong
    bits: float


def estimate_bits(passphrase: str) -> float:
    """Length × log2(alphabet) with repeated characters discounted (a rough upper bound)."""
    if not passphrase:
        return 0.0
    alphabet = 0
    if any(c.islower() for c in passphrase):
        alphabet += 26
    if any(c.isupper() for c in passphrase):
        alphabet += 26
    if any(c.isdigit() for c in passphrase):
        alphabet += 10
    if any(c in string.punctuation or c == " " for c in passphrase):
        alphabet += 33
    if any(not c.isascii() for c in passphrase):
        alphabet += 2_350  # common Hangul syllables
    distinct = len(set(passphrase))
    effective_length = min(len(passphrase), distinct * 2)
    return effective_length * math.log2(max(alphabet, 2))


def strength(passphrase: str) -> Strength:
    bits = estimate_bits(passphrase)
    if len(passphrase) < MIN_LENGTH or bits < 40:
        score = 0
    elif bits < 60:
        score = 1
    elif bits < 80:
        score = 2
    else:
        score = 3
    return Strength(score=score, bits=bits)
