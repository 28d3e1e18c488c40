"""retrieve: hybrid retrieval with profile-aware rewrite and expansion, then compression.

A follow-up without medical words ("and for children?", "그럼 용량은요?") borrows the
medical words of the previous user turn so that retrieval still finds the topic.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import replace

from engine.agent.compression import compress
from engine.agent.services import AgentServices
from engine.agent.state import TurnState
from engine.agent.writer import composer_writes
from engine.passage import Passage
from engine.events import Sources
from engine.text import medical_words

SOURCE_MARK = re.compile(r"^\[(\d+)\]", re.MULTILINE)


def document_hash(doc: Passage) -> str:
    return hashlib.sha256((doc.chunk_id or doc.doc_id).encode("utf-8") + doc.text[:200].encode("utf-8")).hexdigest()[:16]


def prompt_passages(section: str, documents: list[Passage]) -> list[Passage]:
    """Each document with the text the rendered section (`[n] title: text`) gave it."""
    marks = list(SOURCE_MARK.finditer(section))
    passages: dict[int, str] = {}
    for mark, following in zip(marks, [*marks[1:], None]):
        number = int(mark.group(1))
        if not 1 <= number <= len(documents):
            continue
        text = section[mark.end():following.start() if following else len(section)].strip()
        title = documents[number - 1].title
        if title and text.startswith(f"{title}:"):
            text = text[len(title) + 1:].strip()
        passages[number] = text
    return [replace(doc, passage=passages.get(n, "")) for n, doc in enumerate(documents, 1)]


def distinct_passages(documents: list[Passage]) -> list[Passage]:
    """The documents less those whose passage says what a higher-ranked one already says: the
    knowledge base holds some answers twice under two questions (MedQuAD's "What causes Gout ?"
    is 7_SeniorHealth_QA/0000028-2 and -9), and a second copy would take a source number and a
    place among the passages the answer is composed from, and show the clinician the same text twice."""
    kept: list[Passage] = []
    seen: list[str] = []
    for doc in documents:
        text = " ".join(doc.text.split()).lower()
        if text and any(text in other or other in text for other in seen):
            continue
        seen.append(text)
        kept.append(doc)
    return kept


def passages_kept(section: str, documents: list[Passage]) -> int:
    """How many retrieved documents still have text in the prompt after compression (a
    summary of all sources keeps them all)."""
    if section and not SOURCE_MARK.search(section):
        return len(documents)
    return sum(1 for doc in documents if doc.passage)


def retrieval_query(state: TurnState) -> str:
    if state.retrieval_query:
        return state.retrieval_query
    query = state.text
    if not medical_words(query) and state.recent_turns:
        borrowed = sorted(medical_words(state.recent_turns[-1]["user"]))
        if borrowed:
            query = f"{query} {' '.join(borrowed)}"
    return query


def search(services: AgentServices, state: TurnState, query: str) -> list[Passage]:
    if services.knowledge is None:
        return []
    flags = services.flags
    profile = None
    if services.memory is not None and flags.profile_memory and flags.profile_query_rewrite:
        profile = services.memory.profile()
    return services.knowledge.search(query, max(1, state.dynamic_k), profile=profile, expand=flags.query_expansion,
                                     docs_budget=int(state.budget.get("documents", 0)), bm25=flags.bm25,
                                     dense=flags.dense)


def retrieve(state: TurnState, services: AgentServices):
    query = retrieval_query(state)
    decisions = list(state.decisions)
    if state.prefetched is not None:
        documents = state.prefetched
    else:
        documents = search(services, state, query)
        if services.knowledge is None:
            decisions.append("retrieve: no knowledge base is available")
    distinct = distinct_passages(documents)
    if len(distinct) < len(documents):
        decisions.append(f"retrieve: {len(documents) - len(distinct)} passages left out: their text repeats "
                         f"a higher-ranked passage")
        documents = distinct
    searched = getattr(services.knowledge, "searched", None)
    query_en = state.query_en
    if searched is not None and state.prefetched is None:
        translated = searched(query, services.flags.query_expansion)
        if translated != query:
            query_en = translated
        query = translated
    budget = int(state.budget.get("documents", 0))
    llm = None if services.llm_unavailable is not None else services.llm  # None: extractive only
    section, stats = compress(documents, query, budget, services.settings.retrieval.compression, services.tokens,
                              llm, enabled=services.flags.compression)
    documents = prompt_passages(section, documents)
    if composer_writes(services) and documents:
        documents = [replace(d, passage=d.text) for d in documents]
        decisions.append("retrieve: the composer writes the answer: it reads the passages whole (the prompt's "
                         "section stays compressed)")
    stats = {**stats, "k_chosen": int(state.dynamic_k), "documents_retrieved": len(documents),
             "passages_kept": passages_kept(section, documents)}
    sources = [d.source(n) for n, d in enumerate(documents, 1)]
    yield Sources(sources)
    sections = dict(state.context_sections)
    sections["documents"] = section
    sections["tokens"] = {**sections.get("tokens", {}), "documents": services.tokens.count(section)}
    return {"documents": documents, "prefetched": None, "retrieval_query": query, "query_en": query_en,
            "context_sections": sections,
            "document_hashes": [*state.document_hashes, [document_hash(d) for d in documents]],
            "compression": stats, "decisions": decisions}
