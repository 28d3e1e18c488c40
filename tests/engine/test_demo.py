"""engine.demo: the real Engine over throw-away parts (scripted fake model, a vault and a
tiny knowledge base in a temporary folder) answers the demo question as the GUI tests and
the screenshots expect, and leaves nothing behind."""

from __future__ import annotations

from engine.demo import DEMO_ATTRIBUTION, DEMO_LEFT_OUT, DEMO_LICENCE, DEMO_QUESTION, demo_engine
from engine.events import Done
from engine.settings import settings_path


def test_the_demo_engine_answers_with_the_real_checks_and_leaves_nothing(clinical_pack, chartside_home):
    engine = demo_engine()
    scratch = engine.scratch
    try:
        assert engine.service_notes == [] and not engine.patients.vault_exists()
        assert engine.kb.stats()["attribution"] == f"{DEMO_ATTRIBUTION} ({DEMO_LICENCE})", \
            "the demo's own passages, credited as written for it (not to MedQuAD)"
        engine.patients.unlock("demo passphrase", create=True)
        patient = engine.patients.create_patient("Alex Kim")
        session = engine.patients.new_session(patient["id"])
        result = [e for e in engine.ask(DEMO_QUESTION["en"], patient_id=patient["id"], session_id=session["id"])
                  if isinstance(e, Done)][0].result
        assert [a["kind"] for a in result["alerts"]] == ["allergy_conflict"]
        assert "[1]" in result["answer"] and "[2]" in result["answer"]
        assert result["sources"][0]["doc_id"] == "demo/penicillin-allergy"
        assert result["sources"][0]["attribution"] == DEMO_ATTRIBUTION
        left_out = [s for s in result["trace"]["support"] if s["kind"] == "sourced" and s["source"] is None]
        assert [s["text"] for s in left_out] == [DEMO_LEFT_OUT["en"]]
        assert engine.patients.profile(patient["id"])["allergies"][0]["status"] == "pending-confirmation"

        settings = engine.settings.model_copy(deep=True)
        settings.ui.language = "en"
        engine.update_settings(settings)
        assert engine.settings.ui.language == "en" and engine.settings.llm.backend == "fake"
        assert not settings_path().exists(), "the demo does not save the user's settings"
    finally:
        engine.close()
    assert not scratch.exists()
    assert not any(chartside_home.rglob("*.db")), "the vault lived in the temporary folder only"
