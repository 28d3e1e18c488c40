"""Running the team's conversation set through the engine and scoring every turn.

Shared by `chartside eval ablation` and `chartside bench agent`. Each conversation runs
against a fresh patient in a throw-away encrypted store; every turn is scored after the
fact with the heuristic judge (and, optionally, the LLM judge) on the documents the turn
actually saw, so scenarios are compared by the same yardstick whatever their own
pipeline did. The heuristic judge is also the score self-refine selects drafts by, so
the ablation grades question turns with a ReferenceGrader as well: the written
reference facts of resources/eval/conversation_nuggets.jsonl and the answer bench's
support re-check, which the pipeline does not select by.
"""

from __future__ import annotations

import json
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from engine.agent.judge import heuristic_judgement, llm_judgement
from engine.errors import ModelOutputError
from engine.events import Done
from engine.paths import resources_dir


def load_conversations(path: Path | None = None, limit: int | None = None) -> list[dict]:
    path = path or resources_dir() / "eval" / "conversations.jsonl"
    conversations = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if limit:
        english = [c for c in conversations if c["language"] == "en"]
        korean = [c for c in conversations if c["language"] == "ko"]
        mixed = [c for pair in zip(english, korean) for c in pair]
        conversations = mixed[:limit]
    return conversations


class RecordingKnowledge:
    """Wraps the knowledge service to remember the text of every chunk it returned.

    Every other attribute is the service's own: the answer writer reaches the sentence
    embedder through `knowledge.retriever.kb` when the response cache is off, and a
    wrapper that hid it would leave the composer of the cache-less scenarios without one.
    """

    def __init__(self, inner):
        self.inner = inner
        self.texts: dict[str, str] = {}

    def __getattr__(self, name):
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)

    def search(self, query, k, **kwargs):
        documents = self.inner.search(query, k, **kwargs)
        for doc in documents:
            self.texts[doc.chunk_id or doc.doc_id] = doc.text
        return documents


@dataclass
class TurnRecord:
    conversation: str
    language: str
    index: int
    kind: str
    result: dict
    quality: float
    grounding: float
    judge_quality: float | None
    extra: dict = field(default_factory=dict)

    @property
    def trace(self) -> dict:
        return self.result["trace"]

    def as_dict(self) -> dict:
        trace = self.trace
        return {"conversation": self.conversation, "language": self.language, "turn": self.index, "kind": self.kind,
                "quality": self.quality, "grounding": self.grounding, "judge_quality": self.judge_quality,
                "llm_calls": trace.get("llm_calls", 0), "prompt_tokens": trace.get("llm_prompt_tokens_total", 0),
                "generation_prompt_tokens": trace.get("prompt_tokens", 0),
                "latency_ms": trace["timings_ms"].get("total", 0.0),
                "pipeline_ms": trace["timings_ms"].get("pipeline", 0.0), "cache_hit": trace.get("cache_hit", False),
                "retrieval_skipped": trace.get("retrieval_skipped", False), "iterations": trace.get("iterations", 0),
                "alerts": [a.get("kind") for a in self.result.get("alerts", [])], **self.extra}


SMALL_TALK_KINDS = ("greeting", "acknowledgement")


def score_turn(engine, text: str, kind: str, result: dict, texts: dict[str, str], *,
               use_llm_judge: bool) -> tuple[float, float, float | None]:
    """(heuristic quality, heuristic grounding, LLM-judge quality or None) of a turn's final answer.

    Small talk (by the conversation set's label, the same in every scenario) scores 1.0
    when answered at all, whether the pipeline recognised it or sent it to the model.
    """
    trace = result["trace"]
    if kind in SMALL_TALK_KINDS:
        return (1.0, 1.0, None) if result["answer"].strip() else (0.0, 0.0, None)
    sources = [texts.get(s.get("chunk_id") or s.get("doc_id"), "") for s in result.get("sources", [])]
    sources = [s for s in sources if s]
    judged = heuristic_judgement(text, result["answer"], sources, alerts=result.get("alerts", []),
                                 profile_text=trace.get("context_profile", ""))
    judge_quality = None
    if use_llm_judge:
        try:
            judge_quality = llm_judgement(engine.llm, text, result["answer"], "\n".join(sources)[:2400])["overall"]
        except ModelOutputError:
            judge_quality = None
    return judged["overall"], judged["grounding"], judge_quality


def load_references(path: Path | None = None) -> dict[tuple[str, int], dict]:
    """(conversation id, turn number) -> the turn's reference facts, forbidden claims and reference answer."""
    path = path or resources_dir() / "eval" / "conversation_nuggets.jsonl"
    items = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return {(item["conversation"], item["turn"]): item for item in items}


class ReferenceGrader:
    """Grades a question turn's final answer by measures the pipeline does not select by.

    Nugget recall and wrong claims against the turn's written reference facts; support
    rate, citation precision and unsupported numbers from the answer bench's support
    re-check (a checker of its own, against the turn's sources, or for a turn without
    sources the passages the knowledge base gives for the question); ROUGE-L F1 and
    embedding cosine against the written reference answer where there is one. Only
    these numbers are kept, never the answer text.
    """

    def __init__(self, engine, references: dict[tuple[str, int], dict] | None = None):
        from rouge_score import rouge_scorer

        from engine.agent.support import SupportChecker
        from engine.agent.writer import concept_reader

        self.engine = engine
        self.references = load_references() if references is None else references
        self.checker = SupportChecker(engine.embedder, threshold=engine.settings.answer.support_threshold)
        self.checker.concepts = concept_reader(engine.turns.services(None, engine.settings))
        self.rouge = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)

    def grade(self, conversation: str, turn: int, text: str, result: dict) -> dict:
        """The turn's metrics (empty for a turn without reference facts)."""
        from engine.bench.answers import score_support, turn_documents
        from engine.bench.grading import nugget_recall, wrong_claim

        reference = self.references.get((conversation, turn))
        if reference is None:
            return {}
        answer = result.get("answer", "")
        documents = turn_documents(result, self.engine, text, self.engine.kb.search)
        support = score_support(result, documents, self.checker)
        out = {"fact": reference.get("fact"), "nugget_recall": round(nugget_recall(answer, reference["nuggets"]), 4),
               "wrong_claim": float(wrong_claim(answer, reference.get("forbidden", []))),
               **{f"support_{key}": value for key, value in support.items()}}
        if reference.get("reference"):
            out["rouge_l"] = round(float(self.rouge.score(reference["reference"], answer)["rougeL"].fmeasure), 4)
            out["reference_cosine"] = self._cosine(answer, reference["reference"])
        return out

    def _cosine(self, answer: str, reference: str) -> float | None:
        import numpy as np

        if self.engine.embedder is None or not answer.strip():
            return None if self.engine.embedder is None else 0.0
        vectors = np.asarray(self.engine.embedder.embed([answer, reference]), dtype=np.float32)
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
        return round(float(vectors[0] @ vectors[1]), 4)


@contextmanager
def recording_knowledge(engine):
    """Wrap the engine's knowledge service in a RecordingKnowledge for the block (None when absent)."""
    knowledge = engine.kb.search
    recorder = RecordingKnowledge(knowledge) if knowledge is not None else None
    engine.kb.use_search(recorder)
    try:
        yield recorder
    finally:
        engine.kb.use_search(knowledge)


def run_conversation(engine, conversation: dict, settings, recorder: RecordingKnowledge | None, *,
                     use_llm_judge: bool = False, grader: ReferenceGrader | None = None) -> list[TurnRecord]:
    """One conversation as a fresh patient in a new session; one scored record per turn
    (with the grader's metrics when a grader is given)."""
    patient = engine.patients.create_patient(f"eval {conversation['id']}")
    session = engine.patients.new_session(patient["id"])
    records = []
    for index, turn in enumerate(conversation["turns"], 1):
        result = {}
        for event in engine.ask(turn["user"], patient_id=patient["id"], session_id=session["id"], settings=settings):
            if isinstance(event, Done):
                result = event.result
        quality, grounding, judge_quality = score_turn(engine, turn["user"], turn.get("kind", ""), result,
                                                       recorder.texts if recorder else {},
                                                       use_llm_judge=use_llm_judge)
        extra = grader.grade(conversation["id"], index, turn["user"], result) if grader is not None else {}
        records.append(TurnRecord(conversation["id"], conversation["language"], index, turn.get("kind", ""),
                                  result, quality, grounding, judge_quality, extra))
    return records


def run_conversations(engine, conversations: list[dict], settings, *, use_llm_judge: bool = False,
                      progress=None) -> list[TurnRecord]:
    """Every conversation as a fresh patient; returns one record per turn."""
    records: list[TurnRecord] = []
    with recording_knowledge(engine) as recorder:
        for number, conversation in enumerate(conversations, 1):
            records += run_conversation(engine, conversation, settings, recorder, use_llm_judge=use_llm_judge)
            if progress is not None:
                progress(number, len(conversations), conversation["id"])
    return records


def now_stamp() -> str:
    return time.strftime("%Y%m%d-%H%M%S")


def topic_terms(conversations: list[dict]) -> set[str]:
    """English medical words of the set's English turns: what the subset knowledge base must cover."""
    from engine.text import medical_words

    terms: set[str] = set()
    for conversation in conversations:
        if conversation["language"] == "en":
            for turn in conversation["turns"]:
                terms |= {w for w in medical_words(turn["user"]) if w.isascii() and len(w) > 3}
    return terms


def subset_knowledge_base(settings, folder: Path, limit: int, embedder, progress=None):
    """A knowledge base of the default corpus's documents whose titles name the whole set's topics.

    Built from ../shared/data at run time (never committed) and cached in `folder`; for
    evaluation runs on machines where the full default index is not built.
    """
    import hashlib

    from engine.knowledge import IndexParams, KnowledgeBase
    from engine.knowledge.corpus import load_default_documents
    from engine.text import tokenize

    terms = topic_terms(load_conversations())
    scored = []
    for doc in load_default_documents():
        title_words = set(tokenize(doc.title))
        hits = sum(1 for term in terms if term in title_words or term in doc.title.lower())
        if hits:
            scored.append((-hits, doc.doc_id, doc))
    chosen = [doc for _hits, _id, doc in sorted(scored, key=lambda item: (item[0], item[1]))[:limit]]
    version = hashlib.sha256("\n".join(d.doc_id for d in chosen).encode()).hexdigest()[:16]
    kb = KnowledgeBase(folder, embedder, IndexParams.from_settings(settings),
                       corpus_source=lambda: list(chosen), corpus_version=lambda: f"eval-subset-{version}")
    return kb.open(build=True, progress=progress)


def prepare_knowledge(engine, choice: str, limit: int) -> str:
    """Point `engine` at the knowledge base for an evaluation run; returns its description.

    choice: "default" (the built default index, or an error), "subset" (a topic subset
    of the default corpus, built once and cached), "auto" (default when built, else subset).
    """
    import sys

    from engine.errors import KnowledgeIndexError
    from engine.settings import data_dir

    if choice in ("default", "auto"):
        try:
            base = engine.kb.base
            engine.kb.use_knowledge_base(base)
            return f"default knowledge base ({base.size} chunks)"
        except KnowledgeIndexError:
            if choice == "default":
                raise
    folder = data_dir() / "eval" / f"kb-subset-{limit}"

    def report(p) -> None:
        print(f"  subset index {p.stage}: {p.done}/{p.total}", file=sys.stderr, flush=True)

    kb = subset_knowledge_base(engine.settings, folder, limit, engine.embedder, progress=report)
    engine.kb.use_knowledge_base(kb)
    return (f"topic subset of the default corpus: {sum(kb.document_count().values())} documents, {kb.size} chunks "
            f"(titles naming the conversation set's topics; the full index was not built)")
