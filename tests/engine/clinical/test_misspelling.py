"""Long Korean names written with one jamo wrong (engine.clinical.misspelling)."""

from __future__ import annotations

import pytest

from engine.clinical import PackConceptFinder
from engine.clinical.misspelling import KoreanSpellings, jamo

NAMES = [("갑상선기능저하증", "hypothyroidism"), ("갑상선 기능 저하증", "hypothyroidism"),
         ("류마티스관절염", "rheumatoid arthritis"), ("고지혈증", "high cholesterol"), ("고혈압", "hypertension"),
         ("저혈압", "hypotension"), ("관절염", "arthritis")]


@pytest.fixture(scope="module")
def spellings():
    return KoreanSpellings(NAMES)


def test_jamo_spells_each_syllable_in_three():
    assert jamo("증") == "\u110c\u1173\u11bc" and jamo("가") == "\u1100\u1161_" and len(jamo("갑상선")) == 9


@pytest.mark.parametrize("text, concept", [
    ("갑상성기능저하증이면 어떤 증상이 있어요?", "hypothyroidism"),  # 선 -> 성
    ("고지혈쯩 약 먹어야 하나요", "high cholesterol"),  # 증 -> 쯩
    ("류마치스관절염 치료", "rheumatoid arthritis"),  # 티 -> 치
])
def test_a_long_name_with_one_letter_wrong_is_found(spellings, text, concept):
    assert [m.concept for m in spellings.find(text)] == [concept]


def test_names_written_right_and_short_names_are_left_to_the_lexicon(spellings):
    assert spellings.find("갑상선기능저하증이면") == []  # written right
    assert spellings.find("고혈앞 약") == []  # three syllables: 고혈압 and 저혈압 are one jamo apart


def test_the_misspelt_name_wins_over_the_name_inside_it(clinical_pack):
    mentions = PackConceptFinder(clinical_pack)("류마치스관절염 치료는 어떻게 해요?")
    assert [m["name"] for m in mentions if m["slot"] == "condition"] == ["rheumatoid arthritis"]
