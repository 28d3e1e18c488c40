"""The knowledge base's boilerplate: sentences it repeats word for word on many pages."""

from __future__ import annotations

from engine.knowledge import IndexParams, KnowledgeBase
from engine.knowledge.boilerplate import Boilerplate, repeated_sentences
from engine.knowledge.corpus import Document

from .conftest import HashingEmbedder

KEEP = "Do not let anyone else take your medication."


def test_a_sentence_on_enough_pages_is_boilerplate_whatever_its_spacing():
    pages = [f"Drug {n} lowers blood pressure.   {KEEP}  Store it at room temperature." for n in range(3)]
    pages.append("Asthma narrows the airways. Do not let   anyone else take your medication.")
    found = repeated_sentences(pages, min_pages=4)
    assert found == frozenset({KEEP})
    assert repeated_sentences(pages, min_pages=3) == frozenset({KEEP, "Store it at room temperature."})


def test_a_sentence_repeated_on_one_page_counts_once():
    assert repeated_sentences([f"{KEEP} {KEEP} {KEEP}"], min_pages=2) == frozenset()


def test_the_count_follows_the_knowledge_base_as_its_documents_change(tmp_path):
    docs = [Document(f"d/{n}", f"Drug {n}", f"Drug {n} treats pain. {KEEP}") for n in range(2)]
    kb = KnowledgeBase(tmp_path / "kb", HashingEmbedder(), IndexParams(chunk_tokens=64),
                       corpus_source=lambda: list(docs), corpus_version=lambda: "v1").open()
    boilerplate = Boilerplate(min_pages=3)
    assert boilerplate.sentences(kb) == frozenset()
    note = tmp_path / "clinic-note.txt"
    note.write_text(f"Our clinic opens at nine. {KEEP}", encoding="utf-8")
    kb.add_files([note])
    assert boilerplate.sentences(kb) == frozenset({KEEP})
