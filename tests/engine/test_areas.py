"""The facade's service container and areas: the LLM chosen by a setting, the LLM protocol
implemented in full (no caller probes), the knowledge base held in one place, and the
vault's listeners forgetting patient-derived memory (real SQLCipher vault)."""

from __future__ import annotations

import threading

from engine.cancel import CancelToken
from engine.facade import Engine
from engine.llm.fake import FakeLLM
from engine.llm.runtime import LlamaRuntime
from engine.protocols import LLM
from engine.settings import Settings
from tests.engine.agent.fakes import FakeClinical, FakeKnowledge

PASSPHRASE = "correct horse battery staple"


def make_engine(tmp_path, **kwargs) -> Engine:
    settings = kwargs.pop("settings", None) or Settings()
    settings.vault.kdf_iterations = 10_000
    kwargs.setdefault("knowledge", FakeKnowledge())
    kwargs.setdefault("clinical", FakeClinical())
    kwargs.setdefault("embedder", None)
    return Engine(settings, vault_path=tmp_path / "vault.db", **kwargs)


def test_the_llm_backend_is_a_setting_and_every_backend_implements_the_protocol(tmp_path):
    settings = Settings()
    settings.llm.backend = "fake"
    engine = make_engine(tmp_path, settings=settings)
    assert isinstance(engine.llm, FakeLLM) and isinstance(engine.llm, LLM)
    assert engine.llm.chat("generate", [{"role": "user", "content": "hi"}])
    assert engine.llm.render_prompt("generate", []) is None and engine.llm.answered_by("generate") is None
    assert isinstance(LlamaRuntime(settings.llm), LLM)
    assert isinstance(make_engine(tmp_path).llm, LlamaRuntime)  # built, not loaded: no model file is read


def test_one_cancel_token_serves_generation_and_index_builds():
    token = CancelToken()
    assert not token.cancelled and not token()
    token.cancel()
    assert token.cancelled and token()


def test_the_knowledge_base_lives_in_one_area_and_changes_under_its_lock(tmp_path):
    engine = make_engine(tmp_path)
    injected = engine.kb.search
    assert engine.kb.search is injected
    replacement = FakeKnowledge()
    engine.kb.use_search(replacement)
    assert engine.kb.search is replacement
    seen = []
    with engine.kb._lock:  # a search asked for while the knowledge base changes waits for it
        reader = threading.Thread(target=lambda: seen.append(engine.kb.search))
        reader.start()
        reader.join(0.2)
        assert reader.is_alive() and not seen
    reader.join(5)
    assert seen == [replacement]


def test_locking_the_vault_makes_the_turns_area_forget_patient_memory(tmp_path):
    llm = FakeLLM(default="Drink water.")
    engine = make_engine(tmp_path, llm=llm)
    engine.patients.unlock(PASSPHRASE, create=True)
    patient = engine.patients.create_patient("Kim Minji")
    list(engine.turns.ask("What helps a sore throat?", patient_id=patient["id"]))
    assert engine.turns._sessions_memory
    engine.patients.lock()
    assert engine.turns._sessions_memory == {} and engine.patients.is_locked
    assert {"kind": "forget_prompts"} in llm.calls
