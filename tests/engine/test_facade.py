"""The Engine facade over a real encrypted vault (SQLCipher), with a fake LLM for control flow."""

from __future__ import annotations

import pytest

from engine.errors import InputError, VaultError, WrongPassphrase
from engine.events import Alerts, Done, NodeStarted, Sources, Status, Token
from engine.facade import Engine
from engine.llm.fake import FakeLLM
from engine.settings import Settings
from tests.engine.agent.fakes import FakeClinical, FakeKnowledge

PASSPHRASE = "correct horse battery staple"


def make_engine(tmp_path, llm=None, **kwargs) -> Engine:
    settings = Settings()
    settings.vault.kdf_iterations = 10_000
    settings.answer.writer = "model"  # the fake model's text as written (the writers have tests of their own)
    settings.answer.support_check = False
    kwargs.setdefault("knowledge", FakeKnowledge())
    kwargs.setdefault("clinical", FakeClinical())
    kwargs.setdefault("embedder", None)
    return Engine(settings, llm=llm or FakeLLM(), vault_path=tmp_path / "vault.db", **kwargs)


def ask(engine, text, **kwargs):
    events = list(engine.ask(text, **kwargs))
    return events, events[-1].result


def test_vault_lifecycle_and_wrong_passphrase(tmp_path):
    engine = make_engine(tmp_path)
    assert not engine.patients.vault_exists() and engine.patients.is_locked
    with pytest.raises(VaultError):
        engine.patients.unlock(PASSPHRASE)
    engine.patients.unlock(PASSPHRASE, create=True)
    assert engine.patients.vault_exists() and not engine.patients.is_locked
    engine.patients.create_patient("Kim Minji")
    engine.patients.lock()
    assert engine.patients.is_locked
    with pytest.raises(VaultError):
        engine.patients.list_patients()
    before = (tmp_path / "vault.db").read_bytes()
    with pytest.raises(WrongPassphrase):
        engine.patients.unlock("wrong passphrase")
    assert (tmp_path / "vault.db").read_bytes() == before
    engine.patients.unlock(PASSPHRASE)
    assert [p["name"] for p in engine.patients.list_patients()] == ["Kim Minji"]
    engine.close()


def test_patients_and_sessions(tmp_path):
    engine = make_engine(tmp_path)
    engine.patients.unlock(PASSPHRASE, create=True)
    kim = engine.patients.create_patient("Kim Minji")
    lee = engine.patients.create_patient("Lee Jun")
    assert set(kim) == {"id", "name", "created", "updated"}
    assert [p["name"] for p in engine.patients.list_patients(search="kim")] == ["Kim Minji"]
    engine.patients.rename_patient(kim["id"], "Kim Min-ji")
    assert engine.patients.list_patients("min-ji")[0]["id"] == kim["id"]
    session = engine.patients.new_session(kim["id"])
    assert set(session) == {"id", "patient_id", "started", "title"} and session["patient_id"] == kim["id"]
    assert engine.patients.list_sessions(kim["id"]) == [session]
    engine.patients.delete_patient(lee["id"])
    assert [p["id"] for p in engine.patients.list_patients()] == [kim["id"]]
    engine.close()


def test_ask_stores_turns_profile_and_alerts_in_the_vault(tmp_path):
    llm = FakeLLM(["Noted your allergy.", "Amoxicillin is a penicillin [1]; avoid it."])
    engine = make_engine(tmp_path, llm)
    engine.patients.unlock(PASSPHRASE, create=True)
    patient = engine.patients.create_patient("Park")
    session = engine.patients.new_session(patient["id"])
    events, first = ask(engine, "I am allergic to penicillin.", patient_id=patient["id"], session_id=session["id"])
    assert isinstance(events[0], Status)
    events, second = ask(engine, "Can I take amoxicillin?", patient_id=patient["id"], session_id=session["id"])
    kinds = [type(e) for e in events]
    assert kinds.index(Alerts) < kinds.index(Sources) < kinds.index(Token) < kinds.index(Done)
    assert any(isinstance(e, NodeStarted) and e.node == "check_cache" for e in events)
    assert second["alerts"][0]["kind"] == "allergy_conflict"
    turns = engine.patients.session_turns(session["id"])
    assert [t["user"] for t in turns] == ["I am allergic to penicillin.", "Can I take amoxicillin?"]
    assert turns[1]["answer"] == second["answer"] and turns[1]["alerts"] == second["alerts"]
    assert turns[1]["trace"]["nodes"] == second["trace"]["nodes"]
    profile = engine.patients.profile(patient["id"])
    allergy = profile["allergies"][0]
    assert allergy["name"] == "penicillin" and allergy["id"] == allergy["fact_id"]
    assert allergy["status"] == "pending-confirmation"
    assert allergy["provenance"] and "weight" in allergy
    engine.patients.confirm_fact(allergy["id"])
    assert engine.patients.profile(patient["id"])["allergies"][0]["status"] == "active"
    engine.close()


def test_ask_picks_the_latest_session_and_checks_ownership(tmp_path):
    engine = make_engine(tmp_path, FakeLLM(["One.", "Two."]))
    engine.patients.unlock(PASSPHRASE, create=True)
    first = engine.patients.create_patient("A")
    other = engine.patients.create_patient("B")
    _events, _result = ask(engine, "How is diabetes treated?", patient_id=first["id"])
    sessions = engine.patients.list_sessions(first["id"])
    assert len(sessions) == 1 and len(engine.patients.session_turns(sessions[0]["id"])) == 1
    other_session = engine.patients.new_session(other["id"])
    with pytest.raises(InputError):
        list(engine.ask("Hello", patient_id=first["id"], session_id=other_session["id"]))
    engine.close()


def test_scratch_conversation_without_a_vault(tmp_path):
    engine = make_engine(tmp_path, FakeLLM(["Diet and metformin [1]."]))
    _events, result = ask(engine, "How is diabetes treated?")
    assert result["answer"] == "Diet and metformin [1]."
    assert not (tmp_path / "vault.db").exists()
    with pytest.raises(VaultError):
        list(engine.ask("Hello", patient_id=1))
    with pytest.raises(InputError):
        list(engine.ask("   "))


def test_the_memory_a_turn_freed_goes_back_when_it_ends_or_is_abandoned(tmp_path, monkeypatch):
    released = []
    monkeypatch.setattr("engine.managers.turns.release_freed_memory", lambda: released.append(True))
    engine = make_engine(tmp_path, FakeLLM(["Diet and metformin [1].", "Rest."]))
    ask(engine, "How is diabetes treated?")
    assert released == [True]
    events = engine.ask("What is asthma?")
    while not isinstance(next(events), NodeStarted):
        pass
    events.close()
    assert released == [True, True]


def test_llm_mode_through_the_facade(tmp_path):
    engine = make_engine(tmp_path, FakeLLM(["Plain."]))
    _events, result = ask(engine, "What is asthma?", mode="llm")
    assert result["trace"]["mode"] == "llm" and result["trace"]["nodes"] == ["extract_and_triage", "generate_answer", "store_response"]


def test_cancel_from_another_thread_stops_streaming(tmp_path):
    engine = make_engine(tmp_path, FakeLLM(["a b c d e f g h"]))
    tokens = []
    for event in engine.ask("How is diabetes treated?"):
        if isinstance(event, Token):
            tokens.append(event.text)
            engine.turns.cancel()
        if isinstance(event, Done):
            result = event.result
    assert len(tokens) == 1 and result["trace"]["cancelled"]


def test_exports_and_docs(tmp_path):
    engine = make_engine(tmp_path, FakeLLM(["Diet and metformin [1]."]))
    engine.patients.unlock(PASSPHRASE, create=True)
    patient = engine.patients.create_patient("Choi")
    session = engine.patients.new_session(patient["id"])
    ask(engine, "How is diabetes treated?", patient_id=patient["id"], session_id=session["id"])
    markdown = engine.patients.export_conversation(session["id"], tmp_path / "conversation.md", "md")
    text = markdown.read_text(encoding="utf-8")
    assert "How is diabetes treated?" in text and "Diet and metformin" in text
    pdf = engine.patients.export_conversation(session["id"], tmp_path / "conversation.pdf", "pdf")
    assert pdf.read_bytes().startswith(b"%PDF")
    record = engine.patients.export_patient(patient["id"], tmp_path / "patient.json", "json")
    assert record.exists()
    assert "flowchart TD" in engine.pipeline_mermaid()
    info = engine.models.device_info()
    assert {"n_gpu_layers", "threads", "model", "gpu_offload_supported"} <= set(info)
    engine.close()


def test_update_settings_saves_them(tmp_path, chartside_home):
    engine = make_engine(tmp_path)
    settings = engine.settings.with_flags({"self_refine": False})
    engine.update_settings(settings)
    assert "self_refine = false" in (chartside_home / "settings.toml").read_text()
    assert engine.settings.features.self_refine is False


class CountingClinical(FakeClinical):
    """FakeClinical that counts extract calls (the warm-up loads the pack with one)."""

    def __init__(self):
        self.extracts = 0

    def extract(self, text: str) -> dict:
        self.extracts += 1
        return super().extract(text)


class BrokenEmbedder:
    def embed(self, texts):
        raise OSError("the embedding model folder is missing")


def test_warm_up_reports_each_step_and_is_safe_twice_and_from_threads(tmp_path):
    import threading

    clinical = CountingClinical()
    engine = make_engine(tmp_path, clinical=clinical)
    steps: list[tuple[int, int, str]] = []
    result = engine.warm_up(lambda done, total, step: steps.append((done, total, step)))
    assert steps == [(0, 4, "model"), (1, 4, "knowledge"), (2, 4, "embedder"), (3, 4, "clinical"), (4, 4, "ready")]
    assert result["loaded"] == ["model", "knowledge", "clinical"] and result["notes"] == []
    assert set(result["seconds"]) == {"model", "knowledge", "embedder", "clinical"}
    results = []
    threads = [threading.Thread(target=lambda: results.append(engine.warm_up())) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert [r["loaded"] for r in results] == [["model", "knowledge", "clinical"]] * 3
    assert clinical.extracts == 4, "each warm-up runs its steps once, one call at a time"
    engine.close()


def test_warm_up_turns_failures_into_notes_and_keeps_working(tmp_path):
    engine = make_engine(tmp_path, FakeLLM(["Diet and metformin."]), embedder=BrokenEmbedder(), knowledge=None)
    result = engine.warm_up()
    assert result["loaded"] == ["model", "clinical"]
    assert result["notes"] == ["embedder unavailable: the embedding model folder is missing"]
    assert result["notes"][0] in engine.service_notes
    _events, answer = ask(engine, "How is diabetes treated?")
    assert answer["answer"] == "Diet and metformin." and answer["sources"] == []
    engine.close()


def test_sources_carry_the_passage_that_was_in_the_prompt(tmp_path):
    engine = make_engine(tmp_path, FakeLLM(["Diet and metformin [1]."]))
    events, result = ask(engine, "How is diabetes treated?")
    streamed = next(e for e in events if isinstance(e, Sources)).sources
    assert streamed == result["sources"] and result["sources"]
    first = result["sources"][0]
    assert first["passage"] == "Diabetes is treated with diet, exercise and metformin. Metformin is taken with meals."
    assert {"n", "doc_id", "title", "score", "url", "licence", "attribution", "passage"} <= set(first)
    engine.close()
