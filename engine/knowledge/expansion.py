"""Query expanders (the `QueryExpander` protocol of engine.protocols).

- `ConceptNameExpander`: finds concept names from the concept dictionary
  (`concepts.tsv`: MedQuAD focus names and their synonyms) in an English query and returns
  each found concept's preferred name. Repeating the focus weighs it more in BM25 (a query
  token counts once per occurrence) and names it canonically for the dense model.
- `ChainExpander`: several expanders in order, duplicates dropped.
- `register_expander` / `plugged_expander()`: how the clinical service plugs its
  Korean -> English concept expansion in without this package importing it.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path
from typing import Callable, Sequence

from engine.paths import shared_data_dir
from engine.protocols import QueryExpander
from engine.text import BM25_STOP_WORDS

_WORD = re.compile(r"[a-z0-9]+")
MAX_NGRAM = 6

_factories: list[Callable[[], QueryExpander | None]] = []


def register_expander(factory: Callable[[], QueryExpander | None]) -> None:
    """Register a factory (e.g. the clinical Korean -> English concept expander)."""
    if factory not in _factories:
        _factories.append(factory)


def plugged_expander() -> QueryExpander | None:
    """The registered expanders chained, or None when nothing is registered."""
    expanders = [e for e in (factory() for factory in _factories) if e is not None]
    if not expanders:
        return None
    return expanders[0] if len(expanders) == 1 else ChainExpander(expanders)


class ChainExpander:
    def __init__(self, expanders: Sequence[QueryExpander]):
        self.expanders = list(expanders)

    def expand(self, query: str) -> list[str]:
        out: list[str] = []
        seen: set[str] = set()
        for expander in self.expanders:
            for term in expander.expand(query):
                key = term.lower()
                if key not in seen:
                    seen.add(key)
                    out.append(term)
        return out


def _key(text: str) -> str:
    return " ".join(_WORD.findall(text.lower()))


class ConceptNameExpander:
    """Longest-match concept names in the query -> their preferred names."""

    def __init__(self, names: dict[str, str], max_terms: int = 4):
        self.names = names  # normalised surface name -> preferred name
        self.max_terms = max_terms

    @classmethod
    def from_tsv(cls, path: Path | None = None, **kwargs) -> "ConceptNameExpander":
        path = path or shared_data_dir() / "concepts.tsv"
        preferred: dict[str, str] = {}
        surfaces: list[tuple[str, str]] = []
        with open(path, encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                cid, name = row["concept_id"], row["name"].strip()
                if row.get("preferred") == "1":
                    preferred.setdefault(cid, name)
                surfaces.append((cid, name))
        names: dict[str, str] = {}
        for cid, name in surfaces:
            key = _key(name)
            words = key.split()
            # Skip one-word names that are common words or too short to be a concept.
            if not words or (len(words) == 1 and (len(key) < 4 or key in BM25_STOP_WORDS)):
                continue
            names.setdefault(key, preferred.get(cid, name))
        return cls(names, **kwargs)

    def expand(self, query: str) -> list[str]:
        words = _WORD.findall(query.lower())
        found: list[str] = []
        i = 0
        while i < len(words) and len(found) < self.max_terms:
            for n in range(min(MAX_NGRAM, len(words) - i), 0, -1):
                name = self.names.get(" ".join(words[i : i + n]))
                if name is not None:
                    if name not in found:
                        found.append(name)
                    i += n
                    break
            else:
                i += 1
        return found
