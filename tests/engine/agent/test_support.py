"""The sentence support check with the real MiniLM embedder and the real clinical pack."""

from __future__ import annotations

import numpy as np

from engine.passage import Passage
from engine.agent.support import (
    ALERT,
    SupportChecker,
    Support,
    evidence_from,
    guard,
    item_headings,
    passage_units,
    render,
    strict_support,
    subject_stems,
    support_rate,
)

GOUT = Passage("kb/gout", "Gout is a painful form of arthritis. Gout happens when uric acid builds up in the body and "
                "forms crystals in a joint. Gout does not spread from person to person. An attack often starts "
                "in the big toe.", title="Gout")
SUGAR = Passage("kb/hypo", "Low blood sugar means glucose below 70 mg/dL. Symptoms include:   - shaking   - sweating"
                 "   - confusion", title="Low blood sugar")


def test_a_list_in_its_own_paragraph_joins_the_lead_in_before_it():
    text = ("Hypoglycemia causes symptoms such as\n\n- hunger - shakiness - sweating\n\nIt can also happen during "
            "sleep. If you observe one or more of the following signs of a stroke, don't wait.\n\n- sudden numbness "
            "- sudden confusion\n\nTake care.\n\n- rest - fluids")
    assert passage_units(text) == [
        "Hypoglycemia causes symptoms such as: hunger; shakiness; sweating.",
        "It can also happen during sleep.",
        "If you observe one or more of the following signs of a stroke, don't wait: sudden numbness; sudden confusion.",
        "Take care.",
        "rest; fluids.",
    ]


def test_a_symptom_list_of_ten_items_is_kept_whole():
    """Items past the cap are dropped from the evidence, so nothing can quote them: a symptom list of
    ten, its weight loss ninth, stays whole."""
    symptoms = ["being nervous", "mood swings", "fatigue", "heat intolerance", "trouble sleeping", "hand tremors",
                "rapid heartbeat", "frequent bowel movements", "weight loss", "goiter"]
    text = "The symptoms can vary. They may include: " + " ".join(f"- {item}" for item in symptoms)
    assert passage_units(text)[-1] == f"The symptoms can vary. They may include: {'; '.join(symptoms)}."
    many = [f"item {n} here" for n in range(1, 21)]
    assert passage_units("It may include: " + " ".join(f"- {item}" for item in many))[-1].count("; ") + 1 == 12


def test_a_bullet_item_s_heading_speaks_for_the_sentences_in_its_item():
    text = ("- Acetaminophen. Try this medicine first for your pain. Do not take more than 4 grams on any 1 day. "
            "- Nonsteroidal anti-inflammatory drugs (NSAIDs). You can buy some NSAIDs without a prescription.\n\n"
            "FEVER\n\nTake ibuprofen every 6 to 8 hours.")
    units = passage_units(text)
    headings = {units[i]: heading for i, heading in item_headings(text).items()}
    assert headings == {"Try this medicine first for your pain.": "Acetaminophen.",
                        "Do not take more than 4 grams on any 1 day.": "Acetaminophen.",
                        "You can buy some NSAIDs without a prescription.": "Nonsteroidal anti-inflammatory drugs (NSAIDs)."}


def test_a_lead_in_names_every_item_of_a_list_whose_items_open_with_headings():
    """Else it would name the first as if it were the only one."""
    text = ("Outpatient treatments for internal hemorrhoids include the following:\n\n- Rubber band ligation. The "
            "doctor places a special rubber band around the base of the hemorrhoid. The band cuts off circulation. "
            " - Sclerotherapy. The doctor injects a chemical solution into the blood vessel.  - Infrared "
            "coagulation. The doctor uses heat to shrink the hemorrhoid tissue.\n\nLarge hemorrhoids can be "
            "surgically removed.\n\n- Rest. Lie down when you can.")
    units = passage_units(text)
    assert units[0] == ("Outpatient treatments for internal hemorrhoids include the following: Rubber band ligation; "
                        "Sclerotherapy; Infrared coagulation.")
    assert "Rest." in units and not any(u.endswith("; Rest.") for u in units)
    headings = {units[i]: heading for i, heading in item_headings(text).items()}
    assert headings["The doctor injects a chemical solution into the blood vessel."] == "Sclerotherapy."
    # The same list run into its lead-in's paragraph, as the index stores it.
    assert passage_units(text.replace(":\n\n- Rubber", ": - Rubber"))[0] == units[0]


def test_a_lead_in_without_a_colon_keeps_its_first_item_when_the_item_ends_a_sentence():
    """"These include" alone says nothing, and the item alone does not say what it is: the list
    joins the sentence it points back to."""
    text = ("They do know ways to reduce the risk. These include       - Placing babies on their backs to sleep, "
            "even for short naps. Tummy time is for when babies are awake.")
    assert passage_units(text)[0] == ("They do know ways to reduce the risk. These include: Placing babies on "
                                      "their backs to sleep, even for short naps.")


def test_a_sentence_inside_a_list_item_does_not_end_the_list():
    """The items after an item of two sentences stay on the list; the second sentence stands
    alone, and the agency named at the page's end leaves the last item."""
    text = ("Although health care professionals don't know what causes SIDS, they do know ways to reduce the risk. "
            "These include       - Placing babies on their backs to sleep, even for short naps. \"Tummy time\" is "
            "for when babies are awake and someone is watching    - Using a firm sleep surface    - Making sure "
            "babies don't get too hot. Keep the room at a comfortable temperature for an adult.    - Don't smoke "
            "near your baby       NIH: National Institute of Child Health and Human Development")
    assert passage_units(text) == [
        "Although health care professionals don't know what causes SIDS, they do know ways to reduce the risk. "
        "These include: Placing babies on their backs to sleep, even for short naps; Using a firm sleep surface; "
        "Making sure babies don't get too hot; Don't smoke near your baby.",
        "\"Tummy time\" is for when babies are awake and someone is watching.",
        "Keep the room at a comfortable temperature for an adult."]


def test_a_dash_inside_a_sentence_does_not_carry_a_list_on():
    """A list made by dashes without a lead-in that announces it takes no later items."""
    text = ("Your glands make saliva - sometimes called spit - and empty it into your mouth. It may not cause "
            "any symptoms, or you could notice - A lump in your cheek - Fluid draining from your ear")
    assert not passage_units(text)[0].endswith("Fluid draining from your ear.")


def test_a_range_is_not_a_list_and_a_bracket_the_list_never_opened_goes():
    text = ("Your provider may recommend: - Wearing a boot cast for 3 - 6 weeks.\n\n"
            "You may also have: - Cough - Headache - Sore throat)\n\nIt is caused by a virus (HSV).")
    assert passage_units(text) == ["Your provider may recommend: Wearing a boot cast for 3 - 6 weeks.",
                                   "You may also have: Cough; Headache; Sore throat.",
                                   "It is caused by a virus (HSV)."]


def test_a_copy_of_the_list_run_on_after_its_last_item_is_dropped():
    text = ("The possible signs are: - a cough that does not go away - coughing up blood - fatigue. a cough that "
            "does not go away coughing up blood fatigue.")
    assert passage_units(text) == ["The possible signs are: a cough that does not go away; coughing up blood; fatigue."]


def test_a_heading_run_into_a_list_lead_in_is_dropped():
    units = passage_units("Common Signs of Stroke These are warning signs of a stroke: - sudden numbness - sudden "
                          "confusion - trouble seeing")
    assert units == ["These are warning signs of a stroke: sudden numbness; sudden confusion; trouble seeing."]


def test_passage_units_join_a_bullet_list_to_its_lead_in():
    units = passage_units(SUGAR.text)
    assert units[0] == "Low blood sugar means glucose below 70 mg/dL."
    assert units[1] == "Symptoms include: shaking; sweating; confusion."
    assert passage_units("You may get gout if you - Are a man - Drink alcohol")[0] == \
        "You may get gout if you: Are a man; Drink alcohol."


def test_a_section_heading_run_into_a_sentence_is_left_out():
    units = passage_units("Anemia has many types. Warning Signs of Anemia The most common sign is tiredness. "
                          "Type 2 Diabetes Your body does not use insulin well. "
                          "Signs of Liver Disease Jaundice Jaundice is a yellow colour of the skin.")
    assert units == ["Anemia has many types.", "The most common sign is tiredness.",
                     "Your body does not use insulin well.", "Jaundice is a yellow colour of the skin."]
    assert passage_units("Espaol Anemia is a low red cell count. (Click the chart to see the stages.) A count "
                         "below 12 is low.") == ["Anemia is a low red cell count.", "A count below 12 is low."]
    assert passage_units("Physical Exam To check for osteoarthritis, the doctor looks at the joints.") == \
        ["To check for osteoarthritis, the doctor looks at the joints."]
    assert passage_units("(Most children get it once. The illness is rare today because of the vaccine.)") == \
        ["(Most children get it once.", "The illness is rare today because of the vaccine."]
    assert passage_units("The National Institutes of Health funds research.") == \
        ["The National Institutes of Health funds research."]


def test_a_title_or_capitals_heading_run_into_a_sentence_is_left_out_and_a_name_is_not():
    headed = {"Effects of NSAID Drugs Non-steroidal anti-inflammatory drugs can harm your kidneys.":
              "Non-steroidal anti-inflammatory drugs can harm your kidneys.",
              "Treating Medical Conditions That May Cause Palpitations Work with your doctor.":
              "Work with your doctor.",
              "FEVER Acetaminophen can lower a fever.": "Acetaminophen can lower a fever.",
              "Lactose Intolerance Lactose intolerance means you cannot digest lactose.":
              "Lactose intolerance means you cannot digest lactose.",
              "How Kidney Disease Occurs Kidney disease means the kidneys are damaged.":
              "Kidney disease means the kidneys are damaged.",
              "Viral Pneumonia Antibiotics don't work when the cause of pneumonia is a virus.":
              "Antibiotics don't work when the cause of pneumonia is a virus.",
              "Summary : Taking acetaminophen can help children with a fever feel better.":
              "Taking acetaminophen can help children with a fever feel better.",
              "How Acetaminophen Can Help Your Child : Acetaminophen lowers a fever.": "Acetaminophen lowers a fever.",
              "FEVER Acetaminophen (Tylenol) and ibuprofen (Advil, Motrin) help reduce fever.":
              "Acetaminophen (Tylenol) and ibuprofen (Advil, Motrin) help reduce fever.",
              "Medications Medications for glaucoma may be either in the form of eye drops or pills.":
              "Medications for glaucoma may be either in the form of eye drops or pills.",
              "COLD, SORE THROAT, COUGH Cold medicines can treat symptoms to make you feel better.":
              "Cold medicines can treat symptoms to make you feel better.",
              "Signs and Symptoms of Iron Deficiency Signs and symptoms of iron deficiency may include brittle nails.":
              "Signs and symptoms of iron deficiency may include brittle nails.",
              'How COPD Affects Airways The "airways" are the tubes that carry air in and out of the lungs.':
              'The "airways" are the tubes that carry air in and out of the lungs.',
              "Treatment May Start Right Away Treatment for a heart attack may begin in the ambulance.":
              "Treatment for a heart attack may begin in the ambulance.",
              "Tinnitus: A Common Symptom Tinnitus, also common in older people, is a ringing in the ears.":
              "Tinnitus, also common in older people, is a ringing in the ears.",
              "Measles: Make Sure Your Child Is Protected with MMR Vaccine Measles starts with a fever.":
              "Measles starts with a fever.",
              "COPD Develops Slowly, Has No Cure When COPD is severe, shortness of breath can get in the way.":
              "When COPD is severe, shortness of breath can get in the way."}
    for sentence, kept in headed.items():
        assert passage_units(sentence) == [kept]
    for sentence in ("Centers for Disease Control and Prevention recommends a yearly flu shot.",
                     "In the United States, about 20 million people have asthma.",
                     "Management of Fanconi Bickel syndrome generally focuses on the symptoms.",
                     "The National Kidney Foundation recommends routine checkups.",
                     "Vitamin D helps the body absorb calcium.",
                     "AMD is a disease that blurs central vision.",
                     "Children with Von Hippel-Lindau disease should be checked yearly.",
                     "National Cancer Institute researchers study cancer in children.",
                     "A Common Problem in Older Adults Hearing loss is common in older adults.",
                     "Physical exam and history : An exam of the body to check general signs of health.",
                     "NIDDK Health Information Center (NHIC) answers questions.",
                     "Health Services for veterans are free.",
                     "Measles: Make Sure Your Child Is Protected with the MMR Vaccine Today Children Should Get Two "
                     "Doses of it."):
        assert passage_units(sentence) == [sentence]


def test_a_sentence_in_parentheses_ends_where_its_bracket_closes():
    assert passage_units("(Hemoglobin is the iron-rich protein in red blood cells.) Another goal is to treat the "
                         "cause of the anemia.") == ["(Hemoglobin is the iron-rich protein in red blood cells.)",
                                                     "Another goal is to treat the cause of the anemia."]


def test_list_items_on_lines_of_their_own_join_their_lead_in():
    text = ("Your risk increases with each risk factor. To reduce your risk, adopt the following lifestyles:\n\n"
            "Heart-healthy eating\n\nManaging stress\n\nQuitting smoking\n\nKnow your family history.")
    assert passage_units(text) == ["Your risk increases with each risk factor.",
                                   "To reduce your risk, adopt the following lifestyles: Heart-healthy eating; "
                                   "Managing stress; Quitting smoking.",
                                   "Know your family history."]
    # A line item may run longer than an inline one: its line break says where it ends.
    assert passage_units("Factors include:\n\nSmoking\n\nHigh levels of sugar in the blood due to insulin "
                         "resistance or diabetes") == \
        ["Factors include: Smoking; High levels of sugar in the blood due to insulin resistance or diabetes."]
    # A short line after a sentence that announces nothing stays as it was.
    assert passage_units("Gout is common.\n\nTreatment") == ["Gout is common.", "Treatment"]


def test_a_list_that_lost_its_line_breaks_is_restored_and_the_next_sentence_kept_apart():
    units = passage_units("Other signs may include: Shortness of breath Dizziness Cold hands and feet Pale skin "
                          "These signs occur because the heart works harder.")
    assert units == ["Other signs may include: Shortness of breath; Dizziness; Cold hands and feet; Pale skin.",
                     "These signs occur because the heart works harder."]


def test_names_titles_and_references_after_a_colon_are_not_taken_for_lists():
    for text in ("Contact NIH: National Institute of Diabetes and Digestive and Kidney Diseases.",
                 "See the page below: How Is Anemia Treated?",
                 "Sources are listed below: Siegel JD, Rhinehart E, Jackson M, et al.",
                 "The answer is: Rest helps most people recover within a week."):
        assert passage_units(text) == [text]


def test_a_source_sentence_and_a_close_paraphrase_are_supported_and_cited(minilm):
    checker = SupportChecker(minilm)
    verdicts = guard("Gout happens when uric acid builds up in the body. "
                     "Uric acid can build up and form crystals in a joint [2].", [SUGAR, GOUT], checker)
    assert [v.source for v in verdicts] == [2, 2]
    assert all(v.support >= checker.threshold for v in verdicts)
    assert verdicts[0].source_sentence.startswith("Gout happens when uric acid")


def test_wrong_claims_numbers_and_negation_are_not_supported(minilm):
    checker = SupportChecker(minilm)
    verdicts = guard("Gout is caused by a virus. Gout spreads from person to person. "
                     "Low blood sugar means glucose below 90 mg/dL.", [GOUT, SUGAR], checker)
    assert [v.source for v in verdicts] == [None, None, None]
    assert "virus" in verdicts[0].reason
    assert verdicts[1].reason == "negation differs from the source"
    assert verdicts[2].reason.startswith("number 90")


def test_render_keeps_deterministic_parts_and_cites_only_supported_sentences(minilm):
    checker = SupportChecker(minilm)
    checked = guard("An attack often starts in the big toe. Gout is cured by antibiotics.", [GOUT], checker)
    items = [Support("Allergy: penicillin.", kind=ALERT), *checked]
    text = render(items)
    assert text == "Allergy: penicillin. An attack often starts in the big toe. [1]"
    assert support_rate(items) == 0.5
    assert items[0].public() == {"text": "Allergy: penicillin.", "source": None, "support": None, "kind": "alert"}


def test_a_korean_sentence_is_checked_through_concept_ids(minilm, clinical_pack):
    from engine.clinical import extract

    def concepts(text):
        slots = extract(text)
        return {i["concept_id"] for key in ("conditions", "symptoms", "medications") for i in slots[key]
                if i.get("concept_id")}

    checker = SupportChecker(minilm, concepts)
    evidence = evidence_from([GOUT])
    supported, unsupported = checker.check(["통풍은 관절염의 한 형태입니다.", "당뇨병은 통풍의 원인입니다."], evidence)
    assert supported.source == 1 and supported.support == 1.0
    assert unsupported.source is None


# A lead that the small model wrote for "What is high blood pressure?": it scores above the
# support threshold against a sentence about secondary hypertension, but says something else.
DISTORTED_LEAD = ("High blood pressure is a medical condition that can be caused by various factors, including "
                  "high blood pressure medications and lifestyle choices.")
PRESSURE = Passage("kb/bp", "Blood pressure is the force of blood pushing against the walls of the arteries. "
                    "When another medical condition or a medicine causes high blood pressure, it is called "
                    "secondary hypertension.", title="High blood pressure")


def test_the_strict_check_drops_a_distorted_lead_that_the_support_score_lets_through(minilm):
    verdict = guard(DISTORTED_LEAD, [PRESSURE], SupportChecker(minilm))[0]
    assert verdict.source == 1  # the support score alone backs it
    backing, why = strict_support(DISTORTED_LEAD, evidence_from([PRESSURE]))
    assert backing is None and why == "no source sentence has all its content words"


def test_the_strict_check_keeps_a_faithful_sentence_and_checks_the_subject():
    evidence = evidence_from([PRESSURE])
    backing, why = strict_support("Blood pressure is the force of blood pushing against the arteries.", evidence)
    assert backing is not None and backing.position == 0 and why == ""
    swapped = "The arteries are the force of blood pushing against the walls of blood pressure."
    assert strict_support(swapped, evidence) == (None, "its subject is not the subject of the source sentence")
    assert subject_stems("High blood pressure is common.") == {"high", "blood", "pressur"}


def test_the_model_writer_says_once_that_it_left_sentences_out(minilm):
    """Control flow with a scripted model: one supported sentence is kept and cited, the
    wrong claim is dropped, and the answer carries one notice marked as the left-out note
    (the desktop hides that line behind its own note with the count)."""
    from engine.agent.state import TurnState
    from engine.agent.support import LEFT_OUT
    from engine.agent.writer import write_answer
    from engine.llm.fake import FakeLLM
    from engine.settings import Settings
    from tests.engine.agent.fakes import make_services

    settings = Settings()
    settings = settings.model_copy(update={"answer": settings.answer.model_copy(
        update={"writer": "model", "support_check": True})})
    llm = FakeLLM().enqueue("Gout happens when uric acid builds up in the body and forms crystals in a joint. "
                            "Gout is caused by a virus that spreads between people.")
    services = make_services(llm, settings=settings)
    services.embedder = minilm
    state = TurnState(text="What causes gout?", documents=[GOUT])
    writer = write_answer(state, services, [{"role": "user", "content": "What causes gout?"}], 64,
                          stream=None, about_patient=False)
    while True:
        try:
            next(writer)
        except StopIteration as stop:
            written = stop.value
            break
    notices = [s for s in written.sentences if s.kind == "notice" and s.reason == LEFT_OUT]
    assert len(notices) == 1 and notices[0].text in written.text
    assert "uric acid builds up in the body and forms crystals in a joint. [1]" in written.text
    assert "virus" not in written.text


def test_sentence_vectors_embed_each_text_once_and_keep_the_order_asked():
    from engine.agent.support import SentenceVectors
    from tests.engine.agent.fakes import HashEmbedder

    calls = []

    class Recording(HashEmbedder):
        def embed(self, texts):
            calls.append(list(texts))
            return super().embed(texts)

    checker = SupportChecker(Recording())
    vectors = SentenceVectors(checker)
    first = vectors(["gout is arthritis", "uric acid", "gout is arthritis"])
    again = vectors(["uric acid", "big toe", "gout is arthritis"])
    assert calls == [["gout is arthritis", "uric acid"], ["big toe"]]
    assert np.allclose(first[0], first[2]) and np.allclose(first[1], again[0]) and np.allclose(first[0], again[2])
    assert np.allclose(again[1], checker.vectors(["big toe"])[0])
    assert vectors([]) is None and SentenceVectors(SupportChecker())(["x"]) is None
    evidence = evidence_from([GOUT])
    assert [s.source for s in checker.check(["Gout is a painful form of arthritis."], evidence, embed=vectors)] == [1]


def test_a_list_item_that_names_itself_before_a_dash_stays_one_item():
    assert passage_units("It can affect many organs: - Skin - itching, hives, redness, swelling - Nose - sneezing, "
                         "stuffy nose, runny nose") == [
        "It can affect many organs: Skin - itching, hives, redness, swelling; Nose - sneezing, stuffy nose, runny nose."]
    # An item's full stop cut the list; the next named items go on it, and a sentence inside an item stands alone.
    assert passage_units("There are four basic steps to food safety at home: - Clean - always wash your hands and "
                         "counters. - Separate - keep raw foods to themselves. Germs can spread from one food to "
                         "another. - Chill - put fresh food in the refrigerator right away.") == [
        "There are four basic steps to food safety at home: Clean - always wash your hands and counters; Separate - "
        "keep raw foods to themselves; Chill - put fresh food in the refrigerator right away.",
        "Germs can spread from one food to another."]
    # A list of symptoms that only opens with a capital names nothing before a dash.
    assert passage_units("Tell your doctor if you have: - Drowsiness - dry mouth - headache") == [
        "Tell your doctor if you have: Drowsiness; dry mouth; headache."]


def test_a_lead_in_that_ends_with_a_comma_joins_its_list_without_the_comma():
    assert passage_units("To prevent becoming reinfected with pinworms, - Bathe after waking up - Wash your pajamas "
                         "often") == ["To prevent becoming reinfected with pinworms: Bathe after waking up; Wash your "
                                      "pajamas often."]
