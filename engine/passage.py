"""The one record of a retrieved passage, from the knowledge service to the prompt and the sources.

The knowledge base's own source documents are `engine.knowledge.corpus.Document`; a
passage is one chunk of one of them as a search returned it. `Passage.source(n)` is the
`sources` entry of the turn format and `Passage.search_hit()` the `chartside kb search --json`
entry, so each shape is written in one place.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Passage:
    """One retrieved passage, as the knowledge service returns it (plus compression info).

    `passage` is what of it the answer was written from: the prompt's compressed text when a
    model writes, the whole chunk when the composer does (engine.agent.writer.composer_writes);
    sources show it so a clinician reads what the answer came from, and fall back to the whole text. `ranks` (the
    passage's rank in each retriever), `source_name` (the document's source, "MedlinePlus")
    and `tokens` (the chunk's size) are what the search knew of it.
    """

    doc_id: str
    text: str
    title: str = ""
    chunk_id: str = ""
    score: float = 0.0
    url: str = ""
    licence: str = ""
    attribution: str = ""
    compressed: bool = False
    passage: str = ""
    ranks: dict[str, int] = field(default_factory=dict)
    source_name: str = ""
    tokens: int = 0

    def source(self, number: int) -> dict:
        return {"n": number, "doc_id": self.doc_id, "chunk_id": self.chunk_id or self.doc_id, "title": self.title,
                "url": self.url, "licence": self.licence, "attribution": self.attribution,
                "score": round(float(self.score), 6), "passage": (self.passage or self.text).strip()}

    def search_hit(self) -> dict:
        return {
            "doc_id": self.doc_id, "chunk_id": self.chunk_id, "title": self.title, "text": self.text,
            "score": self.score, "ranks": self.ranks, "url": self.url, "source": self.source_name,
            "licence": self.licence, "attribution": self.attribution, "tokens": self.tokens,
        }
