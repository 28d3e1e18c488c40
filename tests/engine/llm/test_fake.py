import time

import pytest

from engine.errors import GenerationCancelled, ModelOutputError
from engine.cancel import CancelToken
from engine.llm import FakeLLM


def test_fake_replays_queued_replies_in_order():
    fake = FakeLLM().enqueue("first answer", {"label": "simple"}, '{"grounding": 3}')
    assert fake.chat("generate", [{"role": "user", "content": "q"}]) == "first answer"
    assert fake.classify("classify", "q", ["simple", "complex"]) == "simple"
    assert fake.complete_json("judge", [], {}) == {"grounding": 3}
    assert [c["kind"] for c in fake.calls] == ["stream_chat", "classify", "complete_json"]


def test_fake_raises_queued_errors_and_invalid_output():
    fake = FakeLLM().enqueue(ModelOutputError("boom"), "not json", {"label": "urgent"})
    with pytest.raises(ModelOutputError):
        fake.chat("generate", [])
    with pytest.raises(ModelOutputError):
        fake.complete_json("judge", [], {})
    with pytest.raises(ModelOutputError):
        fake.classify("classify", "q", ["simple"])


def test_fake_honours_cancellation():
    fake = FakeLLM().enqueue("one two three four")
    cancel = CancelToken()
    got = []
    with pytest.raises(GenerationCancelled):
        for piece in fake.stream_chat("generate", [], cancel=cancel):
            got.append(piece)
            cancel.cancel()
    assert got == ["one "]


def test_fake_replies_by_prompt_then_default_and_streams_slowly():
    def respond(role, messages):
        return "about amoxicillin" if role == "generate" and "amoxicillin" in messages[-1]["content"] else None

    fake = FakeLLM(default="fallback", respond=respond, token_delay=0.01).enqueue("queued first")
    assert fake.chat("generate", [{"role": "user", "content": "amoxicillin?"}]) == "queued first"
    assert fake.chat("generate", [{"role": "user", "content": "amoxicillin?"}]) == "about amoxicillin"
    assert fake.chat("generate", [{"role": "user", "content": "other"}]) == "fallback"
    assert fake.classify("classify", "amoxicillin", ["fallback", "other"]) == "fallback"
    started = time.perf_counter()
    cancel = CancelToken()
    pieces = []
    with pytest.raises(GenerationCancelled):
        for piece in fake.stream_chat("generate", [{"role": "user", "content": "amoxicillin?"}], cancel=cancel):
            pieces.append(piece)
            cancel.cancel()
    assert pieces == ["about "] and time.perf_counter() - started >= 0.02
