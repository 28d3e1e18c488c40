"""The response cache table: key lookup, similarity, fingerprint validity, TTL, LRU."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import numpy as np
import pytest

from engine.memory.cache import CacheTable

START = datetime(2026, 11, 22, 9, 0, tzinfo=timezone.utc)


class Clock:
    def __init__(self):
        self.now = START

    def __call__(self):
        return self.now


@pytest.fixture
def clock(vault):
    vault.clock = Clock()
    return vault.clock


@pytest.fixture
def cache(vault, clock):
    return CacheTable(vault)


def unit(*values):
    vector = np.asarray(values, dtype=np.float32)
    return vector / np.linalg.norm(vector)


def test_get_by_key_and_fingerprint_validity(cache):
    cache.put("what is hypertension", "What is hypertension?", {"answer": "general"}, unit(1, 0, 0))
    cache.put("can i take ibuprofen", "Can I take ibuprofen?", {"answer": "for you"}, unit(0, 1, 0),
              profile_fingerprint="fp-A", patient_id=1)
    assert cache.get("what is hypertension")["response"] == {"answer": "general"}
    assert cache.get("what is hypertension", profile_fingerprint="fp-B")["response"] == {"answer": "general"}
    assert cache.get("can i take ibuprofen", profile_fingerprint="fp-A")["response"] == {"answer": "for you"}
    assert cache.get("can i take ibuprofen", profile_fingerprint="fp-B") is None  # the profile changed
    assert cache.get("can i take ibuprofen") is None
    assert cache.get("never stored") is None


def test_similar_uses_the_threshold_and_ranks(cache):
    cache.put("a", "a", {"answer": "A"}, unit(1, 0, 0))
    cache.put("b", "b", {"answer": "B"}, unit(0.9, 0.1, 0))
    cache.put("c", "c", {"answer": "C"}, unit(0, 0, 1))
    found = cache.similar(unit(1, 0.02, 0))
    assert [e["key"] for e in found] == ["a", "b"]
    assert found[0]["similarity"] > found[1]["similarity"] >= 0.85
    assert cache.similar(unit(1, 0.02, 0), threshold=0.99999) == []


def test_entries_expire_after_their_ttl(cache, clock):
    cache.put("short", "q", {"answer": "x"}, unit(1, 0), ttl_seconds=60)
    cache.put("default", "q", {"answer": "y"}, unit(1, 0))
    clock.now = START + timedelta(seconds=61)
    assert cache.get("short") is None and cache.get("default") is not None
    assert cache.similar(unit(1, 0))[0]["key"] == "default"
    assert cache.purge_expired() == 1
    clock.now = START + timedelta(days=2)
    assert cache.get("default") is None


def test_least_recently_used_entries_are_evicted(vault, clock):
    vault.settings.cache.max_entries = 3
    cache = CacheTable(vault)
    for i, key in enumerate("abc"):
        clock.now = START + timedelta(seconds=i)
        cache.put(key, key, {"answer": key}, unit(1, i))
    clock.now = START + timedelta(seconds=10)
    assert cache.get("a") is not None  # refreshes "a"
    clock.now = START + timedelta(seconds=11)
    cache.put("d", "d", {"answer": "d"}, unit(0, 1))
    assert cache.count() == 3
    assert cache.get("b") is None and cache.get("a") is not None


def test_clear_by_patient(cache):
    cache.put("x", "x", {}, profile_fingerprint="f", patient_id=7)
    cache.put("y", "y", {})
    assert cache.clear(patient_id=7) == 1
    assert cache.count() == 1
