"""Degraded mode: no usable language model, and the clinic still gets an answer.

With the generating model missing, or llama.cpp raising while loading it, a turn still
runs triage, conflict checks and real retrieval, and the answer says plainly (English or
Korean) that the model is unavailable, then gives the alerts and the retrieved passages
numbered like the sources. The degraded answer is not cached, and the next turn after
the model is back is a normal one. Checked through `Engine.ask` and `chartside ask`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from engine.agent.degraded import TEXTS
from engine.events import Alerts, Status
from engine.facade import DEGRADED_STATUS
from engine.models import ModelEntry, add_user_model, get_model
from engine.settings import save_settings
from tests.reliability.conftest import fast_settings, run_turn

CHEST_PAIN_EN = "My father has crushing chest pain and is sweating. What could cause chest pain like this?"
CHEST_PAIN_KO = "아버지가 가슴이 쥐어짜듯 아프고 식은땀을 흘려요. heart attack 일까요?"


def select_missing_model(settings, folder) -> None:
    """Register a model whose file does not exist and select it for every LLM role."""
    base = get_model("smollm2-135m-instruct-q4_1")
    add_user_model(ModelEntry(name="gone", kind="gguf", roles=base.roles, sha256=base.sha256, size=base.size,
                              licence="test", path=str(folder / "gone.gguf"), chat_format="chatml"))
    for role in ("generate", "classify", "judge", "summarise"):
        setattr(settings.llm, f"{role}_model", "gone")


def check_degraded(events: list, result: dict, language: str) -> None:
    texts = TEXTS[language]
    assert Status(DEGRADED_STATUS) in events
    answer = result["answer"]
    alerts = [a for event in events if isinstance(event, Alerts) for a in event.alerts]
    emergency = next(a for a in alerts if a["kind"] == "emergency")
    assert answer.startswith(emergency["message"]), "the emergency message comes first, as in a normal answer"
    assert texts["unavailable"] in answer
    assert result["sources"], "real retrieval still ran"
    assert texts["passages"] in answer
    for source in result["sources"]:
        assert f"[{source['n']}] {source['title']}:" in answer, "every passage is numbered like its source"
    assert result["trace"]["llm_unavailable"] and result["trace"]["llm_calls"] == 0
    assert "judge_answer" not in result["trace"]["nodes"]


def test_missing_model_english_and_korean_answers_with_alerts_and_cited_passages(make_engine, tmp_path):
    settings = fast_settings()
    select_missing_model(settings, tmp_path)
    engine = make_engine(llm="real", settings=settings)
    events, result = run_turn(engine, CHEST_PAIN_EN, patient_id=engine.test_patient)
    check_degraded(events, result, "en")
    events, korean = run_turn(engine, CHEST_PAIN_KO, patient_id=engine.test_patient)
    check_degraded(events, korean, "ko")
    assert TEXTS["en"]["unavailable"] not in korean["answer"]

    again, repeated = run_turn(engine, "What are the warning signs of a heart attack?", patient_id=engine.test_patient)
    assert Status(DEGRADED_STATUS) in again and not repeated["trace"]["cache_hit"]
    _, twice = run_turn(engine, "What are the warning signs of a heart attack?", patient_id=engine.test_patient)
    assert not twice["trace"]["cache_hit"], "a degraded answer must not be served from the cache"
    assert len(engine.patients.session_turns(engine.patients.list_sessions(engine.test_patient)[0]["id"])) == 4
    print(f"\ndegraded mode (missing model): English answer {len(result['answer'])} chars with "
          f"{len(result['sources'])} cited passages; Korean answer with {len(korean['sources'])}")


@pytest.mark.real_model
def test_llama_raising_on_load_degrades_and_the_next_turn_after_recovery_is_normal(make_engine, monkeypatch):
    import llama_cpp

    # the model writes (not the composer), so "normal" means the recovered model answered
    settings = fast_settings(llm={"max_answer_tokens": 8}, answer={"writer": "model"},
                             context={"total_budget": 1400, "documents_tokens": 300, "generation_reserve": 32})
    engine = make_engine(llm="real", settings=settings)
    real_llama = llama_cpp.Llama

    def broken(*args, **kwargs):
        raise RuntimeError("llama_model_load: error loading model: out of memory")

    monkeypatch.setattr(llama_cpp, "Llama", broken)
    events, result = run_turn(engine, CHEST_PAIN_EN, patient_id=engine.test_patient)
    check_degraded(events, result, "en")
    assert "could not be loaded" in result["trace"]["llm_unavailable"]

    monkeypatch.setattr(llama_cpp, "Llama", real_llama)
    events, normal = run_turn(engine, "What is high blood pressure?", patient_id=engine.test_patient)
    assert Status(DEGRADED_STATUS) not in events
    assert normal["trace"]["llm_unavailable"] is None and normal["trace"]["llm_calls"] >= 1
    assert TEXTS["en"]["unavailable"] not in normal["answer"] and normal["answer"].strip()


@pytest.mark.real_model
def test_chartside_ask_with_a_missing_model_prints_the_notice_alerts_and_passages(chartside_home, home_kb, clinical_pack,
                                                                                 small_shared_data, tmp_path):
    settings = fast_settings()
    select_missing_model(settings, tmp_path)
    save_settings(settings)
    shutil.copytree(clinical_pack.path, chartside_home / "clinical" / "pack")
    env = {**os.environ, "CHARTSIDE_HOME": str(chartside_home), "CHARTSIDE_SHARED_DATA": str(small_shared_data)}
    result = subprocess.run([sys.executable, "-m", "engine.cli", "ask", CHEST_PAIN_KO], env=env, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert out.startswith("[emergency] "), out[:200]
    assert TEXTS["ko"]["unavailable"] in out and TEXTS["ko"]["passages"] in out
    assert "[1] " in out.split(TEXTS["ko"]["passages"])[1]
    assert "Traceback" not in result.stderr
    print(f"\nchartside ask (Korean, model missing): exit 0, {len(out)} characters, "
          f"{out.count(chr(10) + '[')} source lines")
