from engine.clinical.lexicon import ENGLISH_DETERMINERS, expand_determiners


def test_a_determiner_slot_expands_to_each_determiner():
    phrases = expand_determiners("bleach in {my} eye")
    assert phrases == [f"bleach in {word} eye" for word in ENGLISH_DETERMINERS]
    assert "stung by a bee" in expand_determiners("stung by {a} bee")


def test_two_slots_expand_together_and_a_plain_term_stays_itself():
    phrases = expand_determiners("burned {my} hand on {a} pan")
    assert len(phrases) == len(ENGLISH_DETERMINERS) ** 2
    assert "burned her hand on the pan" in phrases
    assert expand_determiners("bee sting") == ["bee sting"]


def test_english_display_names_take_the_capitals_of_their_own_row():
    from engine.clinical.lexicon import english_display_names

    names = english_display_names()
    assert names["gerd"] == "GERD"
    assert names["hiv/aids"] == "HIV/AIDS"
    assert names["ace inhibitors"] == "ACE inhibitors"
    assert all(key == key.lower() and value.lower() == key for key, value in names.items())
