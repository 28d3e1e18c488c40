"""Adapters from the real services to the agent's narrow interfaces (engine.agent.services).

- `ClinicalService`: engine.clinical's `extract`, `triage`, `conflicts`.
- `KnowledgeService`: engine.knowledge's `HybridRetriever` (its `Passage`s as they are, flags per call).
- `VaultMemory`: one patient and session in the encrypted vault (engine.memory's
  ProfileStore + HierarchicalMemory); long-term memory = summaries of turns older than
  the working window + older turns recalled by similarity (the profile section already
  carries allergies and chronic facts).
"""

from __future__ import annotations

from dataclasses import replace

from engine.clinical.slot_model import empty_slots
from engine.passage import Passage


class ClinicalService:
    """engine.clinical's functions; any that the package does not provide act as "nothing found"."""

    def __init__(self, module=None, similar=None):
        """`similar`: an engine.clinical.similar_emergencies.SimilarEmergencies, consulted when
        the red-flag rules find nothing; a failure there leaves the rules' verdict."""
        self.similar = similar
        if module is None:
            import engine.clinical as module  # imported lazily: it loads the MedCAT pack
        found = {name: getattr(module, name, None) for name in ("extract", "triage", "conflicts")}
        self._functions = {name: value if callable(value) else None for name, value in found.items()}
        self.missing = [name for name, function in self._functions.items() if function is None]

    def extract(self, text: str) -> dict:
        if "extract" in self.missing:
            return empty_slots()
        return self._functions["extract"](text)

    def triage(self, text: str) -> dict:
        if "triage" in self.missing:
            return {"emergency": False, "category": None, "message": ""}
        verdict = self._functions["triage"](text)
        if verdict.get("emergency") or self.similar is None:
            return verdict
        from engine.clinical.similar_emergencies import triage_with_similar
        from engine.errors import ChartsideError

        try:
            return triage_with_similar(text, self.similar)
        except (ChartsideError, OSError, RuntimeError, ValueError):
            return verdict

    def warm_up(self) -> None:
        """Load what the first turn would otherwise load: the concept pack (one extraction) and
        the labelled emergencies of the second emergency check (embedded once)."""
        self.extract("warm-up: aspirin 100 mg daily")
        if self.similar is not None:
            from engine.errors import ChartsideError

            try:
                self.similar.load()
            except (ChartsideError, OSError, RuntimeError, ValueError):
                pass  # triage then keeps the rules' verdict, as it does when a turn's check fails

    def conflicts(self, profile: dict, slots: dict) -> list[dict]:
        if "conflicts" in self.missing:
            return []
        return list(self._functions["conflicts"](profile, slots))


class KnowledgeService:
    def __init__(self, retriever):
        from engine.knowledge.boilerplate import Boilerplate

        self.retriever = retriever
        self._boilerplate = Boilerplate()

    def search(self, query: str, k: int, *, profile: dict | None, expand: bool, docs_budget: int,
               bm25: bool, dense: bool) -> list[Passage]:
        """The `k` best documents, exactly `k` when the index has them.

        `docs_budget` is not used to cut `k`: the retrieve node fits the documents into the
        budget by compression, so the k that active retrieval chooses is the k it gets."""
        mode = "hybrid" if bm25 and dense else ("bm25" if bm25 else "dense")
        self.retriever.use_bm25, self.retriever.use_dense = bm25, dense
        passages = self.retriever.search(query, k, mode=mode, profile=profile, expand=expand, docs_budget=None)
        return [replace(p, score=float(p.score)) for p in passages]

    def plan(self, query: str):
        """The query plan (focus concepts, question types) the translator makes of `query`,
        whether or not the search used it (an English question is searched as written); None
        without a translator or a concept. The composer scores a long message's sentences
        against its focus."""
        translator = getattr(self.retriever, "translator", None)
        if translator is None or not query.strip():
            return None
        return translator.plan(query, getattr(self.retriever, "kb", None))

    def boilerplate(self) -> frozenset[str]:
        """The sentences the knowledge base repeats on many pages (engine.knowledge.boilerplate),
        which the composer never quotes; none without a knowledge base folder."""
        kb = getattr(self.retriever, "kb", None)
        return self._boilerplate.sentences(kb) if kb is not None else frozenset()

    def searched(self, query: str, expand: bool) -> str:
        """The English query that `search` looks up for `query` ("hypothyroidism symptoms"),
        or `query` itself when it is searched as written."""
        plan = self.retriever.plan(query) if expand else None
        return plan.english if plan is not None else query


class RoleSummariser:
    """The "summarise" model role as the memory's summariser (`engine.protocols.Summariser`).

    Conversation summaries for the compressed memory tier come from whichever model the
    settings give that role (local or the clinic server). When it cannot answer (no model,
    a failed load, an empty or over-long reply) the memory falls back to its deterministic
    extractive summary (`engine.memory.hierarchy.extractive_summary`)."""

    SYSTEM = ("You summarise a clinic conversation for the clinician's notes. Keep every drug name, dose, "
              "allergy, condition and measured value exactly. Write plain sentences, no advice.")

    def __init__(self, llm):
        self.llm = llm

    def summarise(self, text: str, max_tokens: int) -> str:
        from engine.errors import ModelOutputError

        messages = [{"role": "system", "content": self.SYSTEM},
                    {"role": "user", "content": f"Conversation:\n{text}\n\nSummary:"}]
        summary = self.llm.chat("summarise", messages, max_tokens=max_tokens, temperature=0.0).strip()
        if not summary:
            raise ModelOutputError("the summarise model returned nothing")
        return summary


class VaultMemory:
    """PatientMemory over the vault for one patient and session."""

    def __init__(self, vault, patient_id: int, session_id: int, *, embedder=None, summariser=None):
        from engine.memory.hierarchy import HierarchicalMemory
        from engine.memory.profile import ProfileStore

        self.vault = vault
        self.patient_id = int(patient_id)
        self.session_id = int(session_id)
        self.profiles = ProfileStore(vault)
        self.hierarchy = HierarchicalMemory(vault, embedder, summariser, profile=self.profiles)
        self._open_turn: int | None = None

    def profile(self) -> dict:
        return self.profiles.profile(self.patient_id)

    def profile_summary(self, language: str) -> str:
        return self.profiles.summary(self.patient_id, language)

    def fingerprint(self) -> str:
        return self.profiles.fingerprint(self.patient_id)[:16]

    def update_profile(self, slots: dict, text: str) -> list[dict]:
        """Record the message first, so every fact's provenance points at its turn."""
        self._open_turn = self.hierarchy.start_turn(self.session_id, text)
        return self.profiles.update(self.patient_id, slots, turn_id=self._open_turn)

    def working_turns(self, count: int) -> list[dict]:
        turns = [t for t in self.vault.list_turns(session_id=self.session_id, last=count + 1) if t["finished_at"]]
        return [{"user": t["user_text"], "answer": t["answer"] or ""} for t in turns[-count:]]

    def long_term(self, query: str, budget_tokens: int, language: str) -> str:
        if budget_tokens <= 0:
            return ""
        working = [t for t in self.vault.list_turns(session_id=self.session_id,
                                                    last=self.vault.settings.memory.working_turns + 1)
                   if t["finished_at"]][-self.vault.settings.memory.working_turns:]
        first_working = working[0]["position"] if working else None
        lines = [f"- turns {s['first_position']}-{s['last_position']}: {s['summary']}"
                 for s in self.hierarchy.summaries(patient_id=self.patient_id)
                 if s["session_id"] != self.session_id or first_working is None or s["first_position"] < first_working]
        related = self.hierarchy.related_turns(self.patient_id, query, {t["id"] for t in working},
                                               self.vault.settings.memory.related_turns)
        lines += [f"- earlier: {t['user_text'][:200]}" for t, _score in related]
        return "\n".join(reversed(lines))

    def add_turn(self, user: str, result: dict) -> None:
        sources, alerts, trace = result.get("sources", []), result.get("alerts", []), result.get("trace", {})
        if self._open_turn is not None:
            self.hierarchy.finish_turn(self._open_turn, result.get("answer", ""), sources, alerts, trace)
            self._open_turn = None
        else:
            self.hierarchy.add_turn(self.session_id, user, result.get("answer", ""), sources, alerts, trace)
