"""Judge output that is not valid JSON: refine falls back to the heuristic judge.

Garbage, truncated JSON, JSON of the wrong shape and out-of-range values from the judge
model: the turn completes with an answer, the judgement in the trace is the heuristic
one, and the trace log says that the LLM judge failed. The parser and validator are also
fuzzed with hypothesis (any text: a valid judgement or ModelOutputError, nothing else),
and the real model's JSON call is cut by its token limit.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine.agent.judge import llm_judgement
from engine.errors import ModelOutputError
from engine.llm.fake import FakeLLM
from engine.llm.structured import JUDGE_SCHEMA, parse_json, validate_judgement
from tests.reliability.conftest import run_turn
from tests.reliability.fakes import EndlessLLM

BIG_MODEL = 7_000_000_000  # above refine.small_model_params: the LLM judge is asked
BAD_JUDGE_REPLIES = {
    "prose": "The answer looks grounded and complete, I would give it 8/10.",
    "truncated": '{"grounding": 7, "completeness": 6, "accur',
    "array": "[7, 6, 8]",
    "null": "null",
    "empty object": "{}",
    "words for numbers": json.dumps({"grounding": "seven", "completeness": 6, "accuracy": 8, "missing_info": [],
                                     "safety_concerns": [], "suggested_query": ""}),
    "not a number": '{"grounding": NaN, "completeness": 6, "accuracy": 8, "missing_info": [], '
                    '"safety_concerns": [], "suggested_query": ""}',
    "control bytes": "\x00\x1b[2J{\x07}",
    "model error": ModelOutputError("JSON output hit the 200-token limit"),
}
FUZZ_EXAMPLES = 300


@pytest.mark.parametrize("kind", list(BAD_JUDGE_REPLIES))
def test_a_bad_judge_reply_falls_back_to_the_heuristic_judge_and_the_turn_completes(kind, make_engine):
    llm = EndlessLLM(judge=BAD_JUDGE_REPLIES[kind], parameters=BIG_MODEL)
    engine = make_engine(llm=llm)
    _, result = run_turn(engine, "What are the symptoms of angina and how is it treated?",
                         patient_id=engine.test_patient)
    trace = result["trace"]
    assert result["answer"].strip() and "judge_answer" in trace["nodes"]
    assert llm.json_calls >= 1, "the LLM judge was asked"
    assert trace["judgement"]["judge"] == "heuristic"
    assert any(line.startswith("judge_answer: LLM judge failed") and "heuristic judge used" in line for line in trace["log"])
    assert trace["nodes"][-1] == "store_response"
    print(f"\njudge reply {kind!r}: {llm.json_calls} judge call(s) failed, heuristic judge used, turn completed")


def test_a_valid_judge_reply_is_used(make_engine):
    """Control: the same turn with a well-formed reply keeps the LLM judgement."""
    reply = {"grounding": 8, "completeness": 7, "accuracy": 9, "missing_info": [], "safety_concerns": [],
             "suggested_query": ""}
    engine = make_engine(llm=EndlessLLM(judge=reply, parameters=BIG_MODEL))
    _, result = run_turn(engine, "What are the symptoms of angina and how is it treated?",
                         patient_id=engine.test_patient)
    assert result["trace"]["judgement"]["judge"] == "llm" and "log" not in result["trace"]


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-100, 100) | st.floats(allow_nan=True) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["grounding", "completeness", "accuracy", "missing_info", "safety_concerns",
                         "suggested_query", "other"]), children, max_size=7),
    max_leaves=12,
)


SCORE = st.one_of(st.integers(-5, 50), st.floats(-2, 20), st.floats(allow_nan=True), st.text(max_size=3))
FULL_SHAPE = st.fixed_dictionaries({
    "grounding": SCORE, "completeness": SCORE, "accuracy": SCORE,
    "missing_info": st.lists(st.text(max_size=100), max_size=6),
    "safety_concerns": st.one_of(st.lists(st.text(max_size=100), max_size=6), st.text(max_size=20)),
    "suggested_query": st.one_of(st.text(max_size=300), st.integers()),
})


def _check_judgement(result: dict) -> None:
    for field in ("grounding", "completeness", "accuracy", "overall"):
        assert 0.0 <= result[field] <= 1.0
    assert len(result["missing_info"]) <= 3 and len(result["safety_concerns"]) <= 3
    assert len(result["suggested_query"]) <= 120


def test_any_judge_text_gives_a_valid_judgement_or_model_output_error():
    outcomes = {"valid": 0, "ModelOutputError": 0}

    @settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.one_of(st.text(max_size=200), JSONISH.map(lambda v: json.dumps(v, allow_nan=True)),
                     JSONISH.map(lambda v: json.dumps(v)[: max(1, len(json.dumps(v)) // 2)]),
                     FULL_SHAPE.map(lambda v: json.dumps(v, allow_nan=True))))
    def check(text):
        try:
            _check_judgement(validate_judgement(parse_json(text)))
        except ModelOutputError:
            pass
        try:
            judged = llm_judgement(FakeLLM([text]), "What is angina?", "Angina is chest pain [1].",
                                   "[1] Angina: chest pain")
        except ModelOutputError:
            outcomes["ModelOutputError"] += 1
            return
        _check_judgement(judged)
        assert judged["judge"] == "llm"
        outcomes["valid"] += 1

    check()
    print(f"\njudge output fuzz: {sum(outcomes.values())} texts (hypothesis): {outcomes['valid']} valid "
          f"judgements, {outcomes['ModelOutputError']} ModelOutputError, no other outcome")


@pytest.mark.real_model
def test_real_model_json_cut_by_the_token_limit_is_a_model_output_error():
    from engine.llm.runtime import LlamaRuntime
    from engine.settings import LLMSettings

    runtime = LlamaRuntime(LLMSettings(n_ctx=512))
    messages = [{"role": "system", "content": "Grade the answer. Reply in JSON."},
                {"role": "user", "content": "Question: What is angina?\nAnswer: Chest pain from the heart."}]
    try:
        with pytest.raises(ModelOutputError):
            runtime.complete_json("judge", messages, JUDGE_SCHEMA, max_tokens=4)
    finally:
        runtime.close()
