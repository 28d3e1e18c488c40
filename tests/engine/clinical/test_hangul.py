"""The Hangul tokenizer/tagger registered with MedCAT, and the shared text helpers."""

from __future__ import annotations

from medcat.config import Config

from engine.clinical.hangul import HangulTagger, HangulTokenizer
from engine.text import concept_stem


def test_every_hangul_syllable_is_a_token_and_latin_words_stay_whole():
    doc = HangulTokenizer()("당뇨병이 있고 metformin 500mg")
    assert [t.base.text for t in doc] == ["당", "뇨", "병", "이", "있", "고", "metformin", "500", "mg"]
    assert doc[6].base.char_index == doc.text.index("metformin")


def test_entities_come_from_token_positions():
    tokenizer = HangulTokenizer()
    doc = tokenizer("가슴 통증")
    entity = tokenizer.create_entity(doc, 0, 4, "concept")
    assert (entity.base.start_char_index, entity.base.end_char_index, entity.base.text) == (0, 5, "가슴 통증")
    again = tokenizer.entity_from_tokens(list(doc)[2:4])
    assert again.base.text == "통증" and again.base.start_index == 2


def test_tagger_skips_punctuation_and_korean_fillers_but_not_frequency_before_urination():
    config = Config()
    tagger = HangulTagger(set(config.preprocessing.words_to_skip), set())
    doc = tagger(HangulTokenizer()("머리가 너무 아파요, 소변을 자주 봐요. 코가 자주 막혀요"))
    skipped = "".join(t.base.text for t in doc if t.to_skip)
    assert skipped == "너무,.자주"  # the first 자주 (before 봐요) is kept: it is the finding


def test_english_stem_is_symmetric_for_plurals_and_ing():
    assert concept_stem("headaches") == concept_stem("headache")
    assert concept_stem("coughing") == concept_stem("cough")
    assert concept_stem("burning") == "burning"
    assert concept_stem("diabetes") == concept_stem("diabetes")
