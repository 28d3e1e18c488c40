"""`chartside vault ...`, export, `chartside bench memory` and the selftest check."""

from __future__ import annotations

import argparse
import json
import stat

import pytest

from engine.cli import main
from engine.cli import vault as vault_cli
from engine.errors import WrongPassphrase
from engine.memory.profile import ProfileStore
from engine.memory.selftest import check_vault
from engine.memory.store import Vault, default_vault_path
from engine.settings import Settings


def run_vault(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    vault_cli.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["vault", *argv])
    return args.func(args)


@pytest.fixture
def unlocked(monkeypatch):
    monkeypatch.setenv("CHARTSIDE_PASSPHRASE", "cli passphrase")


def test_init_patients_export_delete(unlocked, chartside_home, tmp_path, capsys):
    assert run_vault("init") == 0
    with Vault.open(default_vault_path(), "cli passphrase") as vault:
        patient = vault.create_patient("Park Soyeon")
        session = vault.create_session(patient)
        turn = vault.add_turn(session, "페니실린 알레르기가 있어요", "알겠습니다", [{"doc_id": "d1"}],
                              [{"kind": "allergy", "message": "penicillin"}], {})
        ProfileStore(vault).update(patient, {"allergies": [{"name": "penicillin", "text": "페니실린"}]}, turn)
    capsys.readouterr()
    assert run_vault("patients", "--json") == 0
    assert json.loads(capsys.readouterr().out)[0]["display_name"] == "Park Soyeon"

    exported_json, exported_md = tmp_path / "out" / "record.json", tmp_path / "out" / "record.md"
    assert run_vault("export", str(patient), str(exported_json)) == 0
    assert run_vault("export", str(patient), str(exported_md)) == 0
    record = json.loads(exported_json.read_text(encoding="utf-8"))
    assert record["patient"]["display_name"] == "Park Soyeon"
    assert record["sessions"][0]["turns"][0]["user_text"] == "페니실린 알레르기가 있어요"
    assert record["profile"]["allergies"][0]["name"] == "penicillin"
    markdown = exported_md.read_text(encoding="utf-8")
    assert markdown.startswith("# Park Soyeon") and "Allergies: penicillin (unconfirmed)" in markdown
    assert "**User:** 페니실린 알레르기가 있어요" in markdown
    assert stat.S_IMODE(exported_json.stat().st_mode) == 0o600
    assert not list((tmp_path / "out").glob("*.part"))

    assert run_vault("delete-patient", str(patient), "--yes") == 0
    assert run_vault("check") == 0
    with Vault.open(default_vault_path(), "cli passphrase") as vault:
        assert vault.list_patients() == []
        events = [(e["event"], e["detail"]) for e in vault.audit_log(patient_id=patient)]
    exports = [detail for event, detail in events if event == "patient.export"]
    assert [d["format"] for d in exports] == ["json", "markdown"]
    assert events[-1][0] == "patient.delete"


def test_rekey_from_the_command_line(unlocked, monkeypatch):
    run_vault("init")
    monkeypatch.setenv("CHARTSIDE_NEW_PASSPHRASE", "second passphrase")
    assert run_vault("rekey") == 0
    with pytest.raises(WrongPassphrase):
        run_vault("check")
    monkeypatch.setenv("CHARTSIDE_PASSPHRASE", "second passphrase")
    assert run_vault("check") == 0


def test_wrong_passphrase_is_a_clean_cli_error(unlocked, monkeypatch, capsys):
    run_vault("init")
    monkeypatch.setenv("CHARTSIDE_PASSPHRASE", "not the passphrase")
    assert main(["vault", "check"]) == 2
    assert "Wrong passphrase" in capsys.readouterr().err


def test_bench_memory_prints_the_figures(capsys):
    assert main(["bench", "memory", "--json", "--opens", "1", "--updates", "5", "--kdf-iterations", "10000"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["kdf_iterations"] == 10000
    for key in ("vault_open_ms", "key_only_ms", "profile_update_ms", "add_turn_ms", "retrieve_context_ms"):
        assert result[key]["n"] >= 1 and result[key]["p50"] > 0


def test_selftest_check(chartside_home):
    message = check_vault(Settings())
    assert "wrong passphrase rejected" in message
    assert list(chartside_home.iterdir()) == []
