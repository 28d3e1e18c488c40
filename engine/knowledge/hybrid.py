"""Hybrid retrieval: BM25 and dense search in parallel, fused with reciprocal rank fusion.

    RRF(d) = sum over retrievers r of  w_r / (k + rank_r(d))      (k = 60, ranks from 1)

Both retrievers rank chunks; results are collapsed to documents (a document's rank is the
rank of its best chunk) before fusion, so a long document with many matching chunks does
not crowd out the others, and benchmarks get document-level rankings. The passage shown for
a document is its chunk ranked first by the search that reads most of the question: for a
question searched as written the dense one (within one page the question's meaning tells
the chunks apart, while BM25 mostly counts the topic's name, which every chunk repeats); for
a translated one the first BM25 sub-query, which carries the concept's other names and the
asked question type, where the dense search reads only the bare question form. A document
that search did not reach shows the next search's best chunk, one found by its metadata
alone its first chunk.

Before searching, the query may be
- rewritten with the patient profile (seed rule: append age, gender, conditions,
  medications), when a profile is given and `profile_query_rewrite` is on;
- expanded with terms from a `QueryExpander` (e.g. Korean -> English concept names), when
  one is plugged in and `query_expansion` is on. A query that is mostly Hangul is embedded
  through its expansion terms only: the English embedding model cannot read Hangul.
- translated (translation.py), when a `QueryTranslator` is plugged in and expansion is on:
  the question's concepts and question type become focused English sub-queries in the
  knowledge base's own question forms, each searched by BM25 and dense, fused with RRF
  together with a metadata list: the documents on the asked focus, those answering the
  asked question type first. The original query stays one of the fused searches unless it
  is mostly Hangul or a clinical message. `Ranking.query` is then the English query searched.
The number of documents is budget-aware: k = min(dynamic_k, docs_budget // avg_doc_tokens).
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence


from engine.knowledge.questions import QuestionIndex
from engine.knowledge.store import KnowledgeBase, chunk_id, document_of
from engine.knowledge.translation import QueryPlan, QueryTranslator, is_clinical_case
from engine.passage import Passage
from engine.protocols import QueryExpander
from engine.text import tokenize

MODES = ("bm25", "dense", "hybrid")
CANDIDATE_CHUNKS = 100
# RRF weight of the metadata list (documents on the asked focus, the asked question type first).
FOCUS_WEIGHT = 2.0
# The other documents on the focus (a second list) weigh this share of it.
TOPIC_SHARE = 0.25
# English questions are searched as written (with concept-name expansion), except clinical
# case messages: translating every English question raised LiveQA recall and nDCG but lowered
# its average score (the first answer's grade) from 1.34 to 1.23-1.27 (README). When switched
# on, the translation weighs less beside the question as written.
ENGLISH_QUESTIONS = False
ENGLISH_SUBQUERY_WEIGHT = 0.25
ENGLISH_FOCUS_WEIGHT = 0.25
# The patient's facts as boosts: the pages for this patient (their group's page on the
# focus, the allergy's page) a list at this share of the focus weight (twice the focus's
# other documents), each page's answer to the asked question or its overview; the other
# medications' and conditions' names reorder, by BM25, only documents already found.
PATIENT_SHARE = 0.5
FACTS_WEIGHT = 0.25
# The first document's passage is its page read whole, up to this many tokens (its best chunk
# always among them; 0: its best chunk only, after the page's opening as for any other).
FIRST_PAGE_TOKENS = 700
MAX_PAGE_CHUNKS = 64


@dataclass
class Ranking:
    """Document-level result of one search: ids best first, with the best chunk of each."""

    doc_ids: list[str]
    chunk_ids: list[str]
    scores: list[float]
    ranks: list[dict[str, int]]
    timings_ms: dict[str, float]
    query: str = ""
    plan: QueryPlan | None = None


def reciprocal_rank_fusion(
    rankings: Mapping[str, Sequence[str]], k: int = 60, weights: Mapping[str, float] | None = None
) -> list[tuple[str, float]]:
    """Fuse ranked id lists: score(d) = sum_r w_r / (k + rank_r(d)), ranks from 1.

    Ties are broken by the best single rank, then by id, so the result is deterministic.
    """
    scores: dict[str, float] = {}
    best: dict[str, int] = {}
    for name, ids in rankings.items():
        w = 1.0 if weights is None else float(weights.get(name, 1.0))
        for rank, doc_id in enumerate(ids, start=1):
            scores[doc_id] = scores.get(doc_id, 0.0) + w / (k + rank)
            best[doc_id] = min(best.get(doc_id, rank), rank)
    return sorted(scores.items(), key=lambda item: (-item[1], best[item[0]], item[0]))


def budget_k(dynamic_k: int, docs_budget: int | None, avg_doc_tokens: float) -> int:
    """min(dynamic_k, docs_budget // avg_doc_tokens), at least 1 when anything fits."""
    if docs_budget is None or avg_doc_tokens <= 0:
        return max(0, dynamic_k)
    fits = int(docs_budget // avg_doc_tokens)
    return max(0, min(dynamic_k, max(fits, 1 if docs_budget > 0 else 0)))


def _names(items: Any) -> list[str]:
    out = []
    for item in items or []:
        if isinstance(item, Mapping):
            if item.get("negated"):
                continue
            name = item.get("name") or item.get("text")
        else:
            name = getattr(item, "name", None) or str(item)
        if name:
            out.append(str(name))
    return out


def profile_rewrite(query: str, profile: Any) -> str:
    """Seed rule: append age, gender, conditions and medications from the profile.

    `profile` is the slot JSON of `chartside extract` (or any mapping/object with
    `demographics`, `conditions`, `medications`); missing parts are skipped.
    """
    if not profile:
        return query
    get = profile.get if isinstance(profile, Mapping) else (lambda key, default=None: getattr(profile, key, default))
    demo = get("demographics", None) or {}
    demo_get = demo.get if isinstance(demo, Mapping) else (lambda key, default=None: getattr(demo, key, default))
    extra: list[str] = []
    age = demo_get("age", None)
    if age not in (None, ""):
        extra.append(f"age {age}")
    elif demo_get("age_group", None):
        extra.append(str(demo_get("age_group")))
    if demo_get("gender", None):
        extra.append(str(demo_get("gender")))
    if demo_get("pregnant", None):
        extra.append("pregnant")
    extra += _names(get("conditions", None))
    extra += _names(get("medications", None))
    seen, terms = set(query.lower().split()), []
    for term in extra:
        if term.lower() not in seen:
            terms.append(term)
            seen.add(term.lower())
    return query if not terms else f"{query} {' '.join(terms)}"


def _mostly_hangul(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return False
    return sum("\uac00" <= c <= "\ud7a3" for c in letters) / len(letters) > 0.5


class HybridRetriever:
    """Searches one KnowledgeBase; safe to share between threads."""

    def __init__(
        self,
        kb: KnowledgeBase,
        *,
        rrf_k: int = 60,
        bm25_weight: float = 1.0,
        dense_weight: float = 1.0,
        expander: QueryExpander | None = None,
        use_bm25: bool = True,
        use_dense: bool = True,
        use_profile: bool = True,
        candidates: int = CANDIDATE_CHUNKS,
        translator: QueryTranslator | None = None,
    ):
        self.kb = kb
        self.rrf_k = rrf_k
        self.weights = {"bm25": bm25_weight, "dense": dense_weight}
        self.expander = expander
        self.use_bm25 = use_bm25
        self.use_dense = use_dense
        self.use_profile = use_profile
        self.candidates = candidates
        self.translator = translator
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dense-query")

    @classmethod
    def from_settings(cls, kb: KnowledgeBase, settings, expander: QueryExpander | None = None,
                      translator: QueryTranslator | None = None) -> "HybridRetriever":
        r, f = settings.retrieval, settings.features
        return cls(
            kb, rrf_k=r.rrf_k, bm25_weight=r.bm25_weight, dense_weight=r.dense_weight,
            expander=expander if f.query_expansion else None, use_bm25=f.bm25, use_dense=f.dense,
            use_profile=f.profile_query_rewrite, translator=translator if f.query_expansion else None,
        )

    def close(self) -> None:
        self._pool.shutdown(wait=False)

    # --- query preparation ------------------------------------------------------------
    def prepare(self, query: str, *, profile: Any = None, expand: bool = True) -> tuple[str, str]:
        """(BM25 text, dense text) after profile rewrite and expansion."""
        query = profile_rewrite(query, profile) if profile and self.use_profile else query
        terms: list[str] = []
        if expand and self.expander is not None:
            terms = [t for t in self.expander.expand(query) if t and t.strip()]
        joined = " ".join(terms)
        bm25_text = f"{query} {joined}".strip()
        if _mostly_hangul(query):
            # The embedder reads English: Korean words it would match only by chance (rare-disease
            # pages for "눈에 락스가 튀었어요"), so it is given the Latin words and English terms
            # alone, and nothing when there are none.
            latin = " ".join(w for w in query.split() if not _mostly_hangul(w))
            return bm25_text, f"{latin} {joined}".strip()
        return bm25_text, bm25_text

    # --- searching --------------------------------------------------------------------
    def _dense_hits(self, text: str, n: int) -> tuple[list[tuple[str, float]], float]:
        start = time.perf_counter()
        # A one-text call is a query (the embedder may memoise it for the cache and memory).
        vector = self.kb.embedder.embed([text])[0]
        embed_ms = (time.perf_counter() - start) * 1000
        return self.kb.search_dense(vector, n), embed_ms

    @staticmethod
    def _collapse(hits: Iterable[tuple[str, float]]) -> tuple[list[str], dict[str, tuple[str, float]]]:
        """Chunk hits -> document ranking; each document keeps its best chunk."""
        order: list[str] = []
        best: dict[str, tuple[str, float]] = {}
        for chunk, score in hits:
            doc = document_of(chunk)
            if doc not in best:
                best[doc] = (chunk, float(score))
                order.append(doc)
        return order, best

    @staticmethod
    def _best_chunks(hits: Mapping[str, Sequence[tuple[str, float]]]) -> dict[str, str]:
        """Each document's best chunk in the first list (in `hits`' order) that has one."""
        best: dict[str, str] = {}
        for ranked in hits.values():
            for doc_id, (chunk, _) in HybridRetriever._collapse(ranked)[1].items():
                best.setdefault(doc_id, chunk)
        return best

    def plan(self, query: str) -> QueryPlan | None:
        """The translated English sub-queries searched for `query`, or None when it is
        searched as written (no translator, no concept found, an English question unless it asks
        about a medicine the knowledge base has no page on: that one is searched by its class's page)."""
        if self.translator is None or not query.strip():
            return None
        if _mostly_hangul(query) or ENGLISH_QUESTIONS or is_clinical_case(query):
            return self.translator.plan(query, self.kb)
        plan = self.translator.plan(query, self.kb)
        return plan if plan is not None and plan.by_class else None  # else searched as written

    def rank(self, query: str, *, mode: str = "hybrid", k: int = 10, profile: Any = None,
             expand: bool = True) -> Ranking:
        """Document-level ranking for `query` (benchmarks use this; `search` adds text)."""
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}")
        if expand and self.translator is not None:
            t0 = time.perf_counter()
            plan = self.plan(query)
            translate_ms = (time.perf_counter() - t0) * 1000
            if plan is not None:
                ranking = self._rank_plan(plan, query, mode=mode, k=k)
                ranking.timings_ms["translate_ms"] = translate_ms
                ranking.timings_ms["total_ms"] = (time.perf_counter() - t0) * 1000
                return ranking
        return self._rank_one(query, mode=mode, k=k, profile=profile, expand=expand)

    def _rank_plan(self, plan: QueryPlan, query: str, *, mode: str, k: int) -> Ranking:
        """Each sub-query searched by BM25, the question embedded once (a short English query
        as written; a Korean one or a clinical message through its first question forms),
        fused with the metadata list by RRF. One embedding per query keeps translated queries
        as fast as plain ones."""
        timings: dict[str, float] = {}
        hangul = _mostly_hangul(query)
        focus_only = hangul or plan.message or plan.by_class
        english_weight = 1.0 if focus_only else ENGLISH_SUBQUERY_WEIGHT
        want_bm25 = mode in ("bm25", "hybrid") and self.use_bm25 and self.kb.size > 0
        want_dense = mode in ("dense", "hybrid") and self.use_dense and self.kb.size > 0
        n = max(self.candidates, k * 4)
        dense_text = " ".join(s.text for s in plan.subqueries[:2]) if focus_only else query
        future = self._pool.submit(self._dense_hits, dense_text, n) if want_dense else None
        lists: dict[str, list[str]] = {}
        weights: dict[str, float] = {}
        hits: dict[str, list[tuple[str, float]]] = {}
        if want_bm25:
            t = time.perf_counter()
            searches = [(s.bm25_text, s.weight * english_weight) for s in plan.subqueries]
            if not focus_only:
                searches.insert(0, (query, 1.0))
            for i, (text, weight) in enumerate(searches):
                name = f"bm25:{i}"
                hits[name] = self.kb.search_bm25(tokenize(text), n)
                lists[name] = self._collapse(hits[name])[0]
                weights[name] = self.weights["bm25"] * weight
            timings["bm25_ms"] = (time.perf_counter() - t) * 1000
        if future is not None:
            hits["dense"], timings["embed_ms"] = future.result()
            lists["dense"] = self._collapse(hits["dense"])[0]
            weights["dense"] = self.weights["dense"]
        index = self.translator.index if self.translator is not None else QuestionIndex()
        focus_docs = [d for key in plan.focus_keys for d in index.by_focus.get(key, [])]
        weight = FOCUS_WEIGHT if focus_only else ENGLISH_FOCUS_WEIGHT
        if focus_docs:
            asked = [d.doc_id for d in focus_docs if d.qtype in plan.qtypes]
            asked += [d.doc_id for q in plan.related_qtypes for d in focus_docs if d.qtype == q]
            rest = [d.doc_id for d in focus_docs if d.doc_id not in set(asked)]
            if asked:
                lists["focus"], weights["focus"] = list(dict.fromkeys(asked)), weight
            if rest:
                lists["topic"], weights["topic"] = list(dict.fromkeys(rest)), weight * TOPIC_SHARE
        patient_docs = [d for key in plan.boost_keys for d in index.by_focus.get(key, [])]
        if patient_docs:  # each page's answer to the asked question, else its overview
            ordered = [d.doc_id for d in patient_docs if d.qtype in plan.qtypes]
            ordered += [d.doc_id for d in patient_docs if d.qtype in (None, "information")]
            if ordered:
                lists["patient"], weights["patient"] = list(dict.fromkeys(ordered)), weight * PATIENT_SHARE
        if plan.facts and want_bm25:
            found = {d for ids in lists.values() for d in ids}
            facts_hits = self.kb.search_bm25(tokenize(" ".join(plan.facts)), n)
            kept = [d for d in self._collapse(facts_hits)[0] if d in found]
            if kept:
                lists["facts"], weights["facts"] = kept, self.weights["bm25"] * FACTS_WEIGHT
                hits["facts"] = [h for h in facts_hits if document_of(h[0]) in found]
        fused = reciprocal_rank_fusion(lists, self.rrf_k, weights)[:k]
        chunk_of = self._best_chunks(hits)
        missing = [d for d, _ in fused if d not in chunk_of]
        if missing:
            chunk_of.update(self._first_chunks(missing))
        fused = [(d, s) for d, s in fused if d in chunk_of]
        positions = {name: {d: i + 1 for i, d in enumerate(ids)} for name, ids in lists.items()}
        ranks = [{name: pos[d] for name, pos in positions.items() if d in pos} for d, _ in fused]
        return Ranking([d for d, _ in fused], [chunk_of[d] for d, _ in fused], [s for _, s in fused], ranks,
                       timings, plan.english, plan)

    def _first_chunks(self, doc_ids: list[str]) -> dict[str, str]:
        """The first chunk of each document (a document found by its metadata alone)."""
        return {c.doc_id: c.chunk_id for c in self.kb.chunks([chunk_id(d, 0) for d in doc_ids])}

    def candidate_lists(self, query: str, k: int = 10) -> dict[str, list[str]]:
        """The BM25 and dense document lists that `rank(query, mode="hybrid", k=k,
        expand=False)` fuses, before fusion: re-fusing them with other RRF weights gives
        that ranking at those weights (how `bench liveqa --choose-rrf-weight` compares
        weights without searching again)."""
        n = max(self.candidates, k * 4)
        lists: dict[str, list[str]] = {}
        if self.use_bm25 and self.kb.size > 0:
            lists["bm25"] = self._collapse(self.kb.search_bm25(tokenize(query), n))[0]
        if self.use_dense and self.kb.size > 0:
            lists["dense"] = self._collapse(self._dense_hits(query, n)[0])[0]
        return lists

    def _rank_one(self, query: str, *, mode: str, k: int, profile: Any = None, expand: bool = True) -> Ranking:
        t0 = time.perf_counter()
        bm25_query, dense_query = self.prepare(query, profile=profile, expand=expand)
        want_bm25 = mode in ("bm25", "hybrid") and self.use_bm25 and self.kb.size > 0
        want_dense = mode in ("dense", "hybrid") and self.use_dense and self.kb.size > 0 and bool(dense_query)
        n = max(self.candidates, k * 4)
        timings: dict[str, float] = {}
        future = self._pool.submit(self._dense_hits, dense_query, n) if want_dense else None
        lists: dict[str, list[str]] = {}
        best: dict[str, dict[str, tuple[str, float]]] = {}
        hits: dict[str, list[tuple[str, float]]] = {}
        if want_bm25:
            t = time.perf_counter()
            hits["bm25"] = self.kb.search_bm25(tokenize(bm25_query), n)
            lists["bm25"], best["bm25"] = self._collapse(hits["bm25"])
            timings["bm25_ms"] = (time.perf_counter() - t) * 1000
        if future is not None:
            hits["dense"], timings["embed_ms"] = future.result()
            lists["dense"], best["dense"] = self._collapse(hits["dense"])
        if not lists:
            doc_ids, chunk_ids, scores, ranks = [], [], [], []
        elif len(lists) == 1:
            name = next(iter(lists))
            doc_ids = lists[name][:k]
            chunk_ids = [best[name][d][0] for d in doc_ids]
            scores = [best[name][d][1] for d in doc_ids]
            ranks = [{name: i + 1} for i in range(len(doc_ids))]
        else:
            fused = reciprocal_rank_fusion(lists, self.rrf_k, self.weights)[:k]
            chunk_of = self._best_chunks({"dense": hits["dense"], "bm25": hits["bm25"]})
            positions = {name: {d: i + 1 for i, d in enumerate(ids)} for name, ids in lists.items()}
            doc_ids = [d for d, _ in fused]
            chunk_ids = [chunk_of[d] for d in doc_ids]
            scores = [score for _, score in fused]
            ranks = [{name: pos[d] for name, pos in positions.items() if d in pos} for d in doc_ids]
        timings["total_ms"] = (time.perf_counter() - t0) * 1000
        return Ranking(doc_ids, chunk_ids, scores, ranks, timings, bm25_query)

    def search(self, query: str, k: int = 8, *, mode: str = "hybrid", profile: Any = None,
               expand: bool = True, docs_budget: int | None = None) -> list[Passage]:
        """The best `k` documents (budget-aware), each with its best chunk's text (after the page's
        opening, `_openings`) and source."""
        k = budget_k(k, docs_budget, self.kb.avg_chunk_tokens)
        if k <= 0:
            return []
        ranking = self.rank(query, mode=mode, k=k, profile=profile, expand=expand)
        openings = self._openings(ranking)
        chunks = {c.chunk_id: c for c in self.kb.chunks([*ranking.chunk_ids, *openings.values()])}
        first_page = self._first_page(ranking)
        passages = []
        for cid, score, r in zip(ranking.chunk_ids, ranking.scores, ranking.ranks):
            if (c := chunks.get(cid)) is None:  # removed meanwhile: skip
                continue
            text, tokens = c.text, c.tokens
            if first_page and c.doc_id == ranking.doc_ids[0]:
                text, tokens = "\n\n".join(p.text for p in first_page), sum(p.tokens for p in first_page)
            elif (opening := chunks.get(openings.get(c.doc_id, ""))) is not None:
                text, tokens = f"{opening.text}\n\n{c.text}", opening.tokens + c.tokens
            passages.append(Passage(c.doc_id, text, c.title, c.chunk_id, score, c.url, c.licence, c.attribution,
                                    ranks=r, source_name=c.source, tokens=tokens))
        return passages

    def _first_page(self, ranking: Ranking) -> list:
        """The first document's chunks in page order, from its start, within FIRST_PAGE_TOKENS;
        its best chunk takes the last place when it lies further on. The search picks one chunk
        per page, and a page that answers the question often says it in another: the choking
        page's best chunk for "cannot speak, what should I do?" is what to do once the person
        faints, its chunk before says to give back blows and abdominal thrusts."""
        if not FIRST_PAGE_TOKENS or not ranking.doc_ids:
            return []
        doc, best = ranking.doc_ids[0], ranking.chunk_ids[0]
        page = self.kb.chunks([chunk_id(doc, n) for n in range(MAX_PAGE_CHUNKS)])
        found = [c for c in page if c.chunk_id == best]
        if not found:
            return []
        budget = FIRST_PAGE_TOKENS - found[0].tokens
        kept = []
        for chunk in page:
            if chunk.chunk_id != best:
                if chunk.tokens > budget:
                    break
                budget -= chunk.tokens
            kept.append(chunk)
        if found[0] not in kept:
            kept.append(found[0])
        return kept if len(kept) > 1 else []

    @staticmethod
    def _openings(ranking: Ranking) -> dict[str, str]:
        """The first chunk of each page that answers the asked question (the metadata's "focus"
        list) whose best chunk is a later one: such a page opens with its answer ("The signs
        and symptoms of pneumonia vary …; see your doctor promptly if you have a high fever …")
        while a sub-query's words may pick the chunk after it (the complications of pneumonia),
        so its passage reads both."""
        return {d: chunk_id(d, 0) for d, cid, r in zip(ranking.doc_ids, ranking.chunk_ids, ranking.ranks)
                if "focus" in r and cid != chunk_id(d, 0)}
