"""Bad input (hypothesis): empty, 100,000 characters, undecodable bytes, control
characters, mixed scripts (Hangul, Latin, CJK) and emoji into extract, triage,
`Engine.ask` and `kb add`.

Each input gives an engine.errors exception (InputError) or a safe result; the engine
keeps working (a normal turn succeeds afterwards, with its safety alert), and nothing
stored is lost (every vault fact stays, the knowledge base's document counts are
unchanged or extended by exactly the files that were accepted). Real MedCAT pack, real
vault, real retrieval; `Engine.ask` uses EndlessLLM for the many generated inputs and the
real model for a handful of fixed ones.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine.errors import InputError
from engine.events import Alerts
from tests.reliability.conftest import fast_settings, finished_turns, run_turn, vault_facts

EXTRACT_EXAMPLES = 60
TRIAGE_EXAMPLES = 150
ASK_EXAMPLES = 40
KB_ADD_EXAMPLES = 12
LONG_UNIT = ("환자는 오늘 clinic 에 왔습니다 😀 胸痛 없음. The patient walked in and talked about the weather\x07 "
             "and chest pain; takes metformin 500 mg twice daily. ")
LONG = (LONG_UNIT * (100_000 // len(LONG_UNIT) + 1))[:100_000]

HANGUL = st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3)
CJK = st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF)
EMOJI = st.sampled_from(["😀", "🫀", "💊", "🚑", "👨\u200d👩\u200d👧", "🇰🇷", "❤\ufe0f", "\u200d", "\ufe0f"])
CONTROL = st.characters(codec=None, categories=["Cc", "Cf", "Zl", "Zp"])
LATIN = st.characters(min_codepoint=0x20, max_codepoint=0x24F)
MIXED = st.lists(st.one_of(HANGUL, CJK, EMOJI, CONTROL, LATIN, st.just(" ")), max_size=300).map("".join)
UNDECODABLE = st.binary(max_size=300).map(lambda raw: raw.decode("utf-8", "surrogateescape"))
NASTY = st.one_of(st.text(max_size=400), MIXED, UNDECODABLE,
                  st.text(alphabet=CONTROL, max_size=60), st.sampled_from(["", " ", "\n\t\r", "\x00" * 8]))
FIXED = {
    "empty": "", "blank": " \n\t ", "nul": "\x00" * 32, "100,000 characters": LONG,
    "undecodable": b"\xff\xfe chest \xc3\x28 pain \xed\xa0\x80".decode("utf-8", "surrogateescape"),
    "control": "chest pain\x00\x1b[31m\x08\x7f\u2028\u202e", "emoji": "😀🫀💊🚑" * 50,
    "mixed scripts": "가슴 통증 chest pain 胸痛 😀 アレルギー penicillin", "zero width": "che\u200bst pa\u200din",
}
REAL_MODEL_INPUTS = ("emoji", "undecodable", "mixed scripts")
SLOT_KEYS = {"demographics", "conditions", "symptoms", "medications", "allergies", "vitals", "labs"}
ASK_SETTINGS = dict(llm={"max_answer_tokens": 8},
                    context={"total_budget": 1400, "documents_tokens": 300, "generation_reserve": 32})


def check_slots(slots: dict, text: str) -> None:
    assert set(slots) == SLOT_KEYS
    for name in SLOT_KEYS - {"demographics"}:
        for item in slots[name]:
            assert 0 <= item.get("start", 0) <= item.get("end", 0) <= len(text)


def test_extract_takes_any_text(clinical_pack):
    from engine.clinical import extract

    tried = {"inputs": 0, "InputError": 0}

    def one(text) -> None:
        tried["inputs"] += 1
        try:
            slots = extract(text)
        except InputError:
            tried["InputError"] += 1
            return
        check_slots(slots, text)

    for text in FIXED.values():
        one(text)
    with pytest.raises(InputError):
        extract(b"chest pain")  # bytes are not text: a named error

    @settings(max_examples=EXTRACT_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(NASTY)
    def generated(text):
        one(text)

    generated()
    assert extract("I am allergic to penicillin")["allergies"], "extraction still works afterwards"
    print(f"\nextract: {tried['inputs']} bad inputs ({len(FIXED)} fixed + hypothesis), "
          f"{tried['InputError']} InputError, the rest gave valid slots")


EMERGENCIES = ["I have crushing chest pain and I'm sweating", "가슴이 쥐어짜듯 아프고 식은땀이 나요",
               "my face and throat are swelling after the peanut and I can't breathe"]
NOISE = st.lists(st.one_of(CJK, EMOJI, CONTROL, st.characters(categories=["Nd", "Po"])), max_size=60).map("".join)


def test_triage_takes_any_text_and_noise_never_hides_an_emergency():
    from engine.clinical import triage

    tried = {"inputs": 0, "emergencies": 0}

    def valid(verdict: dict) -> None:
        assert set(verdict) == {"emergency", "category", "message"}
        assert isinstance(verdict["emergency"], bool) and verdict["message"]
        assert (verdict["category"] is not None) == verdict["emergency"]

    for text in FIXED.values():
        valid(triage(text))
        tried["inputs"] += 1

    @settings(max_examples=TRIAGE_EXAMPLES, deadline=None)
    @given(NASTY, st.sampled_from(EMERGENCIES), NOISE)
    def generated(text, emergency, noise):
        verdict = triage(text)
        valid(verdict)
        assert triage(text) == verdict, "deterministic"
        noisy = triage(f"{noise}\n{emergency}. {noise}")
        assert noisy["emergency"], f"noise hid an emergency: {noise!r}"
        tried["inputs"] += 2
        tried["emergencies"] += 1

    generated()
    print(f"\ntriage: {tried['inputs']} bad inputs, {tried['emergencies']} of them an emergency wrapped in "
          f"CJK/emoji/control-character noise: every one fired")


def test_engine_ask_survives_any_message_and_keeps_everything_stored(make_engine, home_kb):
    engine = make_engine(settings=fast_settings(**ASK_SETTINGS))
    patient = engine.test_patient
    run_turn(engine, "I am allergic to penicillin and I take metformin 500 mg twice a day.", patient_id=patient)
    kb_before = home_kb.document_count()
    tried = {"inputs": 0, "answered": 0, "InputError": 0}

    def one(text) -> None:
        facts = vault_facts(engine, patient)
        turns = finished_turns(engine, patient)
        tried["inputs"] += 1
        try:
            _, result = run_turn(engine, text, patient_id=patient)
        except InputError:
            tried["InputError"] += 1
            assert finished_turns(engine, patient) == turns, "a refused message stores no turn"
        else:
            tried["answered"] += 1
            assert result["answer"].strip()
            assert finished_turns(engine, patient) == turns + 1
        after = vault_facts(engine, patient)
        assert facts.items() <= after.items(), "a stored fact was lost or changed"
        assert home_kb.document_count() == kb_before

    for name, text in FIXED.items():
        one(text)
    with pytest.raises(InputError):
        run_turn(engine, FIXED["100,000 characters"], patient_id=patient)

    @settings(max_examples=ASK_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(NASTY)
    def generated(text):
        one(text)

    generated()
    events, result = run_turn(engine, "Can I take amoxicillin for a sore throat?", patient_id=patient)
    alerts = [a["kind"] for event in events if isinstance(event, Alerts) for a in event.alerts]
    assert "allergy_conflict" in alerts, "the profile from before the bad inputs still drives the alerts"
    assert result["sources"] and result["answer"].strip()
    print(f"\nEngine.ask (agent, EndlessLLM): {tried['inputs']} bad messages, {tried['answered']} answered, "
          f"{tried['InputError']} InputError; no fact lost, the knowledge base unchanged, a normal turn afterwards "
          f"raised its allergy alert")


@pytest.mark.real_model
def test_engine_ask_with_the_real_model_survives_nasty_messages(make_engine):
    engine = make_engine(llm="real", settings=fast_settings(**ASK_SETTINGS))
    patient = engine.test_patient
    answered = 0
    for name in REAL_MODEL_INPUTS:
        _, result = run_turn(engine, FIXED[name], patient_id=patient)
        assert isinstance(result["answer"], str), name
        answered += 1
    for name in ("empty", "100,000 characters"):
        with pytest.raises(InputError):
            run_turn(engine, FIXED[name], patient_id=patient)
    _, normal = run_turn(engine, "What is high blood pressure?", patient_id=patient)
    assert normal["answer"].strip() and normal["trace"]["llm_unavailable"] is None
    print(f"\nEngine.ask (agent, real model): {answered} nasty messages answered "
          f"({', '.join(REAL_MODEL_INPUTS)}), 2 refused with InputError, then a normal turn")


def nasty_files(folder) -> dict:
    """Files a clinic might drop in by mistake, and awkward but legitimate text files."""
    files = {
        "empty.txt": b"",
        "blank.md": b"   \n\n\t",
        "binary.txt": os.urandom(4096),
        "image.md": b"\x89PNG\r\n\x1a\n" + os.urandom(2048),
        "cp949.txt": "흉통 환자 진료 지침: 심전도를 10분 안에 찍습니다.".encode("cp949"),
        "latin1.txt": "Café protocol: naïve patients receive the vaccine.".encode("latin-1"),
        "utf16.txt": "Asthma plan: 흡입기 사용법 (inhaler).".encode("utf-16"),
        "mixed.md": "# 혼합 Mixed 混合 😀\n\n가슴 통증 chest pain 胸痛 🫀 metformin 500 mg.".encode("utf-8"),
        "long.txt": LONG.replace("\x07", "").encode("utf-8"),
        "controls.txt": ("Ward note\x07 with a bell and a\x1b escape. " * 3).encode("utf-8"),
        "one-bell.txt": ("Ward round note: blood pressure checked twice daily. " * 10 + "\x07").encode("utf-8"),
    }
    paths = {}
    for name, content in files.items():
        paths[name] = folder / name
        paths[name].write_bytes(content)
    return paths


REJECTED = {"empty.txt", "blank.md", "binary.txt", "image.md", "controls.txt"}


def test_kb_add_takes_awkward_files_refuses_non_text_and_loses_nothing(make_engine, home_kb, tmp_path):
    from engine.knowledge.store import Manifest

    engine = make_engine()
    kb = home_kb
    before = kb.document_count()
    folder = tmp_path / "drop"
    folder.mkdir()
    paths = nasty_files(folder)
    result = engine.kb.add(list(paths.values()))
    refused = {error.split(":")[0].rsplit("/", 1)[-1] for error in result["errors"]}
    assert refused == REJECTED, result["errors"]
    accepted = len(paths) - len(REJECTED)
    assert result["added"] == accepted
    assert kb.document_count() == {**before, "user": before.get("user", 0) + accepted}
    titles = {d["title"] for d in kb.list_documents()}
    assert {"cp949", "latin1", "utf16", "혼합 Mixed 混合 😀", "long", "one-bell"} <= titles
    hits = kb.search_bm25(["심전", "전도"], 3)
    assert hits and kb.chunks([hits[0][0]])[0].title == "cp949", "the CP949 file was decoded as Korean"

    tried = {"files": len(paths), "added": accepted, "refused": len(REJECTED)}
    CONTENT = st.one_of(st.binary(max_size=1500), MIXED.map(lambda t: t.encode("utf-8", "surrogatepass")),
                        st.text(max_size=1500).map(lambda t: t.encode("utf-8", "surrogatepass")))

    @settings(max_examples=KB_ADD_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(CONTENT, st.sampled_from([".txt", ".md"]))
    def generated(content, suffix):
        path = folder / f"generated{tried['files']}{suffix}"
        path.write_bytes(content)
        counts = kb.document_count()
        outcome = engine.kb.add([path])
        tried["files"] += 1
        if outcome["added"]:
            tried["added"] += 1
            assert kb.document_count() == {**counts, "user": counts.get("user", 0) + 1}
        else:
            tried["refused"] += 1
            assert len(outcome["errors"]) == 1 and kb.document_count() == counts

    generated()
    manifest = Manifest.read(kb.folder)
    assert manifest.user_documents == kb.document_count()["user"] and manifest.rows == kb.size
    assert kb.search_bm25(["chest", "pain"], 3), "the index still answers"
    print(f"\nkb add: {tried['files']} awkward files ({len(paths)} fixed + hypothesis): {tried['added']} added, "
          f"{tried['refused']} refused with InputError (empty, binary, control bytes); document counts exact")
