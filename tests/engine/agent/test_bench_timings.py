"""Cold and warm timings kept apart: the agent bench's cache probes record whether the
query-embedding memo held each text, and the LLM bench can time a load that hashes the
weights as a first start does."""

from __future__ import annotations

import pytest

from engine.agent.embedding import MemoEmbedder


def test_memo_split_keeps_first_time_texts_apart_from_repeats():
    from engine.bench.agent import memo_split

    rows = [{"cache_hit": True, "ms": 24.0, "memo": "cold"}, {"cache_hit": True, "ms": 8.0, "memo": "warm"},
            {"cache_hit": True, "ms": 9.0, "memo": "warm"}, {"cache_hit": False, "ms": 900.0, "memo": "cold"}]
    split = memo_split(rows)
    assert split["cold"]["hits"] == 1 and split["cold"]["ms_p50"] == 24.0
    assert split["warm"]["hits"] == 2 and split["warm"]["ms_p50"] == 8.5


@pytest.mark.real_model
def test_cache_probe_embeds_the_paraphrase_cold_and_the_repeat_warm(fixture_kb, minilm, clinical_pack, tmp_path):
    from engine.agent.wiring import KnowledgeService
    from engine.bench.agent import probe_cache
    from engine.facade import Engine
    from engine.knowledge import HybridRetriever
    from engine.settings import Settings

    settings = Settings()
    settings.vault.kdf_iterations = 10_000
    settings.llm.max_answer_tokens = 24
    settings.features.self_refine = False
    memo = MemoEmbedder(minilm.inner)
    engine = Engine(settings, knowledge=KnowledgeService(HybridRetriever(fixture_kb)), embedder=memo,
                    vault_path=tmp_path / "vault.db")
    engine.patients.unlock("bench timings", create=True)
    memo.embed(["How should I treat low blood sugar?"])  # as if asked earlier in the bench
    probes = [{"conversation": "t", "question": "What are the symptoms of low blood sugar?",
               "again": "How should I treat low blood sugar?", "kind": "paraphrase"}]
    rows = probe_cache(engine, probes, settings, hits_wanted=10)
    assert [(r["kind"], r["memo"]) for r in rows] == [
        ("paraphrase", "cold"), ("repeat", "warm"), ("paraphrase again", "warm"), ("new session", "warm")]
    engine.close()


def test_forgetting_verifications_hashes_the_weights_again(monkeypatch):
    import engine.models as models

    from engine.settings import Settings

    entry = models.get_model(Settings().llm.generate_model)
    calls = []
    real = models.sha256_file
    monkeypatch.setattr(models, "sha256_file", lambda path, *a: calls.append(path) or real(path, *a))
    models.forget_verifications()
    models.verify(entry)
    models.verify(entry)
    assert len(calls) == 1  # the digest is reused within the process
    models.forget_verifications()
    models.verify(entry)
    assert len(calls) == 2  # as on a first start
