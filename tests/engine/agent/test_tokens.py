"""Budget arithmetic (hypothesis) and trimming in model tokens."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.agent.tokens import TokenManager, plan_budget
from engine.errors import InputError
from engine.llm.fake import FakeLLM


@given(total=st.integers(256, 20000), n_ctx=st.integers(256, 20000), system=st.integers(0, 800),
       documents=st.integers(0, 3000), query=st.integers(0, 3000), reserve=st.integers(16, 2048),
       profile=st.floats(0, 0.5), long_term=st.floats(0, 0.5))
@settings(max_examples=400, deadline=None)
def test_plan_never_exceeds_the_model_context(total, n_ctx, system, documents, query, reserve, profile, long_term):
    try:
        plan = plan_budget(total=total, n_ctx=n_ctx, system=system, documents=documents, query=query,
                           reserve=reserve, profile_share=profile, long_term_share=long_term)
    except InputError:
        assert system + query + reserve + 16 > min(total, n_ctx)
        return
    assert plan.allocated == plan.total == min(total, n_ctx)
    assert min(plan.documents, plan.profile, plan.long_term, plan.recent) >= 0
    assert plan.documents <= documents
    remaining = plan.total - plan.system - plan.query - plan.reserve - plan.overhead - plan.documents
    assert plan.profile <= profile * remaining + 1e-9
    assert plan.long_term <= long_term * remaining + 1e-9
    assert plan.recent == remaining - plan.profile - plan.long_term


def test_seed_split():
    plan = plan_budget(total=4000, n_ctx=4096, system=400, documents=900, query=100, reserve=512,
                       profile_share=0.2, long_term_share=0.1, overhead=16)
    assert (plan.system, plan.documents, plan.query, plan.reserve) == (400, 900, 100, 512)
    remaining = 4000 - 400 - 900 - 100 - 512 - 16
    assert plan.profile == int(remaining * 0.2) and plan.long_term == int(remaining * 0.1)
    assert plan.recent == remaining - plan.profile - plan.long_term


def test_documents_shrink_first_when_the_model_context_is_small():
    plan = plan_budget(total=4000, n_ctx=1200, system=400, documents=900, query=100, reserve=512,
                       profile_share=0.2, long_term_share=0.1)
    assert plan.total == 1200 and plan.documents == 1200 - 400 - 100 - 512 - 16
    assert plan.profile == plan.long_term == plan.recent == 0


def test_a_question_that_cannot_fit_is_refused():
    with pytest.raises(InputError):
        plan_budget(total=1000, n_ctx=1000, system=400, documents=900, query=500, reserve=512,
                    profile_share=0.2, long_term_share=0.1)


@given(text=st.text(min_size=0, max_size=600), limit=st.integers(0, 120))
@settings(max_examples=200, deadline=None)
def test_truncate_fits_the_limit(text, limit):
    tokens = TokenManager(None)
    cut = tokens.truncate(text, limit)
    assert tokens.count(cut) <= limit
    assert text.startswith(cut)


def test_counts_with_the_model_tokenizer_when_a_model_is_given():
    assert TokenManager(FakeLLM()).count("x" * 40) == 10
    assert TokenManager(None).count("hello world") == 2


def test_truncate_keeps_leading_lines_first():
    tokens = TokenManager(None)
    text = "Allergies: penicillin\nConditions: type 2 diabetes\n" + "Labs: " + "glucose 180 " * 50
    cut = tokens.truncate(text, 12)
    assert cut.startswith("Allergies: penicillin")
