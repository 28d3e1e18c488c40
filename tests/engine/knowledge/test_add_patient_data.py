"""`kb add` says the knowledge base is plain and travels in bundles, refuses documents that
look like patient data (masked lines listed, nothing added), and takes an explicit
override only with the vault's audit log (real SQLCipher) recording it."""

from __future__ import annotations

import json

import pytest

from engine.cli import main
from engine.errors import PatientDataFound
from engine.knowledge.patient_data import OVERRIDE_EVENT
from engine.memory.store import Vault
from engine.settings import default_vault_path, load_settings

PASSPHRASE = "kb override 감사 passphrase"
RECORD = ("외래 경과 기록\n"
          "환자: 김민준, 2024-03-02 내원\n"
          "주민등록번호 800101-1234567 / 연락처 010-9876-5432\n"
          "Metformin 500 mg twice daily; recheck HbA1c in 3 months (2019 guideline).\n")
PROTOCOL = "# Diabetes clinic\n\nMetformin 500 mg twice daily; recheck HbA1c in 3 months (2019 guideline).\n"


@pytest.fixture
def built(tiny_shared, hashing_embedder, chartside_home, tmp_path, capsys):
    (chartside_home / "settings.toml").write_text("[vault]\nkdf_iterations = 10000\n", encoding="utf-8")
    assert main(["kb", "build"]) == 0
    files = tmp_path / "docs"
    files.mkdir()
    (files / "record.txt").write_text(RECORD, encoding="utf-8")
    (files / "protocol.md").write_text(PROTOCOL, encoding="utf-8")
    capsys.readouterr()
    return files


def listed(capsys) -> list[str]:
    assert main(["kb", "list", "--json"]) == 0
    return sorted(d["title"] for d in json.loads(capsys.readouterr().out))


def test_patient_data_is_refused_with_masked_lines_and_nothing_is_added(built, capsys):
    assert main(["kb", "add", str(built)]) == 2
    out = capsys.readouterr()
    assert "not encrypted" in out.err and "never patient records" in out.err
    assert "record.txt: looks like patient data on 2 line(s):" in out.err
    assert "line 2: name and date: " in out.err
    assert "line 3: resident registration number: " in out.err and "line 3: phone number: " in out.err
    assert "######-#######" in out.err
    for secret in ("800101", "1234567", "9876", "5432", "민준"):
        assert secret not in out.err + out.out
    assert "protocol.md" not in out.err  # the clean file is not listed...
    assert listed(capsys) == []  # ...and not added either: the whole add is refused


def test_clean_documents_are_added_with_the_notice(built, capsys):
    assert main(["kb", "add", str(built / "protocol.md")]) == 0
    assert "not encrypted" in capsys.readouterr().err
    assert listed(capsys) == ["Diabetes clinic"]


def test_the_override_needs_the_vault(built, capsys):
    assert main(["kb", "add", "--allow-patient-data", str(built)]) == 2
    assert "create the vault first" in capsys.readouterr().err
    assert listed(capsys) == []


def test_the_override_is_audited_without_patient_data(built, capsys, monkeypatch):
    Vault.open(default_vault_path(), PASSPHRASE, create=True, settings=load_settings()).close()
    monkeypatch.setenv("CHARTSIDE_PASSPHRASE", PASSPHRASE)
    assert main(["kb", "add", "--allow-patient-data", "--json", str(built)]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["added"] == 2 and "written to the audit log" in out.err
    assert listed(capsys) == ["Diabetes clinic", "record"]

    with Vault.open(default_vault_path(), PASSPHRASE, settings=load_settings()) as vault:
        (row,) = vault.audit_log(event=OVERRIDE_EVENT)
        assert row["patient_id"] is None
        assert row["detail"] == {"files": {"record.txt": {"resident_registration_number": 1, "phone_number": 1,
                                                          "name_and_date": 1}}, "findings": 3}
        # Each row's time is the clock's: "…:14.498760" holds "9876" by chance.
        logged = json.dumps([{k: v for k, v in row.items() if k != "at"} for row in vault.audit_log()],
                            ensure_ascii=False)
    for secret in ("800101", "9876", "김민준", "2024-03-02", str(built)):
        assert secret not in logged

    # An unchanged file was screened when it was added: no second override is needed.
    monkeypatch.delenv("CHARTSIDE_PASSPHRASE")
    assert main(["kb", "add", "--json", str(built)]) == 0
    assert json.loads(capsys.readouterr().out)["unchanged"] == 2


def test_the_store_refuses_before_embedding_anything(built, hashing_embedder):
    from engine.knowledge import open_default

    kb = open_default()
    before = hashing_embedder.embedded
    with pytest.raises(PatientDataFound) as refused:
        kb.add_files([built])
    assert hashing_embedder.embedded == before
    (path, findings), = refused.value.findings.items()
    assert path.endswith("record.txt") and sorted({f.line for f in findings}) == [2, 3]
    assert "800101" not in str(refused.value)
    audited = []
    result = kb.add_files([built], allow_patient_data=True, on_patient_data=audited.append)
    assert result["added"] == 2 and audited == [{"record.txt": {"name_and_date": 1, "phone_number": 1,
                                                               "resident_registration_number": 1}}]
