"""Shared test fixtures: an isolated CHARTSIDE_HOME for every test, Qt offscreen."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

import engine  # noqa: F401  (offline switches before any library import)


@pytest.fixture(autouse=True)
def chartside_home(tmp_path, monkeypatch):
    home = tmp_path / "chartside_home"
    home.mkdir()
    monkeypatch.setenv("CHARTSIDE_HOME", str(home))
    monkeypatch.delenv("CHARTSIDE_PASSPHRASE", raising=False)
    return home
