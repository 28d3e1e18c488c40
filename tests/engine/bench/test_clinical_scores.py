"""The team's labelled sets meet their size rules and the acceptance numbers."""

from __future__ import annotations

from collections import Counter

from engine.bench.clinical_scores import score_extraction, score_triage
from engine.clinical.eval_sets import eval_dir, read_jsonl
from engine.clinical.red_flags import triage
from engine.clinical.slots import extract


def test_extraction_set_is_large_enough_and_about_half_korean():
    rows = read_jsonl(eval_dir() / "extraction.jsonl")
    languages = Counter(row["lang"] for row in rows)
    assert len(rows) >= 150
    assert languages["ko"] + languages["mix"] >= len(rows) / 2 and languages["mix"] >= 10
    assert any(name.startswith("!") for row in rows for key in ("symptoms", "conditions") for name in row.get(key, []))


def test_triage_set_has_both_languages_and_ordinary_questions():
    rows = read_jsonl(eval_dir() / "triage.jsonl")
    assert len(rows) >= 100
    assert {(row["lang"], row["emergency"]) for row in rows} == {("ko", True), ("ko", False), ("en", True), ("en", False)}


def test_extraction_f1_on_the_team_set(clinical_pack):
    rows = read_jsonl(eval_dir() / "extraction.jsonl")
    score = score_extraction(rows, [extract(row["text"]) for row in rows], clinical_pack)
    assert score.overall()["f1"] >= 0.90, score.errors[:5]


def test_triage_recall_and_false_alarms_on_the_team_set():
    rows = read_jsonl(eval_dir() / "triage.jsonl")
    report = score_triage(rows, [triage(row["text"]) for row in rows])
    assert report["red_flag_recall"] == 1.0, report["missed"]
    assert report["false_alarm_rate"] <= 0.05, report["false_alarms"]


def test_a_stopped_medicine_in_the_gold_counts_as_negated(clinical_pack):
    rows = [{"text": "I stopped taking simvastatin.", "medications": [{"name": "simvastatin", "negated": True}]}]
    stopped = extract(rows[0]["text"])
    assert [m["negated"] for m in stopped["medications"]] == [True]
    current = {**stopped, "medications": [{**m, "negated": False} for m in stopped["medications"]]}
    assert score_extraction(rows, [stopped], clinical_pack).overall()["f1"] == 1.0
    assert score_extraction(rows, [current], clinical_pack).overall()["tp"] == 0
