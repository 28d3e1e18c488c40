"""`chartside bench answers [--json] [--set FILE] [--mode MODE|all]`: the answer itself, measured.

Modes: `llm` (plain chat), `agent` (the model writes from the sources, as before the
support check), `composer` (sentences of the sources, each cited), `composer+model`
(the composer with a model-phrased lead that the support check must back).
Every question runs as its own one-turn conversation (fresh scratch memory, response
cache off), with the real model, embedder, clinical pack and knowledge base.

Per mode:
- `nugget_recall`: share of a question's reference-fact groups met (a group is met when
  any of its phrases occurs in the answer, case-insensitive; an English phrase not inside a
  word that negates it, a short one at a word's start), averaged over questions, and per language;
  `nugget_recall_quoted` the same over the answer's claims alone (its sourced sentences: not the
  lead, the Korean glance line nor the lines that name what unquoted sentences say);
- `wrong_claim_rate`: share of answers stating a forbidden phrase (not under a denial:
  "do not drive yourself" is no claim to drive yourself);
- `support_rate`: share of the answer's sentences (the deterministic alerts, profile
  facts, leads and notices excluded) that the support check backs with a sentence of the
  turn's sources (for `llm`, which has none, the passages retrieved for the question);
- `citation_precision`: share of cited sentences whose cited passage backs them;
- `unsupported_numbers`: numbers in answer sentences that occur in no source passage;
- `hangul_share_ko`: Hangul syllables / (Hangul + Latin letters) of the Korean answers, their
  mean; `hangul_min_ko` the lowest single answer's, and `hangul_below_target_ko` the share of
  Korean answers under HANGUL_TARGET (the target is per answer: a reader reads one answer);
- `p50_ms`, `p95_ms` (whole turn), with the first answer of a mode (cold) apart.
Without `--set`: the team's sets (resources/eval/answers, each reported apart; its README says which were
looked at while building and from when: the `dev` sets from the start, the older held-out sets after
they had been reported, `heldout6` to `heldout12` never) and LiveQA-Med 2017 questions answered with each
question's own judged answers removed from the search results (leave-question-out),
scored by ROUGE-L F1 and embedding cosine against its best-graded judged answers.
"""

from __future__ import annotations

import gzip
import json
import math
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from engine.bench.answer_gaps import GapCounts, TopicPages, standings
from engine.bench.grading import nugget_recall, wrong_claim
from engine.paths import resources_dir, shared_data_dir
from engine.text import hangul_share

MODES = ("llm", "agent", "composer", "composer+model")

# Korean answers should be at least this Hangul by letters. Written here, not imported from the
# composer, so that the bench grades against the target and not against the engine's own setting.
HANGUL_TARGET = 0.4
SETS = ("dev", "dev2", "dev3", "heldout", "heldout2", "heldout3", "heldout4", "heldout5", "heldout6", "heldout7",
        "heldout8", "heldout9", "heldout10", "heldout11", "heldout12")
SOURCE_CHECK_K = 5


def register(kinds) -> None:
    parser = kinds.add_parser("answers", help="answer quality: nuggets, wrong claims, support, citations, Hangul, latency")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--set", type=Path, default=None, help="JSONL question set (default: the team's sets + LiveQA)")
    parser.add_argument("--mode", default="all", choices=[*MODES, "all"])
    parser.add_argument("--splits", default=",".join(SETS),
                        help="without --set: which of the team's sets to run, comma-separated ('' = none, e.g. "
                             "LiveQA alone, so that the held-out set is not run while building)")
    parser.add_argument("--liveqa", type=int, default=16, help="LiveQA questions (0 = skip), spread over the 104")
    parser.add_argument("--limit", type=int, default=0, help="only the first N questions of each set (0 = all)")
    parser.add_argument("--max-answer-tokens", type=int, default=160, help="cap model answers (0: the settings' cap)")
    parser.add_argument("--out", type=Path, default=None, help="also write the JSON here")
    parser.add_argument("--gaps", action="store_true",
                        help="also say where each missed reference fact stands: in a passage the turn read, a later "
                             "one, another knowledge-base page on the topic, or none (counts only; "
                             "engine/bench/answer_gaps.py)")
    parser.set_defaults(func=run)


# --- scoring ------------------------------------------------------------------------------

def percentile(values: list[float], fraction: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[max(0, math.ceil(fraction * len(ordered)) - 1)], 1)


def _mean(values) -> float | None:
    values = [v for v in values if v is not None]
    return round(statistics.fmean(values), 4) if values else None


@dataclass
class SourceDoc:
    """A source as the support check reads it (the passage the prompt carried)."""

    doc_id: str
    text: str
    passage: str = ""


def answer_claims(result: dict) -> list[tuple[str, list[int]]]:
    """(sentence, cited numbers) of what the answer asserts: the sourced sentences of a turn
    that carries sentence records, else every sentence of the answer text."""
    from engine.agent.support import answer_sentences, cited, strip_citations

    records = [s for s in result.get("sentences") or [] if s.get("kind") == "sourced"]
    if result.get("sentences"):
        return [(r["text"], [r["source"]] if r.get("source") else []) for r in records]
    return [(strip_citations(s), cited(s)) for s in answer_sentences(result.get("answer", ""))]


def score_support(result: dict, documents: list, checker) -> dict:
    """Support, citation precision and unsupported numbers of one answer against its sources."""
    from engine.agent.support import evidence_from
    from engine.text import numbers

    claims = [(t, c) for t, c in answer_claims(result) if t.strip()]
    evidence = evidence_from(documents)
    if not claims:
        return {"sentences": 0, "supported": 0, "cited": 0, "cited_ok": 0, "unsupported_numbers": 0}
    vectors = checker.vectors([e.text for e in evidence]) if evidence else None
    checked = checker.check([t for t, _ in claims], evidence, vectors)
    cited_ok = cited_total = 0
    for (text, numbers_cited), verdict in zip(claims, checked):
        if not numbers_cited:
            continue
        cited_total += 1
        if verdict.source is not None and verdict.source in numbers_cited:
            cited_ok += 1
        elif verdict.source is not None or evidence:
            within = checker.check([text], evidence, vectors, within=numbers_cited)[0]
            cited_ok += within.source is not None
    source_numbers = set().union(*(numbers(e.text) for e in evidence)) if evidence else set()
    unsupported = sum(len(numbers(t) - source_numbers) for t, _ in claims)
    return {"sentences": len(claims), "supported": sum(1 for v in checked if v.source is not None),
            "cited": cited_total, "cited_ok": cited_ok, "unsupported_numbers": unsupported}


# --- running ------------------------------------------------------------------------------

class LeaveOut:
    """The knowledge service with some documents removed from every result: the search runs
    without the document budget's cap, the excluded documents are dropped, and the cap is
    applied to what is left (so k documents still come back)."""

    def __init__(self, inner, excluded: set[str]):
        self.inner = inner
        self.excluded = excluded
        # The composer and the support check find the sentence embedder through the
        # knowledge service's retriever when the turn has none of its own (response cache
        # off, as in this bench); without it they had no embedder and quoted nothing.
        self.retriever = getattr(inner, "retriever", None)

    def search(self, query, k, *, docs_budget: int = 0, **kwargs):
        from engine.knowledge.hybrid import budget_k

        kb = getattr(getattr(self.inner, "retriever", None), "kb", None)
        wanted = budget_k(k, docs_budget or None, kb.avg_chunk_tokens) if kb is not None and docs_budget else k
        hits = self.inner.search(query, wanted + len(self.excluded) + 2, docs_budget=0, **kwargs)
        kept = [h for h in hits if h.doc_id not in self.excluded and h.doc_id.rpartition("#")[0] not in self.excluded]
        return kept[:wanted]

    def plan(self, query: str):
        plan = getattr(self.inner, "plan", None)
        return plan(query) if plan is not None else None

    def boilerplate(self) -> frozenset[str]:
        boilerplate = getattr(self.inner, "boilerplate", None)
        return boilerplate() if boilerplate is not None else frozenset()


def mode_settings(base, mode: str):
    answer = {"llm": {}, "agent": {"writer": "model", "support_check": False},
              "composer": {"writer": "composer"}, "composer+model": {"writer": "composer+model"}}[mode]
    settings = base.with_flags({"response_cache": False})
    settings = settings.model_copy(update={"mode": "llm" if mode == "llm" else "agent",
                                           "answer": settings.answer.model_copy(update=answer)})
    return settings


@dataclass
class Row:
    id: str
    lang: str
    mode: str
    ms: float
    nuggets: float | None = None
    quoted: float | None = None
    wrong: bool | None = None
    hangul: float | None = None
    rouge_l: float | None = None
    cosine: float | None = None
    support: dict = field(default_factory=dict)
    answer: str = ""
    gaps: list[str] = field(default_factory=list)


def ask_once(engine, model_name: str, text: str, settings, knowledge=None) -> dict:
    from engine.agent.ephemeral import EphemeralMemory
    from engine.agent.pipeline import run_turn
    from engine.events import Done

    services = engine.turns.services(EphemeralMemory(), settings)
    if knowledge is not None:
        services.knowledge = knowledge
    mode = "llm" if settings.mode == "llm" else "agent"
    result: dict = {}
    for event in run_turn(text, services, mode=mode, model=model_name):
        if isinstance(event, Done):
            result = event.result
    return result


def turn_documents(result: dict, engine, text: str, knowledge) -> list:
    """The sources the answer is checked against: the turn's own, or for a turn without
    retrieval (`llm` mode) the passages the knowledge base gives for the question."""
    sources = result.get("sources") or []
    if sources:
        return [SourceDoc(s.get("doc_id", ""), s.get("passage", ""), s.get("passage", "")) for s in sources]
    if knowledge is None:
        return []
    hits = knowledge.search(text, SOURCE_CHECK_K, profile=None, expand=True, docs_budget=0, bm25=True, dense=True)
    return [SourceDoc(h.doc_id, h.text) for h in hits]


def summarise(rows: list[Row]) -> dict:
    ko = [r for r in rows if r.lang == "ko"]
    en = [r for r in rows if r.lang == "en"]
    sentences = sum(r.support.get("sentences", 0) for r in rows)
    cited = sum(r.support.get("cited", 0) for r in rows)
    times = [r.ms for r in rows]
    out = {
        "answers": len(rows),
        "nugget_recall": _mean(r.nuggets for r in rows),
        "nugget_recall_en": _mean(r.nuggets for r in en),
        "nugget_recall_ko": _mean(r.nuggets for r in ko),
        "nugget_recall_quoted": _mean(r.quoted for r in rows),
        "nugget_recall_quoted_en": _mean(r.quoted for r in en),
        "nugget_recall_quoted_ko": _mean(r.quoted for r in ko),
        "wrong_claim_rate": _mean(float(r.wrong) for r in rows if r.wrong is not None),
        "support_rate": round(sum(r.support.get("supported", 0) for r in rows) / sentences, 4) if sentences else None,
        "citation_precision": round(sum(r.support.get("cited_ok", 0) for r in rows) / cited, 4) if cited else None,
        "unsupported_numbers": sum(r.support.get("unsupported_numbers", 0) for r in rows),
        "hangul_share_ko": _mean(r.hangul for r in ko),
        "hangul_min_ko": min((r.hangul for r in ko if r.hangul is not None), default=None),
        "hangul_below_target_ko": _mean(float(r.hangul < HANGUL_TARGET) for r in ko if r.hangul is not None),
        "p50_ms": percentile(times, 0.5),
        "p95_ms": percentile(times, 0.95),
    }
    if any(r.rouge_l is not None for r in rows):
        out["rouge_l"] = _mean(r.rouge_l for r in rows)
        out["embedding_cosine"] = _mean(r.cosine for r in rows)
    if any(r.gaps for r in rows):
        counts = GapCounts()
        for r in rows:
            counts.add(r.lang, r.gaps)
        out["gaps"] = counts.summary()
    if not any(r.nuggets is not None for r in rows):
        for key in ("nugget_recall", "nugget_recall_en", "nugget_recall_ko", "nugget_recall_quoted",
                    "nugget_recall_quoted_en", "nugget_recall_quoted_ko", "wrong_claim_rate"):
            out.pop(key)
    return out


def load_set(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def team_sets() -> dict[str, list[dict]]:
    folder = resources_dir() / "eval" / "answers"
    return {name: load_set(folder / f"{name}.jsonl") for name in SETS}


def liveqa_items(count: int) -> list[dict]:
    """`count` LiveQA test questions spread evenly over the 104, each with the stored ids of
    its judged answers (to leave out) and the texts of its best-graded ones (to score)."""
    from engine.bench.liveqa import load_liveqa, original_query

    data = shared_data_dir()
    questions, qrels = load_liveqa(data)
    texts = {}
    with gzip.open(data / "liveqa_judged_answers.jsonl.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                row = json.loads(line)
                texts[row["answer_id"]] = row["text"]
    step = max(1, len(questions) // max(1, count))
    picked = []
    for question in questions[::step]:
        grades = qrels.get(question["qid"], {})
        best = max(grades.values(), default=0.0)
        if best < 2.0:
            continue  # no answer judged Excellent or Incomplete: nothing good to score against
        references = [texts[a] for a, g in grades.items() if g == best and a in texts]
        if not references:
            continue
        picked.append({"id": question["qid"], "lang": "en", "q": original_query(question), "judged": set(grades),
                       "references": references})
        if len(picked) >= count:
            break
    return picked


class Scorer:
    def __init__(self, embedder):
        from rouge_score import rouge_scorer

        self.rouge = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)
        self.embedder = embedder

    def __call__(self, answer: str, references: list[str]) -> tuple[float, float]:
        import numpy as np

        rouge = max(self.rouge.score(ref, answer)["rougeL"].fmeasure for ref in references)
        vectors = np.asarray(self.embedder.embed([answer, *references]), dtype=np.float32)
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
        return round(float(rouge), 4), round(float(max(vectors[1:] @ vectors[0])), 4)


def run_items(engine, model_name, items, modes, base_settings, checker, *, scorer=None, aliases=None,
              progress=None, pages=None) -> dict[str, list[Row]]:
    """Each item asked in each mode. `pages` (an answer_gaps.TopicPages): also the standing of each
    fact group (`Row.gaps`)."""
    rows: dict[str, list[Row]] = {m: [] for m in modes}
    for mode in modes:
        settings = mode_settings(base_settings, mode)
        for item in items:
            knowledge = engine.kb.search
            if item.get("judged") and knowledge is not None:
                excluded = {aliases.get(a, a) for a in item["judged"]} | set(item["judged"])
                knowledge = LeaveOut(knowledge, excluded)
            started = time.perf_counter()
            result = ask_once(engine, model_name, item["q"], settings, knowledge)
            ms = (time.perf_counter() - started) * 1000
            answer = result.get("answer", "")
            row = Row(item["id"], item["lang"], mode, round(ms, 1), answer=answer)
            if "nuggets" in item:
                row.nuggets = nugget_recall(answer, item["nuggets"])
                row.quoted = nugget_recall(" ".join(text for text, _ in answer_claims(result)), item["nuggets"])
                row.wrong = wrong_claim(answer, item.get("forbidden", []))
                if pages is not None:
                    row.gaps = standings(item, result, pages)
            if item["lang"] == "ko":
                row.hangul = round(hangul_share(answer), 4)
            if scorer is not None and item.get("references"):
                row.rouge_l, row.cosine = scorer(answer, item["references"])
            row.support = score_support(result, turn_documents(result, engine, item["q"], knowledge), checker)
            rows[mode].append(row)
            if progress:
                progress(f"{mode} {item['id']}: {ms / 1000:.1f} s")
    return rows


def block(rows: dict[str, list[Row]], questions: int) -> dict:
    modes = {}
    for mode, mode_rows in rows.items():
        summary = summarise(mode_rows[1:] if len(mode_rows) > 1 else mode_rows)
        full = summarise(mode_rows)
        full.update({"p50_ms": summary["p50_ms"], "p95_ms": summary["p95_ms"],
                     "cold_first_ms": mode_rows[0].ms if mode_rows else None})
        modes[mode] = full
    return {"questions": questions, "modes": modes}


def run(args) -> int:
    from engine.agent.runtime_env import passive_openmp_waits

    passive_openmp_waits()
    from engine.agent.support import SupportChecker
    from engine.agent.writer import concept_reader
    from engine.facade import Engine
    from engine.settings import load_settings

    settings = load_settings()
    if args.max_answer_tokens:
        settings = settings.model_copy(update={"llm": settings.llm.model_copy(
            update={"max_answer_tokens": args.max_answer_tokens})})
    modes = list(MODES) if args.mode == "all" else [args.mode]
    engine = Engine(settings)
    wall = time.perf_counter()
    try:
        model_name = engine.llm.info("generate").name
        checker = SupportChecker(engine.embedder, threshold=settings.answer.support_threshold)
        checker.concepts = concept_reader(engine.turns.services(None, settings))
        pages = TopicPages(engine.kb.search) if args.gaps and engine.kb.search is not None else None
        say = (lambda line: print(line, file=sys.stderr, flush=True))
        if args.set is not None:
            items = load_set(args.set)[: args.limit or None]
            rows = run_items(engine, model_name, items, modes, settings, checker, progress=say, pages=pages)
            result = block(rows, len(items))
            result["examples"] = _examples(rows)
        else:
            wanted = [name.strip() for name in args.splits.split(",") if name.strip()]
            unknown = sorted(set(wanted) - set(SETS))
            if unknown:
                raise SystemExit(f"unknown split(s) {', '.join(unknown)}; the team's sets are {', '.join(SETS)}")
            sets = {name: items[: args.limit or None] for name, items in team_sets().items() if name in wanted}
            everything = [item for items in sets.values() for item in items]
            rows = run_items(engine, model_name, everything, modes, settings, checker, progress=say, pages=pages)
            result = block(rows, len(everything))
            result["splits"] = {}
            for name, items in sets.items():
                ids = {i["id"] for i in items}
                split_rows = {m: [r for r in mode_rows if r.id in ids] for m, mode_rows in rows.items()}
                result["splits"][name] = {"questions": len(items),
                                          "modes": {m: summarise(r) for m, r in split_rows.items()}}
            result["examples"] = _examples(rows)
            if args.liveqa:
                items = liveqa_items(args.liveqa)
                aliases = engine.kb.search.retriever.kb.aliases() if engine.kb.search is not None else {}
                live = run_items(engine, model_name, items, modes, settings, checker, scorer=Scorer(engine.embedder),
                                 aliases=aliases, progress=say)
                result["liveqa"] = {**block(live, len(items)), "leave_question_out": True,
                                    "references": "best-graded judged answers of each question"}
        result["model"] = model_name
        result["max_answer_tokens"] = settings.llm.max_answer_tokens
        result["wall_s"] = round(time.perf_counter() - wall, 1)
    finally:
        engine.close()
    text = json.dumps(result, ensure_ascii=False, indent=None if args.json else 2)
    if args.out:
        # The example answers quote the knowledge base, whose text is read from ../shared at
        # run time and never written into the repository: the saved figures leave them out.
        saved = {key: value for key, value in result.items() if key != "examples"}
        args.out.write_text(json.dumps(saved, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(text)
    return 0


def _examples(rows: dict[str, list[Row]], per_mode: int = 2) -> dict:
    """The first English and Korean answer of each mode, for a reader to see what was scored."""
    out = {}
    for mode, mode_rows in rows.items():
        picked = [next((r for r in mode_rows if r.lang == lang), None) for lang in ("en", "ko")][:per_mode]
        out[mode] = [{"id": r.id, "answer": r.answer} for r in picked if r is not None]
    return out
