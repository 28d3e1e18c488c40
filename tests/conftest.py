"""Shared test fixtures: an isolated CHARTSIDE_HOME for every test, Qt offscreen, and one
real MedCAT pack per session (built from ../shared/data/concepts.tsv and the lexicons into
a temporary directory, about 5-10 s, then installed as the process pack)."""

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


@pytest.fixture(scope="session")
def built_pack_dir(tmp_path_factory):
    from engine.clinical import pack as pack_module

    if not pack_module.concepts_path().exists():
        pytest.skip(f"concepts.tsv not found at {pack_module.concepts_path()}")
    target = tmp_path_factory.mktemp("clinical") / "pack"
    pack_module.build_pack(target)
    return target


@pytest.fixture(scope="session")
def clinical_pack(built_pack_dir):
    from engine.clinical import slots

    pack = slots.load_and_warm_up(built_pack_dir)
    previous = slots.install_process_pack(pack)
    yield pack
    slots.install_process_pack(previous)
