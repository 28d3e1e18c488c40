"""Pack building, extraction and triage never open a network connection."""

from __future__ import annotations

import socket

import pytest

from engine.clinical import pack as pack_module
from engine.clinical.slots import load_and_warm_up


class NetworkBlocked(AssertionError):
    pass


def _refuse(*args, **kwargs):
    raise NetworkBlocked(f"network access attempted: {args!r}")


def test_build_extract_and_triage_with_sockets_blocked(tmp_path, monkeypatch):
    if not pack_module.concepts_path().exists():
        pytest.skip("concepts.tsv not available")
    monkeypatch.setattr(socket.socket, "connect", _refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", _refuse)
    monkeypatch.setattr(socket, "create_connection", _refuse)
    with pytest.raises(NetworkBlocked):
        socket.create_connection(("example.org", 80))

    target = tmp_path / "pack"
    manifest = pack_module.build_pack(target)
    pack = load_and_warm_up(target)
    assert manifest["inputs_sha256"] == pack.manifest["inputs_sha256"]

    from engine.clinical.red_flags import triage
    from engine.clinical.slots import extract

    slots = extract("기침이 나고 fever 38.5도, metformin 500mg 하루 두 번", pack)
    assert {s["name"] for s in slots["symptoms"]} >= {"cough", "fever"}
    assert slots["medications"][0]["frequency"] == "twice daily"
    assert triage("I can't breathe")["emergency"] is True
