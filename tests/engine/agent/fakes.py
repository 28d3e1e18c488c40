"""Control-flow fakes of the services the agent wires in (never the only test of a feature)."""

from __future__ import annotations

import hashlib

import numpy as np

from engine.agent.cache import ResponseCache
from engine.agent.ephemeral import EphemeralMemory
from engine.clinical.slot_model import empty_slots
from engine.agent.meter import MeteredLLM
from engine.agent.services import AgentServices
from engine.passage import Passage
from engine.agent.tokens import TokenManager
from engine.llm.fake import FakeLLM
from engine.settings import Settings


class FakeClinical:
    """Recognises a handful of words; triage on 'chest pain'; penicillin allergy x amoxicillin."""

    DRUGS = {"amoxicillin": "C0002645", "metformin": "C0025598", "ibuprofen": "C0020740"}
    CONDITIONS = {"diabetes": "C0011849", "asthma": "C0004096"}

    def extract(self, text: str) -> dict:
        slots = empty_slots()
        lowered = text.lower()
        for name, cui in self.DRUGS.items():
            if name in lowered:
                slots["medications"].append({"name": name, "concept_id": cui, "text": name})
        for name, cui in self.CONDITIONS.items():
            if name in lowered:
                slots["conditions"].append({"name": name, "concept_id": cui, "text": name})
        if "allergic to penicillin" in lowered:
            slots["allergies"].append({"name": "penicillin", "concept_id": "C0030842", "text": "penicillin"})
        return slots

    def warm_up(self) -> None:
        self.extract("warm-up: aspirin 100 mg daily")

    def triage(self, text: str) -> dict:
        if "chest pain" in text.lower():
            return {"emergency": True, "category": "chest_pain", "message": "Call emergency services now."}
        return {"emergency": False, "category": None, "message": ""}

    def conflicts(self, profile: dict, slots: dict) -> list[dict]:
        allergic = any(a.get("name") == "penicillin" for a in profile.get("allergies", []))
        return [{"kind": "allergy_conflict", "drug": m["name"], "because": "penicillin",
                 "message": f"{m['name']} is a penicillin; the patient is allergic to penicillin."}
                for m in slots.get("medications", []) if allergic and m["name"] == "amoxicillin"]


class FakeKnowledge:
    def __init__(self, documents: list[Passage] | None = None, *, rotate: bool = False):
        self.documents = documents if documents is not None else [
            Passage("kb/1", "Diabetes is treated with diet, exercise and metformin. Metformin is taken with meals.",
                     "Diabetes treatment", "kb/1#0"),
            Passage("kb/2", "Symptoms of diabetes include thirst and frequent urination.", "Diabetes symptoms", "kb/2#0"),
            Passage("kb/3", "Asthma is treated with inhalers.", "Asthma", "kb/3#0"),
            Passage("kb/4", "Amoxicillin is a penicillin antibiotic.", "Amoxicillin", "kb/4#0"),
        ]
        self.rotate = rotate
        self.queries: list[str] = []

    def search(self, query, k, *, profile, expand, docs_budget, bm25, dense):
        self.queries.append(query)
        if self.rotate:
            start = (len(self.queries) - 1) % len(self.documents)
            ordered = self.documents[start:] + self.documents[:start]
            return ordered[: min(k, 2)]
        return self.documents[:k]


class HashEmbedder:
    """Deterministic bag-of-words vectors: identical word sets -> cosine 1."""

    dimension = 64

    def embed(self, texts):
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in text.lower().replace("?", " ").split():
                out[row, int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dimension] += 1.0
            norm = np.linalg.norm(out[row])
            if norm:
                out[row] /= norm
        return out


def make_services(llm: FakeLLM | None = None, *, settings: Settings | None = None, knowledge=None,
                  memory=None, cache: ResponseCache | None = None, clinical=None) -> AgentServices:
    if settings is None:  # control flow: the fake model's text as written (writers: tests of their own)
        settings = Settings()
        settings = settings.model_copy(update={"answer": settings.answer.model_copy(
            update={"writer": "model", "support_check": False})})
    llm = llm or FakeLLM()
    return AgentServices(
        settings=settings, llm=MeteredLLM(llm), tokens=TokenManager(llm),
        clinical=clinical if clinical is not None else FakeClinical(),
        knowledge=knowledge if knowledge is not None else FakeKnowledge(),
        memory=memory if memory is not None else EphemeralMemory(),
        cache=cache if cache is not None else ResponseCache(threshold=settings.cache.similarity_threshold),
        embedder=HashEmbedder(),
    )
