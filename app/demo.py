"""An in-memory demo of the engine facade, for `chartside --screenshot` and GUI tests.

`DemoEngine` has the shape of `engine.facade.Engine`: the same cross-area methods and the
same areas (`demo.patients`, `demo.kb`, `demo.models`, `demo.turns`, small classes below
with the method names of engine/managers/ that the GUI calls). It keeps the vault, patients,
turns and profile in memory (nothing is written, so no PHI can reach a plain file) and
answers from a short script. It exists so that release checks can photograph the window
with a conversation in it without models, indexes or a passphrase prompt. It is never
used to answer a real question.
"""

from __future__ import annotations

import itertools
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterator

from engine.errors import InputError, VaultError, WrongPassphrase
from engine.events import Alerts, Done, Event, NodeFinished, NodeStarted, Sources, Status, Token
from engine.facade import Engine
from engine.settings import Settings

Progress = Callable[[int, int, str], None] | None

PIPELINE = ("extract_and_triage", "store_memory", "check_cache", "plan_retrieval", "assemble_context",
            "retrieve", "generate_answer", "judge_answer", "quality_check", "store_response")

DEMO_QUESTION = {
    "ko": "58세 여성, 고혈압으로 암로디핀 5mg 복용 중이고 페니실린 알레르기가 있어요. 목이 아프고 열이 나는데 아목시실린을 먹어도 되나요?",
    "en": "58-year-old woman on amlodipine 5 mg for hypertension, allergic to penicillin. "
          "She has a sore throat and fever. Can she take amoxicillin?",
}
# The demo answer as the model writer gives it: the sentences the support check backed, each
# with its [n], the note that one was left out, and the standing notice (DEMO_SENTENCES).
DEMO_LEFT_OUT = {
    "ko": "세균성 인두염이 의심되면 진료하는 의사가 페니실린 계열이 아닌 대체 약을 고려할 수 있습니다.",
    "en": "If a bacterial infection is suspected, the treating clinician can consider a non-penicillin alternative.",
}
DEMO_BACKED = {
    "ko": ("아목시실린은 페니실린 계열 항생제이므로 페니실린 알레르기가 있는 분께는 피해야 합니다.",
           "인후통과 발열은 대부분 바이러스 감염으로 생기며 항생제가 필요하지 않은 경우가 많습니다."),
    "en": ("Amoxicillin is a penicillin-class antibiotic, so it should be avoided with a penicillin allergy.",
           "Most sore throats with fever are caused by viruses and do not need antibiotics."),
}
DEMO_NOTES = {
    "ko": ("출처로 뒷받침되지 않는 문장은 뺐습니다.", "이 답변은 진료를 대신하지 않습니다."),
    "en": ("Some sentences were left out because no source supported them.",
           "This answer does not replace a clinical assessment."),
}
DEMO_ANSWER = {language: f"{backed[0]} [1] {backed[1]} [2]\n\n{DEMO_NOTES[language][0]}\n\n{DEMO_NOTES[language][1]}"
               for language, backed in DEMO_BACKED.items()}
GENERIC_ANSWER = {
    "ko": "데모 모드입니다. 실제 답변을 받으려면 모델과 지식 베이스를 설치한 뒤 암호화된 저장소를 여세요.",
    "en": "This is the demo mode. Install the models and the knowledge base and open an encrypted store for real answers.",
}
# Written for this demo (not copied from any source); the URLs point at the public pages.
DEMO_SOURCES = [
    {"n": 1, "doc_id": "demo/penicillin-allergy", "title": "Penicillin allergy", "focus": "Penicillin allergy",
     "score": 0.82, "url": "https://medlineplus.gov/ency/article/000819.htm",
     "licence": "MedQuAD, CC BY 4.0",
     "passage": "People allergic to penicillin may also react to related antibiotics such as amoxicillin "
                "and ampicillin. Tell every clinician and pharmacist about the allergy."},
    {"n": 2, "doc_id": "demo/sore-throat", "title": "Sore throat", "focus": "Pharyngitis",
     "score": 0.71, "url": "https://medlineplus.gov/sorethroat.html",
     "licence": "MedQuAD, CC BY 4.0",
     "passage": "Most sore throats are caused by viruses and get better on their own within a week. "
                "Antibiotics help only when bacteria cause the infection."},
]

# Alerts come in the question's language (`message`) and in both (`messages`), as the engine's do.
ALLERGY_MESSAGES = {"ko": "아목시실린은 페니실린 계열입니다. 프로필에 페니실린 알레르기가 있습니다.",
                    "en": "Amoxicillin is a penicillin. The profile lists a penicillin allergy."}
ALLERGY_ALERT = {language: {"kind": "allergy", "severity": "warning", "drug": "amoxicillin", "allergen": "penicillin",
                            "message": message, "messages": dict(ALLERGY_MESSAGES)}
                 for language, message in ALLERGY_MESSAGES.items()}
EMERGENCY_WORDS = ("chest pain", "흉통", "가슴 통증", "can't breathe", "숨을 못")
EMERGENCY_MESSAGES = {"ko": "응급 증상일 수 있습니다.", "en": "This may be an emergency."}
EMERGENCY_ALERT = {language: {"kind": "emergency", "category": "chest_pain", "message": message,
                              "messages": dict(EMERGENCY_MESSAGES)}
                   for language, message in EMERGENCY_MESSAGES.items()}


def demo_sentences(language: str) -> list[dict]:
    """The support records of the demo answer (`trace.support`): two backed sentences with
    the source sentence behind each, one left out, and the notes."""
    first, second = DEMO_BACKED[language]
    passages = [source["passage"] for source in DEMO_SOURCES]
    return [
        {"text": first, "source": 1, "support": 0.74, "kind": "sourced", "reason": "",
         "source_sentence": passages[0].split(". ")[0] + "."},
        {"text": second, "source": 2, "support": 0.81, "kind": "sourced", "reason": "",
         "source_sentence": passages[1].split(". ")[0] + "."},
        {"text": DEMO_LEFT_OUT[language], "source": None, "support": 0.31, "kind": "sourced",
         "reason": "'non-penicillin' is not in the source" if language == "en" else "no matching sentence",
         "source_sentence": passages[0].split(". ")[0] + "."},
        *({"text": note, "source": None, "support": None, "kind": "notice", "reason": reason, "source_sentence": None}
          for note, reason in zip(DEMO_NOTES[language], ("left out", ""))),
    ]


PENDING = "pending-confirmation"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _language(text: str) -> str:
    return "ko" if any("\uac00" <= ch <= "\ud7a3" for ch in text) else "en"


class DemoEngine:
    """The facade's shape, in memory and scripted (see the module docstring): what spans the
    areas here (`settings`, `update_settings`, `warm_up`, `ask`, `close`, `pipeline_mermaid`),
    the rest in `patients`, `kb`, `models` and `turns`, with the method names of the
    managers in engine/managers/ that the GUI calls."""

    def __init__(self, settings: Settings | None = None, *, token_delay: float = 0.0):
        self.settings = settings or Settings()
        self.token_delay = token_delay  # seconds per streamed word and per added document
        self.patients = DemoPatients()
        self.kb = DemoKnowledge(self)
        self.models = DemoModels(self)
        self.turns = DemoTurns(self)
        self.patients.listeners.append(self.turns)

    def update_settings(self, settings: Settings) -> None:
        self.settings = settings

    def warm_up(self, progress: Progress = None) -> dict:
        """Nothing to load; reports the engine's steps so the status bar shows them."""
        steps = ("model", "knowledge", "embedder", "clinical")
        for done, step in enumerate((*steps, "ready")):
            if progress:
                progress(done, len(steps), step)
        return {"loaded": list(steps), "notes": [], "seconds": {step: 0.0 for step in steps}}

    def ask(self, text: str, **kwargs) -> Iterator[Event]:
        return self.turns.ask(text, **kwargs)

    def pipeline_mermaid(self) -> str:
        return Engine.pipeline_mermaid()

    def close(self) -> None:
        self.patients.lock()


class DemoPatients:
    """`engine.patients`: the vault (a passphrase held in memory), patients, sessions, their
    turns and the profile facts; every change is appended to `audit`."""

    def __init__(self):
        self._passphrase: str | None = None
        self._locked = True
        self._ids = itertools.count(1)
        self._patients: dict[str, dict] = {}
        self._sessions: dict[str, dict] = {}
        self._turns: dict[str, list[dict]] = {}
        self._facts: dict[str, dict] = {}
        self._demographics: dict[str, dict] = {}
        self.audit: list[tuple[str, str]] = []
        self.listeners: list = []  # told `vault_locked()`, as the engine's turns area is

    # -- the vault -------------------------------------------------------------------------
    def vault_exists(self) -> bool:
        return self._passphrase is not None

    def unlock(self, passphrase: str, create: bool = False) -> None:
        if create:
            if self._passphrase is not None:
                raise VaultError("a vault already exists")
            if not passphrase:
                raise InputError("empty passphrase", user_message="Choose a passphrase.")
            self._passphrase = passphrase
        elif self._passphrase is None:
            raise VaultError("no vault yet")
        elif passphrase != self._passphrase:
            raise WrongPassphrase()
        self._locked = False

    def lock(self) -> None:
        for listener in self.listeners:
            listener.vault_locked()
        self._locked = True

    @property
    def is_locked(self) -> bool:
        return self._locked

    def _require_unlocked(self) -> None:
        if self._locked:
            raise VaultError("the vault is locked", user_message="The patient store is locked. Unlock it first.")

    def _next_id(self, prefix: str) -> str:
        return f"{prefix}{next(self._ids)}"

    # -- patients and sessions -------------------------------------------------------------
    def list_patients(self, search: str = "") -> list[dict]:
        self._require_unlocked()
        needle = search.casefold().strip()
        rows = [dict(p) for p in self._patients.values() if needle in p["name"].casefold()]
        return sorted(rows, key=lambda p: p["name"].casefold())

    def create_patient(self, name: str) -> dict:
        self._require_unlocked()
        if not name.strip():
            raise InputError("empty name", user_message="Enter a name for the patient.")
        now = _now()
        patient = {"id": self._next_id("p"), "name": name.strip(), "created": now, "updated": now}
        self._patients[patient["id"]] = patient
        self.audit.append(("create_patient", patient["id"]))
        return dict(patient)

    def rename_patient(self, patient_id: str, name: str) -> None:
        self.patient(patient_id).update(name=name.strip(), updated=_now())
        self.audit.append(("rename_patient", patient_id))

    def delete_patient(self, patient_id: str) -> None:
        self.patient(patient_id)
        del self._patients[patient_id]
        for session_id in [s for s, row in self._sessions.items() if row["patient_id"] == patient_id]:
            del self._sessions[session_id]
            self._turns.pop(session_id, None)
        for fact_id in [f for f, row in self._facts.items() if row["patient_id"] == patient_id]:
            del self._facts[fact_id]
        self.audit.append(("delete_patient", patient_id))

    def patient(self, patient_id: str) -> dict:
        """The patient's row (for the demo's turns too), or InputError."""
        self._require_unlocked()
        if patient_id not in self._patients:
            raise InputError(f"no patient {patient_id}", user_message="That patient no longer exists.")
        return self._patients[patient_id]

    def open_patient(self, patient_id: str) -> list[dict]:
        return self.list_sessions(patient_id)

    def list_sessions(self, patient_id: str) -> list[dict]:
        self.patient(patient_id)
        rows = [dict(s) for s in self._sessions.values() if s["patient_id"] == patient_id]
        return rows[::-1]

    def new_session(self, patient_id: str) -> dict:
        self.patient(patient_id)
        session = {"id": self._next_id("s"), "patient_id": patient_id, "started": _now(), "title": ""}
        self._sessions[session["id"]] = session
        self._turns[session["id"]] = []
        return dict(session)

    def rename_session(self, session_id: str, title: str) -> dict:
        self._require_unlocked()
        if not title.strip():
            raise InputError("empty title", user_message="Enter a title for the conversation.")
        self._sessions[session_id]["title"] = title.strip()
        return dict(self._sessions[session_id])

    def session_turns(self, session_id: str) -> list[dict]:
        self._require_unlocked()
        return [dict(t) for t in self._turns.get(session_id, [])]

    def turn_log(self, session_id: str | None) -> list[dict]:
        """The list a demo turn of `session_id` is appended to (a throw-away one without a session)."""
        return self._turns.setdefault(session_id, []) if session_id else []

    def turn_added(self, patient_id: str | None, session_id: str | None, text: str) -> None:
        """A demo turn was answered: a new conversation takes its question as title."""
        session = self._sessions.get(session_id) if session_id else None
        if session is not None and not session["title"]:
            session["title"] = text[:40]
        if patient_id:
            self._patients[patient_id]["updated"] = _now()

    # -- profile ---------------------------------------------------------------------------
    def profile(self, patient_id: str) -> dict:
        self.patient(patient_id)
        slots: dict = {"demographics": dict(self._demographics.get(patient_id, {})), "demographics_provenance": {},
                       "conditions": [], "symptoms": [], "medications": [], "allergies": [], "contraindications": [],
                       "vitals": [], "labs": []}
        for fact in self._facts.values():
            if fact["patient_id"] == patient_id and fact["status"] not in ("rejected", "retracted"):
                slots[fact["slot"]].append({k: v for k, v in fact.items() if k not in ("patient_id", "slot")})
        return slots

    def _set_status(self, fact_id: str, status: str) -> None:
        self._require_unlocked()
        if fact_id not in self._facts:
            raise InputError(f"no fact {fact_id}", user_message="That profile entry no longer exists.")
        self._facts[fact_id]["status"] = status
        self.audit.append((status, fact_id))

    def confirm_fact(self, fact_id: str) -> None:
        self._set_status(fact_id, "active")

    def reject_fact(self, fact_id: str) -> None:
        self._set_status(fact_id, "rejected")

    def retract_fact(self, fact_id: str) -> None:
        self._set_status(fact_id, "retracted")

    def edit_fact(self, fact_id: str, changes: dict) -> None:
        self._set_status(fact_id, "active")
        self._facts[fact_id].update({k: v for k, v in changes.items() if k not in ("id", "fact_id", "patient_id", "slot")})
        self.audit.append(("edit", fact_id))

    def _add_fact(self, patient_id: str, slot: str, turn: int, span: str, status: str = "active", **values) -> None:
        fact_id = self._next_id("f")
        now = _now()
        self._facts[fact_id] = {"id": fact_id, "fact_id": fact_id, "patient_id": patient_id, "slot": slot,
                                "status": status, "negated": False, "weight": 1.0,
                                "provenance": {"first_turn_id": turn, "last_turn_id": turn, "first_seen": now,
                                               "observed_at": now, "source_span": span, "confidence": 0.9,
                                               "mentions": 1},
                                **values}

    def extract(self, patient_id: str, turn: int, text: str) -> None:
        """A tiny keyword extractor so the demo profile fills in (the real one is MedCAT)."""
        lowered = text.casefold()
        if "58" in text:
            self._demographics[patient_id] = {"age": 58, "age_group": "older adult", "gender": "female",
                                              "pregnant": None}
        if "hypertension" in lowered or "고혈압" in text:
            span = "고혈압" if "고혈압" in text else "hypertension"
            self._add_fact(patient_id, "conditions", turn, span, name="Hypertension", concept_id="C0020538", text=span)
        if "amlodipine" in lowered or "암로디핀" in text:
            span = "암로디핀 5mg" if "암로디핀" in text else "amlodipine 5 mg"
            self._add_fact(patient_id, "medications", turn, span, name="Amlodipine", dose="5 mg", frequency="daily",
                           text=span)
        if "penicillin" in lowered or "페니실린" in text:
            span = "페니실린 알레르기" if "페니실린" in text else "allergic to penicillin"
            self._add_fact(patient_id, "allergies", turn, span, status=PENDING, name="Penicillin",
                           concept_id="C0030842", text=span)
        if "fever" in lowered or "열이" in text:
            span = "열이 나는데" if "열이" in text else "fever"
            self._add_fact(patient_id, "symptoms", turn, span, name="Fever", concept_id="C0015967", text=span)

    # -- export ------------------------------------------------------------------------------
    def export_conversation(self, session_id: str, path: str, fmt: str = "md") -> None:
        self._require_unlocked()
        if fmt != "md":
            raise InputError(f"{fmt} export", user_message="The demo exports Markdown only.")
        lines = ["# Conversation", ""]
        for turn in self._turns.get(session_id, []):
            lines += [f"**Q:** {turn['user']}", "", turn["answer"], ""]
        Path(path).write_text("\n".join(lines), encoding="utf-8")

    def export_patient(self, patient_id: str, path: str, fmt: str = "json") -> None:
        import json

        patient = self.patient(patient_id)
        if fmt == "json":
            Path(path).write_text(json.dumps({"patient": patient, "profile": self.profile(patient_id)},
                                             ensure_ascii=False, indent=2), encoding="utf-8")
        elif fmt == "md":
            Path(path).write_text(f"# {patient['name']}\n", encoding="utf-8")
        else:
            raise InputError(f"{fmt} export", user_message="The demo exports JSON and Markdown only.")


class DemoTurns:
    """`engine.turns`: the scripted answer, streamed word by word (`token_delay` apart), and
    its cancellation (by `cancel` or by locking the vault)."""

    def __init__(self, engine: DemoEngine):
        self._engine = engine
        self._cancelled = False

    def cancel(self) -> None:
        self._cancelled = True

    def vault_locked(self) -> None:
        self._cancelled = True

    def ask(self, text: str, *, patient_id: str | None = None, session_id: str | None = None,
            mode: str | None = None) -> Iterator[Event]:
        patients, settings = self._engine.patients, self._engine.settings
        if patient_id is not None:
            patients.patient(patient_id)
        self._cancelled = False
        language = _language(text)
        mode = mode or settings.mode
        turns = patients.turn_log(session_id)
        timings: dict[str, float] = {}
        yield Status("Loading the language model…")
        demo = any(word in text.casefold() for word in ("amoxicillin", "아목시실린"))
        alerts: list[dict] = []
        sources = DEMO_SOURCES if demo else []
        nodes = PIPELINE if mode == "agent" else ("generate_answer",)
        for node in nodes:
            if node == "generate_answer":
                break
            yield NodeStarted(node)
            if node == "store_memory" and patient_id:
                patients.extract(patient_id, len(turns) + 1, text)
            timings[node] = 1.0 + len(node) / 10
            yield NodeFinished(node, timings[node], {})
        if mode == "agent":
            if demo:
                alerts.append(ALLERGY_ALERT[language])
            if any(word in text.casefold() for word in EMERGENCY_WORDS):
                alerts.append(EMERGENCY_ALERT[language])
            yield Alerts(alerts)
            yield Sources(sources)
        yield NodeStarted("generate_answer")
        answer = DEMO_ANSWER[language] if demo else GENERIC_ANSWER[language]
        pieces: list[str] = []
        for word in answer.split(" "):
            if self._cancelled:
                break
            if self._engine.token_delay:
                time.sleep(self._engine.token_delay)
            piece = word if not pieces else " " + word
            pieces.append(piece)
            yield Token(piece)
        timings["generate_answer"] = 240.0
        yield NodeFinished("generate_answer", timings["generate_answer"], {"completion_tokens": len(pieces)})
        if mode == "agent":
            for node in nodes[nodes.index("generate_answer") + 1:]:
                yield NodeStarted(node)
                timings[node] = 2.0
                yield NodeFinished(node, timings[node], {})
        support = demo_sentences(language) if demo and mode == "agent" and not self._cancelled else []
        result = {
            "answer": "".join(pieces).strip(), "alerts": alerts, "sources": sources,
            "sentences": [{k: record[k] for k in ("text", "source", "support", "kind")} for record in support],
            "trace": {"support": support, "language": language, "mode": mode, "model": settings.llm.generate_model, "nodes": list(nodes),
                      "cache_hit": False, "query_complexity": "moderate" if demo else "simple",
                      "dynamic_k": 8 if demo else 3, "iterations": 1, "quality_score": 0.78 if demo else None,
                      "quality": {"grounding": 0.8, "completeness": 0.75, "accuracy": 0.78} if demo else {},
                      "prompt_tokens": 1630, "completion_tokens": len(pieces),
                      "budget": {"total": settings.context.total_budget,
                                 "reserve": settings.context.generation_reserve},
                      "cancelled": self._cancelled,
                      "timings_ms": timings},
        }
        if session_id:
            turns.append({"user": text, **result})
        patients.turn_added(patient_id, session_id, text)
        yield Done(result)


class DemoModels:
    """`engine.models`: the installed models of the manifest, adding a GGUF file, the device."""

    def __init__(self, engine: DemoEngine):
        self._engine = engine

    def installed(self) -> list[dict]:
        from engine.models import load_manifest

        rows = []
        for entry in load_manifest():
            try:
                present = entry.weights_file().exists()
            except Exception:  # a package that is not installed
                present = False
            rows.append({**entry.to_dict(), "verified": present})
        return rows

    def add(self, path: str, roles: list[str], progress: Progress = None) -> dict:
        file = Path(path)
        if file.suffix.lower() != ".gguf" or not file.is_file():
            raise InputError(f"{path} is not a GGUF file", user_message="Choose a .gguf model file.")
        if progress:
            progress(1, 1, file.name)
        return {"name": file.stem, "kind": "gguf", "roles": list(roles), "path": str(file), "verified": True}

    def device_info(self) -> dict:
        llm = self._engine.settings.llm
        return {"backend": "CPU", "gpu_offload": False, "n_gpu_layers": llm.n_gpu_layers,
                "threads": llm.n_threads or 2, "model": llm.generate_model}


class DemoKnowledge:
    """`engine.kb`: counts only (those of the default MedQuAD index at the start, so the
    screenshots show a realistic knowledge base); adding takes `token_delay` per document."""

    def __init__(self, engine: DemoEngine):
        self._engine = engine
        self._counts = {"documents": 17925, "chunks": 29485, "embedding_model": engine.settings.embedding.model}

    def stats(self) -> dict:
        return dict(self._counts)

    def add(self, paths: list[str], progress: Progress = None, cancel=None, allow_patient_data: bool = False) -> dict:
        added = 0
        for index, path in enumerate(paths, start=1):
            if cancel is not None and cancel.cancelled:
                break
            if self._engine.token_delay:
                time.sleep(self._engine.token_delay)
            added += 1
            if progress:
                progress(index, len(paths), Path(path).name)
        self._counts["documents"] += added
        self._counts["chunks"] += added * 3
        return {"added": added, "cancelled": bool(cancel is not None and cancel.cancelled)}

    def remove(self, doc_ids_or_paths: list[str]) -> None:
        self._counts["documents"] = max(0, self._counts["documents"] - len(doc_ids_or_paths))

    def rebuild(self, progress: Progress = None, cancel=None) -> dict:
        if progress:
            progress(1, 1, "rebuilt")
        return dict(self._counts)

    def export(self, path: str, progress: Progress = None, cancel=None) -> dict:
        raise InputError("demo export", user_message="The demo has no knowledge base to export or import.")

    import_bundle = export
