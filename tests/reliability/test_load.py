"""Load: hundreds of consecutive turns in one process without memory growth.

500 turns through `Engine.ask` (agent mode): real clinical extraction and triage, real
hybrid retrieval (BM25 + MiniLM + FAISS), the real encrypted vault file, and EndlessLLM
for generation so that the run fits the test budget. A clinic day's shape: 5 patients,
a new session every 20 turns, English and Korean questions, every third one asked word for
word again (a response-cache candidate), the others with their own numbers. The resident set size is
measured after a warm-up of 100 turns and must grow by less than RSS_BOUND_MB over the
remaining 400. Each turn hands the pages it freed back to the system when it ends
(`engine.agent.runtime_env.release_freed_memory`): without that, glibc kept them and the size
crept up with every new shape of the composer's embedding batches (measured: +150 MB over
1,000 turns standalone, +106 MB over these 400 turns inside the whole test suite's process).
With it: +11 MB over the 400 turns, most of it the response cache's entries (bounded at
`max_entries`). A shorter run with the real model (60 turns, 8 answer tokens, after 80 EndlessLLM
turns that load and warm everything but the model) is marked slow.

With the real model, llama.cpp allocates the key/value cache for the whole context when the
model loads, but its pages become resident only as prompts reach positions not reached
before; answers of different lengths then raise the resident size in steps (measured: +13
and +31 MB within the first 23 turns, +29 MB at turn 49, flat between). That cache has a
fixed size (2 x layers x context x key/value width x 2 bytes: 94 MB for the default model at
4,096 tokens), so the real-model bound is the leak bound plus that size, after a warm-up of
30 turns.
"""

from __future__ import annotations

import gc
import time

import pytest

from engine.llm.gguf import read_gguf_metadata
from engine.models import get_model, verify

from tests.reliability.conftest import fast_settings, rss_bytes, run_turn

TURNS = 500
WARM_UP = 100
RSS_BOUND_MB = 50
REAL_TURNS = 60
REAL_WARM_UP = 30
REAL_RSS_BOUND_MB = 50
WARMING_TURNS = 80
PATIENTS = 5
TURNS_PER_SESSION = 20
QUESTIONS = [
    "What are the warning signs of a heart attack?",
    "How is high blood pressure treated?",
    "I take metformin {n} mg twice a day. Is that a normal dose?",
    "What causes angina and how is it different from a heart attack?",
    "My blood pressure was 15{d}/95 this morning. Should I worry?",
    "고혈압 약을 먹고 있는데 두통이 있어요. 괜찮을까요?",
    "Can asthma be triggered by exercise?",
    "What is glaucoma?",
    "당뇨병 환자는 발 관리를 어떻게 해야 하나요?",
    "I am allergic to penicillin. Which antibiotic is safe for pneumonia?",
    "What are the symptoms of a stroke?",
    "Thanks, that helps.",
]


def message(turn: int) -> str:
    question = QUESTIONS[turn % len(QUESTIONS)]
    if turn % 3 == 0:  # every third turn repeats its question word for word: a cache candidate
        return question.format(n=500, d=0)
    return question.format(n=250 + turn, d=turn % 10)


def run_turns(engine, patients: list[int], count: int, first: int, sessions: dict) -> list[float]:
    durations = []
    for turn in range(first, first + count):
        patient = patients[turn % PATIENTS]
        if turn % TURNS_PER_SESSION == 0 or patient not in sessions:
            sessions[patient] = engine.patients.new_session(patient)["id"]
        started = time.perf_counter()
        _, result = run_turn(engine, message(turn), patient_id=patient, session_id=sessions[patient])
        durations.append(time.perf_counter() - started)
        assert result["answer"].strip()
    return durations


def measure(engine, turns: int, warm_up: int, bound_mb: float, label: str) -> list[int]:
    """Run `turns` turns over PATIENTS patients; returns the patients' ids."""
    patients = [engine.test_patient] + [engine.patients.create_patient(f"Load patient {n}")["id"] for n in range(1, PATIENTS)]
    sessions: dict = {}
    started = time.perf_counter()
    run_turns(engine, patients, warm_up, 0, sessions)
    gc.collect()
    baseline = rss_bytes()
    samples = [(warm_up, baseline)]
    durations = []
    step = max(1, (turns - warm_up) // 8)
    for first in range(warm_up, turns, step):
        durations += run_turns(engine, patients, min(step, turns - first), first, sessions)
        gc.collect()
        samples.append((first + min(step, turns - first), rss_bytes()))
    elapsed = time.perf_counter() - started
    growth_mb = (samples[-1][1] - baseline) / 2**20
    peak_mb = (max(rss for _, rss in samples) - baseline) / 2**20
    stats = engine.turns.cache_stats()
    durations.sort()
    print(f"\n{label}: {turns} turns in {elapsed:.0f} s (median {durations[len(durations) // 2] * 1000:.0f} ms, "
          f"p95 {durations[int(len(durations) * 0.95)] * 1000:.0f} ms per turn); RSS after {warm_up} warm-up turns "
          f"{baseline / 2**20:.0f} MB, after {turns}: {samples[-1][1] / 2**20:.0f} MB (growth {growth_mb:+.1f} MB, "
          f"peak {peak_mb:+.1f} MB, bound {bound_mb} MB); cache hits {stats.get('hits')} of "
          f"{stats.get('lookups')} lookups")
    print("  RSS by turn: " + ", ".join(f"{turn}: {rss / 2**20:.0f} MB" for turn, rss in samples))
    assert growth_mb < bound_mb
    return patients


def test_500_turns_in_one_process_stay_within_the_memory_bound(make_engine):
    engine = make_engine(settings=fast_settings())
    patients = measure(engine, TURNS, WARM_UP, RSS_BOUND_MB, "load (EndlessLLM, real retrieval, clinical and vault)")
    turns = sum(len(engine.patients.session_turns(s["id"])) for p in patients for s in engine.patients.list_sessions(p))
    assert turns == TURNS, "every turn was stored in the vault"


def kv_cache_mb(settings) -> float:
    """The key/value cache llama.cpp allocates for the generating model (16-bit keys and values)."""
    meta = read_gguf_metadata(verify(get_model(settings.llm.generate_model)))
    arch = meta["general.architecture"]
    layers, width = int(meta[f"{arch}.block_count"]), int(meta[f"{arch}.embedding_length"])
    heads = int(meta[f"{arch}.attention.head_count"])
    kv_heads = int(meta.get(f"{arch}.attention.head_count_kv", heads))
    return 2 * layers * settings.llm.n_ctx * (width // heads * kv_heads) * 2 / 2**20


@pytest.mark.slow
@pytest.mark.real_model
def test_60_turns_with_the_real_model_stay_within_the_memory_bound(make_engine):
    settings = fast_settings(llm={"max_answer_tokens": 8},
                             context={"total_budget": 1400, "documents_tokens": 300, "generation_reserve": 32})
    # Everything but the model is loaded and warmed first with the fast EndlessLLM, so the 30
    # real-model turns measure what the model adds.
    warming = make_engine(settings=settings)
    run_turns(warming, [warming.test_patient] * PATIENTS, WARMING_TURNS, 0, {})
    engine = make_engine(llm="real", settings=settings)
    bound = RSS_BOUND_MB + kv_cache_mb(settings)
    measure(engine, REAL_TURNS, REAL_WARM_UP, round(bound, 1), "load (real model, 8 answer tokens)")
