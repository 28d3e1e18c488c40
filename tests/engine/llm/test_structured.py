import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import ModelOutputError
from engine.llm.structured import parse_json, validate_judgement, validate_label

numbers = st.one_of(st.integers(-1000, 1000), st.floats(allow_nan=False, allow_infinity=False, width=32))


@given(g=numbers, c=numbers, a=numbers, missing=st.lists(st.text(max_size=200), max_size=10))
def test_judgement_is_always_clamped_and_bounded(g, c, a, missing):
    judged = validate_judgement({"grounding": g, "completeness": c, "accuracy": a, "missing_info": missing,
                                 "safety_concerns": "not a list", "suggested_query": "x" * 500})
    for field in ("grounding", "completeness", "accuracy", "overall"):
        assert 0.0 <= judged[field] <= 1.0
    assert len(judged["missing_info"]) <= 3 and all(len(m) <= 60 for m in judged["missing_info"])
    assert judged["safety_concerns"] == []
    assert len(judged["suggested_query"]) == 120


def test_overall_uses_the_seed_weights():
    judged = validate_judgement({"grounding": 10, "completeness": 5, "accuracy": 0})
    assert judged["overall"] == pytest.approx(0.4 * 1.0 + 0.3 * 0.5 + 0.3 * 0.0)


@pytest.mark.parametrize("bad", [None, "high", True, float("nan")])
def test_non_numeric_scores_are_rejected(bad):
    with pytest.raises(ModelOutputError):
        validate_judgement({"grounding": bad, "completeness": 1, "accuracy": 1})


def test_labels_are_matched_case_insensitively_and_validated():
    assert validate_label(" Complex ", ["simple", "complex"]) == "complex"
    with pytest.raises(ModelOutputError):
        validate_label("urgent", ["simple", "complex"])


@pytest.mark.parametrize("text", ["", "{", "[1, 2]", "not json", "null"])
def test_parse_json_rejects_non_objects(text):
    with pytest.raises(ModelOutputError):
        parse_json(text)
