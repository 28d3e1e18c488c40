"""Where the reference facts of an answer stand (`chartside bench answers --gaps`).

Nugget recall says how many of a question's fact groups an answer met, not why the others were
missed. Each fact group is put in the first of these that holds, matched as the grader matches
(`engine.bench.grading.phrase_in`):

- `answered`: the answer states it;
- `in_first_passages`: a passage among the first FIRST_PASSAGES the turn retrieved holds it (the
  composer reads those), but the answer does not quote it;
- `in_later_passages`: a later passage of the turn holds it;
- `on_topic_pages`: a knowledge-base page the turn did not retrieve holds it, among the pages of the
  question's linked concepts (the query plan's focus) and of every retrieved page's own topic;
- `absent`: none of these.

`ceiling` is the share of groups not `absent`: no answer quoting the knowledge base's pages on these
topics can meet more, whatever it selects. It is generous: a phrase counts wherever it stands on such
a page, also in a sentence about something else ("fever" in another disease's symptom list), and the
pages of every retrieved topic count, related or not. Only counts are reported, never a page's text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from engine.bench.grading import phrase_in
from engine.knowledge.questions import QuestionIndex, title_facets

CATEGORIES = ("answered", "in_first_passages", "in_later_passages", "on_topic_pages", "absent")
FIRST_PASSAGES = 5


def fact_standing(group: Sequence[str], answer: str, first: Sequence[str], later: Sequence[str],
                  topic_pages: Sequence[str]) -> str:
    """The first of CATEGORIES that holds for one fact group (any-of phrases)."""
    def holds(texts: Sequence[str]) -> bool:
        return any(phrase_in(phrase, text) for text in texts for phrase in group)

    for category, texts in (("answered", [answer]), ("in_first_passages", first), ("in_later_passages", later),
                            ("on_topic_pages", topic_pages)):
        if holds(texts):
            return category
    return "absent"


class TopicPages:
    """The text of every knowledge-base page about a question's topics: the query plan's focus
    keys and the focus of each retrieved page (title), looked up by the knowledge base's titles."""

    def __init__(self, knowledge):
        self.knowledge = knowledge
        retriever = getattr(knowledge, "retriever", None)
        self.kb = getattr(retriever, "kb", None)
        translator = getattr(retriever, "translator", None)
        self.index = translator.index if translator is not None else QuestionIndex()

    def texts(self, question: str, sources: Sequence[dict]) -> list[str]:
        if self.kb is None:
            return []
        self.index.refresh(self.kb)
        plan_of = getattr(self.knowledge, "plan", None)
        plan = plan_of(question) if plan_of is not None else None
        keys = list(getattr(plan, "focus_keys", None) or [])
        keys += [title_facets(s.get("title", ""))[0] for s in sources]
        retrieved = {s.get("doc_id", "") for s in sources}
        doc_ids = [d.doc_id for key in dict.fromkeys(k for k in keys if k)
                   for d in self.index.by_focus.get(key, []) if d.doc_id not in retrieved]
        return list(self.kb.document_texts(doc_ids).values())


def standings(item: dict, result: dict, pages: TopicPages) -> list[str]:
    """The category of each of `item`'s fact groups, for the turn `result` answered it with."""
    sources = result.get("sources") or []
    passages = [s.get("passage") or s.get("text") or "" for s in sources]
    topic = pages.texts(item["q"], sources)
    answer = result.get("answer", "")
    return [fact_standing(group, answer, passages[:FIRST_PASSAGES], passages[FIRST_PASSAGES:], topic)
            for group in item.get("nuggets") or []]


@dataclass
class GapCounts:
    """Fact groups by category, per language."""

    by_language: dict[str, dict[str, int]] = field(default_factory=dict)

    def add(self, language: str, categories: Sequence[str]) -> None:
        counts = self.by_language.setdefault(language, dict.fromkeys(CATEGORIES, 0))
        for category in categories:
            counts[category] += 1

    @staticmethod
    def _figures(counts: dict[str, int]) -> dict:
        groups = sum(counts.values())
        return {"groups": groups, **counts,
                "ceiling": round(1 - counts["absent"] / groups, 4) if groups else None}

    def summary(self) -> dict:
        total = dict.fromkeys(CATEGORIES, 0)
        for counts in self.by_language.values():
            for category, n in counts.items():
                total[category] += n
        return {**self._figures(total),
                "by_language": {lang: self._figures(c) for lang, c in sorted(self.by_language.items())}}
