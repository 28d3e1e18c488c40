from engine.knowledge.chunking import chunk_text, default_counter
from engine.text import porter_stem, split_answer_sentences, split_document_sentences, split_passage_sentences, tokenize


def test_english_is_lowercased_stemmed_and_stopwords_dropped():
    assert tokenize("The Patients were RUNNING tests for Diabetes") == ["patient", "run", "test", "diabet"]


def test_porter_stemmer_reference_words():
    expected = {
        "caresses": "caress", "ponies": "poni", "agreed": "agre", "hopping": "hop", "relational": "relat",
        "generalization": "gener", "medications": "medic", "infections": "infect", "symptoms": "symptom",
    }
    assert {w: porter_stem(w) for w in expected} == expected


def test_korean_runs_become_syllable_bigrams_and_match_across_particles():
    assert tokenize("당뇨병이") == ["당뇨", "뇨병", "병이"]
    assert tokenize("약") == ["약"]
    assert set(tokenize("당뇨병")) <= set(tokenize("당뇨병이 있어요"))


def test_mixed_korean_english_in_one_sentence():
    tokens = tokenize("MRI검사 후 metformin 복용")
    assert "mri" in tokens and "검사" in tokens and "metformin" in tokens and "복용" in tokens


def test_sentences_split_on_punctuation_and_list_items():
    text = "First sentence. Second one? Third!\n- item one\n- item two"
    assert split_document_sentences(text) == ["First sentence.", "Second one?", "Third!", "- item one", "- item two"]


def test_an_abbreviation_or_a_lowercase_word_after_a_full_stop_ends_no_quoted_sentence():
    text = ("Permethrin is approved by the U.S. Food and Drug Administration for head lice. Use a comb, e.g. a "
            "nit comb. It costs approx. 5 dollars.\n\nNew paragraph. next line")
    assert split_passage_sentences(text) == [
        "Permethrin is approved by the U.S. Food and Drug Administration for head lice.", "Use a comb, e.g. a nit comb.",
        "It costs approx. 5 dollars.", "New paragraph. next line"]
    assert split_answer_sentences("Ask Dr. Kim today. 열이 나요 기침도 해요") == ["Ask Dr. Kim today.", "열이 나요", "기침도 해요"]
    # Chunk boundaries are the index's: they stay cut at every full stop.
    assert split_document_sentences("By the U.S. Food and Drug Administration.") == ["By the U.S.", "Food and Drug Administration."]


def test_a_sentence_in_brackets_ends_where_its_bracket_closes():
    """"… on your keyboard.) Prevention If you are at risk …" was one sentence: the page's note on its video ran
    into the advice after it."""
    text = ("To reduce the video, press the Escape (Esc) button on your keyboard.) If you are at risk for kidney "
            "disease, get your blood checked. (See the General Information section.) Some tests will be repeated.")
    assert split_passage_sentences(text) == [
        "To reduce the video, press the Escape (Esc) button on your keyboard.)",
        "If you are at risk for kidney disease, get your blood checked.", "(See the General Information section.)",
        "Some tests will be repeated."]
    # A bracket that closes mid-sentence ends nothing, and chunk boundaries stay the index's.
    assert split_passage_sentences("Take it (with food.) as told.") == ["Take it (with food.) as told."]
    assert split_document_sentences("(See the section.) Some tests.") == ["(See the section.) Some tests."]


def test_chunks_respect_the_limit_on_sentence_boundaries_and_are_balanced():
    sentence = "Metformin lowers blood glucose in people with type 2 diabetes. "
    text = sentence * 60
    limit = 200
    chunks = chunk_text(text, limit)
    counter = default_counter()
    assert len(chunks) >= 3
    assert all(counter.count(c) <= limit for c, _ in chunks)
    assert all(c.endswith(".") for c, _ in chunks)  # cut between sentences
    sizes = [n for _, n in chunks]
    assert max(sizes) - min(sizes) <= 2 * counter.count(sentence)  # balanced, no tiny tail


def test_short_text_is_one_chunk_and_empty_text_none():
    assert len(chunk_text("Short answer.", 256)) == 1
    assert chunk_text("   ", 256) == []


def test_an_overlong_sentence_is_cut_at_words():
    text = " ".join(["word"] * 1000)
    chunks = chunk_text(text, 100)
    assert all(n <= 100 for _, n in chunks) and len(chunks) >= 10


def test_a_wide_gap_left_by_a_lost_line_break_starts_a_paragraph_and_a_bullet_gap_does_not():
    from engine.agent.support import passage_units

    page = ("The following can cause swelling that leads to fluid:  - Allergies  - Irritants"
            "  - Respiratory infections    The following can close the tube:  - Drinking while lying"
            " on your back    Getting water in a baby's ears will not lead to a blocked tube.")
    ((text, _),) = chunk_text(page, 256)
    assert text.count("\n\n") == 2 and "\n\n- " not in text
    assert passage_units(text) == [
        "The following can cause swelling that leads to fluid: Allergies; Irritants; Respiratory infections.",
        "The following can close the tube: Drinking while lying on your back.",
        "Getting water in a baby's ears will not lead to a blocked tube.",
    ]
