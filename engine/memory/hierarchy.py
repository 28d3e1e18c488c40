"""Three-tier conversation memory on top of the vault, so turn 15 still knows turn 1.

Interface:
- `HierarchicalMemory(vault, embedder, summariser, profile=None)`; `embedder`
  (`engine.protocols.Embedder`) and `summariser` (`engine.protocols.Summariser`) may be
  None: no related-turn recall, and an extractive summary instead of an LLM one.
- `add_turn(session_id, user_text, answer, sources, alerts, trace) -> turn_id`, or
  `start_turn(session_id, user_text)` then `finish_turn(turn_id, answer, ...)` when the
  profile update must reference the turn before the answer exists.
- `retrieve_context(query, budget_tokens, count_tokens, patient_id=None,
  session_id=None, language="en") -> dict` with `working`, `compressed`, `semantic`
  texts, their `tokens` and `budgets`, and the ids used.

Tiers: working = the last `working_turns` finished turns verbatim; compressed = a summary
of every `summarise_every` turns (LLM, ≤ `summary_tokens`), after a deterministic check
that appends every active condition, medication, allergy and abnormal lab the summary
dropped; semantic = allergies (at once), chronic conditions (≥ 2 mentions or a chronic
term), chronic medications (≥ 2 mentions), and older turns recalled by embedding
similarity. The budget splits 50/30/20 (`tier_shares`); what a tier leaves unused goes
to the others. Turn embeddings live as float32 blobs in the encrypted database.

`retrieve_context` and its 50/30/20 split are NOT what an agent turn puts in its prompt
(only `chartside bench memory` calls it). The turn (engine.agent.nodes.context) takes the
same tiers through `engine.agent.wiring.VaultMemory` under the turn's own token plan: the
profile summary (≤ `context.profile_share`, allergies first), long-term memory = these
summaries and related older turns (≤ `context.long_term_share`), the working turns
verbatim with the rest. It does not use `retrieve_context` because its semantic tier
repeats the profile facts that the prompt's profile section already carries, allergies
first, so the same facts would take tokens twice.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from engine.errors import GenerationCancelled, ModelOutputError, ModelUnavailable
from engine.memory import jsoncols, vectors
from engine.memory.policies import is_chronic_term
from engine.memory.profile import ACTIVE, ProfileStore
from engine.memory.store import Vault, fetch_rows, insert_row
from engine.memory.summary import LABELS, MEASUREMENT_LABELS, describe, format_number
from engine.protocols import Embedder, Summariser

RELATED_MIN_SIMILARITY = 0.3
CHRONIC_MIN_MENTIONS = 2
TIER_ORDER = ("working", "compressed", "semantic")
REFILL_ORDER = ("semantic", "working", "compressed")
SUMMARY_FAILURES = (ModelOutputError, ModelUnavailable, GenerationCancelled)

TIER_LABELS = {
    "en": {
        "user": "User",
        "assistant": "Assistant",
        "summary": "Summary of turns",
        "chronic_conditions": "Chronic conditions",
        "chronic_medications": "Chronic medications",
        "related": "Related earlier turns",
        "key_facts": "Key facts",
    },
    "ko": {
        "user": "사용자",
        "assistant": "어시스턴트",
        "summary": "요약: 턴",
        "chronic_conditions": "만성 질환",
        "chronic_medications": "만성 약물",
        "related": "관련된 이전 대화",
        "key_facts": "핵심 정보",
    },
}

CountTokens = Callable[[str], int]


class HierarchicalMemory:
    def __init__(
        self,
        vault: Vault,
        embedder: Embedder | None = None,
        summariser: Summariser | None = None,
        profile: ProfileStore | None = None,
    ):
        self.vault = vault
        self.embedder = embedder
        self.summariser = summariser
        self.profile = profile or ProfileStore(vault)
        self.settings = vault.settings.memory

    # ------------------------------------------------------------------ writes
    def add_turn(self, session_id: int, user_text: str, answer: str, sources=(), alerts=(), trace=None) -> int:
        """Store a complete turn (and its embedding) in one transaction; maybe summarise."""
        vector = self._embed(user_text)
        with self.vault.transaction():
            turn_id = self._store_user_text(session_id, user_text, vector)
            self.vault.finish_turn(turn_id, answer, sources, alerts, trace)
        self._summarise_if_due(session_id)
        return turn_id

    def start_turn(self, session_id: int, user_text: str) -> int:
        """Store the user's message and its embedding in one transaction."""
        vector = self._embed(user_text)
        with self.vault.transaction():
            return self._store_user_text(session_id, user_text, vector)

    def _store_user_text(self, session_id: int, user_text: str, vector: np.ndarray | None) -> int:
        turn_id = self.vault.start_turn(session_id, user_text)
        if vector is not None:
            insert_row(
                self.vault.db,
                "memory_embeddings",
                {
                    "turn_id": turn_id,
                    "patient_id": self.vault.get_session(session_id)["patient_id"],
                    "model": _model_name(self.embedder),
                    "dimension": int(vector.size),
                    "vector": vectors.to_blob(vector),
                },
            )
        return turn_id

    def finish_turn(self, turn_id: int, answer: str, sources=(), alerts=(), trace=None) -> dict | None:
        """Store the answer; every `summarise_every` finished turns, write a summary.
        Returns the new summary row, if one was written."""
        self.vault.finish_turn(turn_id, answer, sources, alerts, trace)
        return self._summarise_if_due(self.vault.get_turn(turn_id)["session_id"])

    def _summarise_if_due(self, session_id: int) -> dict | None:
        every = self.settings.summarise_every
        if self.vault.count_turns(session_id) % every != 0:
            return None
        return self.summarise_recent(session_id, every)

    def summarise_recent(self, session_id: int, count: int) -> dict | None:
        turns = [t for t in self.vault.list_turns(session_id=session_id, last=count) if t["finished_at"]]
        if not turns:
            return None
        session = self.vault.get_session(session_id)
        text = self._summarise(turns)
        text, restored = ensure_facts_survive(text, self.required_facts(session["patient_id"]))
        row = {
            "session_id": session_id,
            "patient_id": session["patient_id"],
            "first_position": turns[0]["position"],
            "last_position": turns[-1]["position"],
            "summary": text,
            "restored": jsoncols.dumps(restored),
            "created_at": self.vault.now_text(),
        }
        with self.vault.transaction() as db:
            db["memory_summaries"].insert(row, replace=True)
            row["id"] = db.execute(
                "select id from memory_summaries where session_id = ? and last_position = ?",
                [session_id, row["last_position"]],
            ).fetchone()[0]
        return row

    # ------------------------------------------------------------------- reads
    def summaries(self, session_id: int | None = None, patient_id: int | None = None) -> list[dict]:
        column, value = ("session_id", session_id) if session_id is not None else ("patient_id", patient_id)
        rows = fetch_rows(
            self.vault.db,
            f"select * from memory_summaries where {column} = ? order by session_id, last_position",
            [value],
        )
        return [{**row, "restored": jsoncols.loads(row["restored"], [])} for row in rows]

    def required_facts(self, patient_id: int) -> list[tuple[str, dict]]:
        """(slot, profile entry) for every fact a summary must not lose."""
        profile = self.profile.profile(patient_id)
        required = []
        for slot in ("allergies", "contraindications", "conditions", "medications"):
            for entry in profile[slot]:
                if entry["negated"] or entry["conflicts_with"]:
                    continue
                if slot in ("conditions", "medications") and entry["status"] != ACTIVE:
                    continue
                required.append((slot, entry))
        seen_types = set()
        for entry in profile["labs"]:  # newest first: the latest reading of each type
            if entry["type"] in seen_types:
                continue
            seen_types.add(entry.get("type"))
            if entry["abnormal"]:
                required.append(("labs", entry))
        return required

    def semantic_facts(self, patient_id: int) -> dict[str, list[tuple[str, dict]]]:
        """Long-term facts: allergies at once; chronic conditions and medications."""
        profile = self.profile.profile(patient_id)
        allergies = [
            (slot, e)
            for slot in ("allergies", "contraindications")
            for e in profile[slot]
            if not e["negated"] and not e["conflicts_with"]
        ]
        conditions = [
            ("conditions", e)
            for e in profile["conditions"]
            if e["status"] == ACTIVE
            and not e["negated"]
            and (
                e["provenance"]["mentions"] >= CHRONIC_MIN_MENTIONS
                or is_chronic_term(e["name"])
                or is_chronic_term(e.get("text") or "")
            )
        ]
        medications = [
            ("medications", e)
            for e in profile["medications"]
            if e["status"] == ACTIVE and not e["negated"] and e["provenance"]["mentions"] >= CHRONIC_MIN_MENTIONS
        ]
        return {"allergies": allergies, "chronic_conditions": conditions, "chronic_medications": medications}

    def related_turns(self, patient_id: int, query: str, exclude: set[int], k: int) -> list[tuple[dict, float]]:
        """Older turns of the patient most similar to `query` (cosine ≥ RELATED_MIN_SIMILARITY)."""
        if self.embedder is None or k <= 0:
            return []
        model = _model_name(self.embedder)
        rows = [
            row
            for row in fetch_rows(
                self.vault.db, "select * from memory_embeddings where patient_id = ? and model = ?", [patient_id, model]
            )
            if row["turn_id"] not in exclude
        ]
        if not rows:
            return []
        matrix = np.stack([vectors.from_blob(r["vector"], r["dimension"]) for r in rows])
        scores = vectors.cosine_scores(self._embed(query), matrix)
        ranked = sorted(zip(rows, scores), key=lambda pair: -float(pair[1]))[:k]
        result = []
        for row, score in ranked:
            if float(score) < RELATED_MIN_SIMILARITY:
                break
            turn = self.vault.get_turn(row["turn_id"])
            if turn["finished_at"]:
                result.append((turn, float(score)))
        return result

    def retrieve_context(
        self,
        query: str,
        budget_tokens: int,
        count_tokens: CountTokens,
        patient_id: int | None = None,
        session_id: int | None = None,
        language: str = "en",
    ) -> dict:
        """History for the prompt, within `budget_tokens` as counted by `count_tokens`."""
        if session_id is None and patient_id is None:
            raise ValueError("give session_id or patient_id")
        if session_id is not None:
            patient_id = self.vault.get_session(session_id)["patient_id"]
        else:
            latest = self.vault.latest_session(patient_id)
            session_id = latest["id"] if latest else None
        labels = TIER_LABELS.get(language, TIER_LABELS["en"])

        working_turns = []
        if session_id is not None:
            finished = [t for t in self.vault.list_turns(session_id=session_id) if t["finished_at"]]
            working_turns = finished[-self.settings.working_turns :]
        first_working = working_turns[0]["position"] if working_turns else None
        working_ids = {t["id"] for t in working_turns}

        summaries = [
            s
            for s in self.summaries(patient_id=patient_id)
            if s["session_id"] != session_id or first_working is None or s["first_position"] < first_working
        ]
        related = self.related_turns(patient_id, query, working_ids, self.settings.related_turns)
        facts = self.semantic_facts(patient_id)

        # pieces per tier, highest priority first, with the position each takes in the text
        pieces = {
            "working": [(i, _render_turn(t, labels)) for i, t in reversed(list(enumerate(working_turns)))],
            "compressed": [
                (i, f"[{labels['summary']} {s['first_position']}-{s['last_position']}] {s['summary']}")
                for i, s in reversed(list(enumerate(summaries)))
            ],
            "semantic": _semantic_pieces(facts, related, labels, language),
        }
        shares = dict(zip(TIER_ORDER, self.settings.tier_shares))
        budgets = {tier: int(budget_tokens * shares[tier]) for tier in TIER_ORDER}
        packed = {tier: _pack(pieces[tier], budgets[tier], count_tokens) for tier in TIER_ORDER}
        leftover = budget_tokens - sum(p.tokens for p in packed.values())
        for tier in REFILL_ORDER:
            if leftover <= 0 or packed[tier].complete:
                continue
            budgets[tier] = packed[tier].tokens + leftover
            packed[tier] = _pack(pieces[tier], budgets[tier], count_tokens)
            leftover = budget_tokens - sum(p.tokens for p in packed.values())
        return {
            "working": packed["working"].text,
            "compressed": packed["compressed"].text,
            "semantic": packed["semantic"].text,
            "tokens": {tier: packed[tier].tokens for tier in TIER_ORDER},
            "budgets": budgets,
            "patient_id": patient_id,
            "session_id": session_id,
            "working_turn_ids": [t["id"] for t in working_turns],
            "summary_ids": [s["id"] for s in summaries],
            "related_turn_ids": [t["id"] for t, _ in related],
        }

    # ---------------------------------------------------------------- helpers
    def _embed(self, text: str) -> np.ndarray | None:
        if self.embedder is None:
            return None
        return vectors.normalise(np.asarray(self.embedder.embed([text]))[0])

    def _summarise(self, turns: list[dict]) -> str:
        labels = TIER_LABELS["en"]
        transcript = "\n".join(_render_turn(t, labels) for t in turns)
        if self.summariser is not None:
            try:
                text = self.summariser.summarise(transcript, self.settings.summary_tokens).strip()
                if text:
                    return text
            except SUMMARY_FAILURES:
                pass
        return extractive_summary(turns)


def extractive_summary(turns: list[dict], max_chars: int = 160) -> str:
    """Fallback without a model: the first sentence of each user message."""
    lines = []
    for turn in turns:
        first = turn["user_text"].strip().split("\n")[0]
        for mark in (". ", "? ", "! ", "。"):
            if mark in first:
                first = first.split(mark)[0] + mark.strip()
                break
        lines.append(first[:max_chars])
    return " ".join(lines)


def fact_needles(slot: str, entry: dict) -> list[str]:
    """Strings whose presence in a summary shows the fact survived (a lab also needs its value)."""
    if slot == "labs":
        kind = entry.get("type", "")
        names = {entry.get("name"), kind, kind.replace("_", " ")}
        names |= {labels.get(kind) for labels in MEASUREMENT_LABELS.values()}
        return sorted(n for n in names if n)
    return [n for n in (entry.get("name"), entry.get("text"), entry.get("concept_id")) if n]


def fact_survives(summary: str, slot: str, entry: dict) -> bool:
    text = summary.casefold()
    named = any(needle.casefold() in text for needle in fact_needles(slot, entry))
    if slot != "labs":
        return named
    value = format_number(entry.get("value"))
    return named and bool(value) and value in text


def ensure_facts_survive(summary: str, required: list[tuple[str, dict]]) -> tuple[str, list[str]]:
    """Append, deterministically, every required fact the summary does not mention.
    Returns (summary, phrases appended)."""
    missing = [_fact_phrase(slot, entry) for slot, entry in required if not fact_survives(summary, slot, entry)]
    if not missing:
        return summary, []
    label = TIER_LABELS["en"]["key_facts"]
    return f"{summary.rstrip()}\n{label}: {'; '.join(missing)}".strip(), missing


def _fact_phrase(slot: str, entry: dict) -> str:
    text = describe(entry, slot, "en")
    if slot == "allergies":
        return f"allergy to {text}"
    if slot == "contraindications":
        return f"contraindicated: {text}"
    return text


def _render_turn(turn: dict, labels: dict) -> str:
    text = f"{labels['user']}: {turn['user_text']}"
    if turn.get("answer"):
        text += f"\n{labels['assistant']}: {turn['answer']}"
    return text


def _semantic_pieces(
    facts: dict, related: list[tuple[dict, float]], labels: dict, language: str
) -> list[tuple[int, str]]:
    """Facts before recalled turns: the allergy line is the last thing to be cut."""
    summary_labels = LABELS.get(language, LABELS["en"])
    lines = []
    allergies = ", ".join(describe(e, slot, language) for slot, e in facts["allergies"])
    lines.append(f"{summary_labels['allergies']}: {allergies or summary_labels['none']}")
    for key in ("chronic_conditions", "chronic_medications"):
        if facts[key]:
            lines.append(f"{labels[key]}: " + ", ".join(describe(e, slot, language) for slot, e in facts[key]))
    for turn, _score in related:
        lines.append(f"[{labels['related']}] {_render_turn(turn, labels)}")
    return list(enumerate(lines))


class _Packed:
    def __init__(self, text: str, tokens: int, complete: bool):
        self.text, self.tokens, self.complete = text, tokens, complete


def _pack(pieces: list[tuple[int, str]], budget: int, count_tokens: CountTokens) -> _Packed:
    """Greedy: take pieces in priority order while the joined text fits; a first piece
    that alone is too long is cut to fit. Text keeps each piece's own position."""
    chosen: list[tuple[int, str]] = []
    complete = True
    for order, text in pieces:
        candidate = sorted(chosen + [(order, text)])
        if count_tokens(_join(candidate)) <= budget:
            chosen = candidate
            continue
        complete = False
        if not chosen:
            cut = _truncate(text, budget, count_tokens)
            if cut:
                chosen = [(order, cut)]
        break
    joined = _join(chosen)
    return _Packed(joined, count_tokens(joined) if joined else 0, complete)


def _join(pieces: list[tuple[int, str]]) -> str:
    return "\n".join(text for _, text in sorted(pieces))


def _truncate(text: str, budget: int, count_tokens: CountTokens) -> str:
    """The longest prefix (plus an ellipsis) within `budget` tokens; binary search."""
    if budget <= 0:
        return ""
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if count_tokens(text[:middle] + "…") <= budget:
            low = middle
        else:
            high = middle - 1
    return text[:low] + "…" if low else ""


def _model_name(embedder) -> str:
    return str(getattr(embedder, "model_name", None) or getattr(embedder, "name", None) or type(embedder).__name__)
