"""The runtime with the real default GGUF model (SmolLM2-135M-Instruct)."""

import threading

import pytest

from engine.errors import GenerationCancelled, ModelOutputError
from engine.llm.structured import JUDGE_SCHEMA, validate_judgement
from engine.cancel import CancelToken

pytestmark = pytest.mark.real_model

QUESTION = [
    {"role": "system", "content": "You are a concise medical information assistant."},
    {"role": "user", "content": "What is high blood pressure?"},
]


def test_stream_chat_yields_english_tokens_and_metrics(runtime):
    pieces = list(runtime.stream_chat("generate", QUESTION, max_tokens=40, temperature=0.0))
    text = "".join(pieces)
    assert len(pieces) > 3
    assert any(word in text.lower() for word in ("blood", "pressure", "hypertension"))
    metrics = runtime.last_metrics
    assert metrics.prompt_tokens > 10
    assert 0 < metrics.completion_tokens <= 40
    assert metrics.time_to_first_token > 0
    assert metrics.total_time >= metrics.time_to_first_token


def test_prompt_uses_the_gguf_chat_template(runtime):
    prompt, stop = runtime.render_prompt("generate", QUESTION)
    assert prompt.startswith("<|im_start|>system\nYou are a concise")
    assert prompt.endswith("<|im_start|>assistant\n")
    assert runtime.info("generate").chat_template


def test_cancel_stops_between_tokens(runtime):
    cancel = CancelToken()
    received = []
    with pytest.raises(GenerationCancelled):
        for piece in runtime.stream_chat("generate", QUESTION, max_tokens=200, temperature=0.0, cancel=cancel):
            received.append(piece)
            if len(received) == 3:
                cancel.cancel()
    assert len(received) == 3
    assert runtime.last_metrics.cancelled


def test_cancel_from_another_thread(runtime):
    cancel = CancelToken()
    timer = threading.Timer(0.05, cancel.cancel)
    timer.start()
    count = 0
    with pytest.raises(GenerationCancelled):
        for _ in runtime.stream_chat("generate", QUESTION, max_tokens=4000, temperature=0.7, cancel=cancel):
            count += 1
    timer.cancel()
    assert count < 4000


def test_classification_returns_an_allowed_label_100_of_100(runtime):
    labels = ["simple", "moderate", "complex"]
    questions = [
        "What is diabetes?",
        "Can I take ibuprofen with warfarin if my kidneys are weak and I am 80?",
        "hello",
        "My 65-year-old father has chest pain, high blood pressure and takes metformin. What should we do?",
        "당뇨병이 뭐예요?",
    ]
    results = [runtime.classify("classify", f"Rate the complexity of this medical question: {questions[i % 5]} ({i})",
                                labels) for i in range(100)]
    assert len(results) == 100
    assert set(results) <= set(labels)


def test_judge_returns_schema_valid_range_checked_json_100_of_100(runtime):
    answers = [
        "High blood pressure is when the force of blood against artery walls is too high [1].",
        "Take two aspirin.",
        "I don't know.",
        "Metformin lowers blood sugar in type 2 diabetes [1]; see a doctor for dosing.",
    ]
    valid = 0
    for i in range(100):
        messages = [
            {"role": "system", "content": "You grade answers. Reply with JSON only. Scores are 0 to 10."},
            {"role": "user", "content": f"Question: What is high blood pressure? ({i})\n"
                                        f"Sources: [1] Hypertension is raised arterial pressure.\n"
                                        f"Answer: {answers[i % len(answers)]}"},
        ]
        raw = runtime.complete_json("judge", messages, JUDGE_SCHEMA, max_tokens=200)
        judged = validate_judgement(raw)
        assert set(raw) == set(JUDGE_SCHEMA["properties"])
        for field in ("grounding", "completeness", "accuracy", "overall"):
            assert 0.0 <= judged[field] <= 1.0
        assert len(judged["missing_info"]) <= 3
        valid += 1
    assert valid == 100


def test_prompt_longer_than_context_is_a_named_error(runtime):
    huge = [{"role": "user", "content": "blood pressure " * 5000}]
    with pytest.raises(ModelOutputError) as info:
        list(runtime.stream_chat("generate", huge, max_tokens=10))
    assert "too long" in info.value.user_message


def test_count_tokens_uses_the_model_tokenizer(runtime):
    assert runtime.count_tokens("generate", "") == 0
    assert 1 <= runtime.count_tokens("generate", "hypertension") <= 6
    assert runtime.count_tokens("generate", "고혈압") >= 1


def test_answers_keep_their_own_context_so_a_judge_call_does_not_evict_the_prompt(runtime):
    assert runtime.load("generate").llama is not runtime.load("judge").llama
    assert runtime.load("judge").llama is runtime.load("classify").llama
    runtime.chat("generate", QUESTION, max_tokens=4, temperature=0.0)
    prompt_tokens = runtime.last_metrics.prompt_tokens
    runtime.classify("classify", "Is this about medicine: blood pressure?", ["yes", "no"])
    cached = runtime.load("generate").llama.n_tokens
    assert cached >= prompt_tokens


def test_one_shared_context_when_generation_is_not_kept_apart():
    from engine.llm.runtime import LlamaRuntime
    from engine.settings import LLMSettings

    assert LlamaRuntime(LLMSettings()).generation_apart()
    assert not LlamaRuntime(LLMSettings(n_gpu_layers=-1)).generation_apart()
    assert LlamaRuntime(LLMSettings(n_gpu_layers=-1, generation_context_apart=True)).generation_apart()
    shared = LlamaRuntime(LLMSettings(generation_context_apart=False))
    try:
        assert shared.context_key("generate") == shared.context_key("judge")
        assert shared.load("generate").llama is shared.load("judge").llama
    finally:
        shared.close()


def test_forget_prompts_wipes_the_cached_prompt_of_every_context(runtime):
    runtime.chat("generate", QUESTION, max_tokens=4, temperature=0.0)
    runtime.classify("classify", "Is this about medicine: blood pressure?", ["yes", "no"])
    runtime.forget_prompts()
    for role in ("generate", "judge"):
        llama = runtime.load(role).llama
        assert llama.n_tokens == 0
        assert not llama.input_ids.any()
    assert runtime.chat("generate", QUESTION, max_tokens=8, temperature=0.0).strip()
    assert runtime.last_metrics.prompt_tokens > 10


def test_bench_context_phase_times_answers_after_judge_calls_in_both_layouts():
    from engine.bench.llm import context_phase
    from engine.settings import LLMSettings

    report = context_phase(LLMSettings(), runs=1, max_tokens=4)
    assert report["runs"] == 1
    for layout in ("own_answer_context", "shared_context"):
        assert report[layout]["answer_ttft_ms_median"] > 0
    assert report["ttft_ratio_own_vs_shared"] > 0
