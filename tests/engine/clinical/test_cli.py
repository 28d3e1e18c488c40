"""`chartside extract/triage --json`, `chartside clinical`, `chartside bench extract --json`."""

from __future__ import annotations

import json

from engine.cli import main


def test_extract_json_prints_the_slot_json(clinical_pack, capsys):
    assert main(["extract", "--json", "고혈압이", "있어요"]) == 0
    slots = json.loads(capsys.readouterr().out)
    assert set(slots) == {"demographics", "conditions", "symptoms", "medications", "allergies", "vitals", "labs"}
    assert slots["conditions"][0]["name"] == "hypertension"


def test_triage_json(capsys):
    assert main(["triage", "--json", "숨을 못 쉬겠어요"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["emergency"] is True and result["category"] == "breathing_difficulty"


def test_empty_text_is_a_clean_error(capsys):
    assert main(["triage", "--json", " "]) == 2
    assert "chartside:" in capsys.readouterr().err


def test_bench_extract_reports_f1_latency_triage_and_conflicts(clinical_pack, tmp_path, capsys):
    small = tmp_path / "set.jsonl"
    small.write_text(json.dumps({"id": "x", "lang": "ko", "text": "열이 나요", "symptoms": ["fever"]}, ensure_ascii=False) + "\n")
    assert main(["bench", "extract", "--json", "--set", str(small), "--no-cold-start"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["extraction"]["overall"]["f1"] == 1.0
    assert report["extraction"]["latency_ms"]["p50"] > 0 and report["extraction"]["note_6000_chars_ms"]["chars"] == 6000
    assert report["triage"]["red_flag_recall"] == 1.0
    assert report["conflicts"]["passed"] == len(report["conflicts"]["cases"])
    assert report["pack"]["concepts"] > 5000


def test_selftest_check(clinical_pack):
    from engine.clinical.selftest import check
    from engine.settings import Settings

    assert check(Settings()).startswith("clinical pack ok")
