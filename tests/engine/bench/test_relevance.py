import numpy as np
import pytest

from engine.agent import composer
from engine.agent.composer import relevance_features, relevance_weights
from engine.agent.support import Evidence
from engine.bench.relevance import fit, recording_features


def _pool(rng, preferred_column: int, n: int = 12, width: int = 3):
    x = rng.normal(size=(n, width))
    y = (x[:, preferred_column] > np.quantile(x[:, preferred_column], 0.75)).astype(float)
    return x, y


def test_fit_learns_which_feature_marks_the_labelled_candidates():
    rng = np.random.default_rng(0)
    pools = [_pool(rng, preferred_column=1) for _ in range(40)]
    weights = fit(pools, l2=0.01)
    assert weights[1] > 1.0
    assert abs(weights[0]) < weights[1] / 3 and abs(weights[2]) < weights[1] / 3


def test_fit_ignores_questions_that_say_nothing_about_preference():
    rng = np.random.default_rng(1)
    informative = [_pool(rng, preferred_column=0) for _ in range(20)]
    x = rng.normal(size=(5, 3))
    uninformative = [(x, np.zeros(5)), (x, np.ones(5))]
    assert np.allclose(fit(informative, l2=0.1), fit(informative + uninformative, l2=0.1))


def test_features_are_one_row_per_sentence_and_weigh_to_the_relevance_select_uses():
    pool = [Evidence(text="Gout is caused by too much uric acid in the blood.", source=1, position=0),
            Evidence(text="Call us.", source=2, position=4)]
    vectors = np.array([[1.0, 0.0], [0.6, 0.8]])
    query = np.array([1.0, 0.0])
    kwargs = dict(kind="causes", topic_terms=["gout"], sources=2, query="What causes gout?", answering={1})
    rows = relevance_features(query, pool, vectors, **kwargs)
    assert rows.shape == (2, len(composer.RELEVANCE_FEATURES))
    named = dict(zip(composer.RELEVANCE_FEATURES, rows[0]))
    assert named["similarity"] == 1.0 and named["names_the_means"] == 1 and named["answering_page"] == 1
    assert dict(zip(composer.RELEVANCE_FEATURES, rows[1]))["fragment"] == 1
    chosen = composer.select(query, pool, vectors, limit=2, **kwargs)
    assert [r for _, r in chosen][0] == pytest.approx(float(rows[0] @ relevance_weights()))


def test_recording_collects_every_call_and_restores_the_composer():
    original = composer.relevance_features
    pool = [Evidence(text="Gout is a kind of arthritis that causes painful swollen joints.", source=1, position=0)]
    with recording_features() as calls:
        composer.select(np.array([1.0]), pool, np.array([[1.0]]), kind="definition", topic_terms=["gout"],
                        sources=1, limit=1)
    assert composer.relevance_features is original
    assert len(calls) == 1 and calls[0][0] == [pool[0].text]


def test_features_count_numbers_list_items_opening_and_the_question_words():
    pool = [Evidence(text="Adults take 10 mg once a day; children take 5 mg; older adults take less.", source=1,
                     position=0),
            Evidence(text="Talk with your doctor before you start any new medicine for allergies.", source=1,
                     position=5)]
    vectors = np.array([[1.0, 0.0], [0.0, 1.0]])
    rows = relevance_features(np.array([1.0, 0.0]), pool, vectors, kind="dosage", topic_terms=["loratadine"],
                              sources=1, query="How much loratadine do adults take?")
    first, second = (dict(zip(composer.RELEVANCE_FEATURES, row)) for row in rows)
    assert first["has_number"] == 1 and second["has_number"] == 0
    assert first["list_items"] == 2 and second["list_items"] == 0
    assert first["opening"] == 1 and second["opening"] == 0
    assert first["question_words"] > second["question_words"]
