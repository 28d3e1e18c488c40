"""`chartside bench kinds`: the question-kind sets read through the composer's cues."""

import json

from engine.bench.kinds import TUNED_ON, default_sets, run, score
from engine.clinical.eval_sets import read_jsonl


def test_every_set_is_found_and_labelled_with_composer_kinds():
    from engine.agent.composer import READING_ORDER

    for path in default_sets():
        cases = read_jsonl(path)
        assert cases, path
        assert {case["kind"] for case in cases} <= set(READING_ORDER) - {"other"}
        assert {case["lang"] for case in cases} == {"en", "ko"}


def test_the_sets_tuned_on_stay_read_right():
    for path in default_sets():
        if path.name in TUNED_ON:
            assert score(read_jsonl(path))["accuracy"] >= 0.95, path.name


def test_a_misread_question_is_listed_with_what_was_read():
    result = score([{"id": "x", "lang": "en", "kind": "treatment", "q": "What is asthma?"},
                    {"id": "y", "lang": "ko", "kind": "symptoms", "q": "저혈당 증상이 뭐예요?"}])
    assert result["right"] == 1 and result["by_language"]["ko"]["accuracy"] == 1.0
    assert result["misread"] == [{"id": "x", "q": "What is asthma?", "expected": "treatment", "read": "definition"}]


def test_the_command_prints_one_json_report_with_the_held_out_set_apart(capsys):
    class Args:
        json = True
        set = None
        errors = False

    assert run(Args()) == 0
    report = json.loads(capsys.readouterr().out)
    assert {name: entry["tuned_on"] for name, entry in report["sets"].items()} == {
        "dev.jsonl": True, "heldout.jsonl": True, "heldout2.jsonl": False}
    assert all("misread" not in entry for entry in report["sets"].values())
