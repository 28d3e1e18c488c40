"""A small knowledge base for end-to-end tests: a dozen short documents written for these
tests (not MedQuAD text), indexed with the real BM25, MiniLM embeddings and FAISS."""

from __future__ import annotations

from pathlib import Path

DOCUMENTS = [
    ("fx/diabetes-type2", "Type 2 diabetes", "Type 2 diabetes is a long-term condition in which the body does not use "
     "insulin well, so blood glucose stays high. Treatment starts with diet, exercise and weight loss. Metformin is "
     "usually the first medicine. Blood glucose and HbA1c are checked regularly."),
    ("fx/hypoglycemia", "Low blood sugar (hypoglycemia)", "Low blood sugar means glucose below 70 mg/dL. Symptoms "
     "include shaking, sweating, a fast heartbeat, hunger and confusion. Treat it at once with 15 grams of fast sugar, "
     "such as juice or glucose tablets, and check again after 15 minutes."),
    ("fx/metformin", "Metformin", "Metformin lowers blood glucose in type 2 diabetes. It is taken with meals to reduce "
     "stomach upset. Common side effects are nausea and diarrhea. It is avoided when kidney function is very low."),
    ("fx/penicillin-allergy", "Penicillin allergy", "People allergic to penicillin can react to amoxicillin and "
     "ampicillin, which are penicillins. Reactions range from rash and hives to anaphylaxis. Macrolides such as "
     "azithromycin are often used instead; a clinician decides."),
    ("fx/sore-throat", "Sore throat", "Most sore throats are caused by viruses and get better in a week without "
     "antibiotics. Strep throat is treated with antibiotics; in penicillin allergy a non-penicillin antibiotic is "
     "chosen. Warm drinks and pain relievers ease symptoms."),
    ("fx/hypertension", "High blood pressure", "High blood pressure is 140/90 mmHg or higher on repeated readings. "
     "Less salt, regular exercise, limiting alcohol and weight loss lower it. Medicines include ACE inhibitors such "
     "as lisinopril, ARBs and calcium channel blockers."),
    ("fx/nsaids", "NSAIDs", "Ibuprofen and naproxen are NSAIDs. They can raise blood pressure, harm the kidneys and "
     "cause stomach bleeding. Combined with warfarin they increase the risk of bleeding."),
    ("fx/exercise-diabetes", "Exercise and diabetes", "Walking for 30 minutes on most days helps control blood glucose. "
     "People who take insulin should check glucose before exercise and carry fast sugar."),
    ("fx/foot-care", "Diabetic foot care", "People with diabetes should look at their feet every day for cuts, "
     "blisters and redness, because nerve damage can hide injuries. Comfortable shoes help prevent ulcers."),
    ("fx/asthma", "Asthma", "Asthma narrows the airways and causes wheezing, cough and shortness of breath. Reliever "
     "inhalers such as salbutamol open the airways quickly; preventer inhalers reduce inflammation."),
    ("fx/hba1c", "HbA1c test", "The HbA1c test shows the average blood glucose over about three months. Many adults "
     "with diabetes aim for an HbA1c below 7 percent."),
    ("fx/kidney", "Diabetes and the kidneys", "High blood glucose can damage the kidneys over time. Urine albumin and "
     "eGFR tests find kidney disease early; blood pressure control protects the kidneys."),
]


def build_fixture_kb(folder: Path, embedder):
    from engine.knowledge import IndexParams, KnowledgeBase
    from engine.knowledge.corpus import Document
    from engine.settings import Settings

    docs = [Document(doc_id=i, title=t, text=x, source="test fixture", licence="test") for i, t, x in DOCUMENTS]
    kb = KnowledgeBase(folder, embedder, IndexParams.from_settings(Settings()),
                       corpus_source=lambda: list(docs), corpus_version=lambda: "agent-fixture-v1")
    return kb.open(build=True)
