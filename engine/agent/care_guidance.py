"""The "when to get help now" line that opens an answer to "what should I do about these symptoms?".

Someone who describes symptoms and asks what to do, or whether to go to hospital, first
reads the warning signs with which they must not wait (engine.clinical.seek_care), in the
question's language, before anything the sources say. The line is the engine's own
deterministic text (sentence kind `guidance`), never a model's and never cited. It is left
out when an emergency alert found by the red-flag rules already opens the answer with its own
guidance (a message that only resembles an emergency still gets the line), when the
question asks for information rather than what to do (definition, causes, dose, prevention,
diagnosis, an interaction), and when no symptom or injury it covers is named (negated ones do not count).
"""

from __future__ import annotations

from typing import Sequence

from engine.agent import answer_framing as framing
from engine.agent.composer import asked_part, is_message, question_kind
from engine.clinical.seek_care import symptoms_with_signs, table, warning_signs

# Asking whether to get care, beyond the composer's "what should I do" cues.
SEEK_CARE_CUES = ("should i be worried", "do i need to go", "need to go to", "go to the er", "go to the hospital",
                  "go to hospital", "emergency room", "see a doctor", "is it serious", "what do i do",
                  "is it dangerous", "is that dangerous", "is this dangerous", "dangerous for",
                  "병원", "응급실", "어떻게 하죠", "어떻게 하지", "어떻게 해요", "어떡", "괜찮을까요", "걱정",
                  "위험한가요", "위험해요?", "위험한 건가요", "위험하지 않")
# A question of these kinds asks for information, whatever else it says ("what tests will
# the hospital do?" is about diagnosis).
INFORMATION_KINDS = ("interaction", "side_effects", "dosage", "diagnosis", "prevention")
TEMPLATES = {
    "en": "When to get help now: with {symptoms}, call 119 or go to an emergency department right away "
          "if any of these occur: {signs}.",
    "ko": "지금 바로 도움을 받아야 할 때: {symptoms} 증상이 있으면서 다음 중 하나라도 나타나면 "
          "바로 119에 전화하거나 응급실로 가세요 — {signs}.",
}
# After an injury the signs come later, not with it.
AFTER_AN_INJURY = {
    "en": "When to get help now: after {symptoms}, call 119 or go to an emergency department right away "
          "if any of these occur: {signs}.",
    "ko": "지금 바로 도움을 받아야 할 때: {symptoms} 뒤에 다음 중 하나라도 나타나면 "
          "바로 119에 전화하거나 응급실로 가세요 — {signs}.",
}


def asks_what_to_do(text: str) -> bool:
    """Whether the question asks what to do or whether to get care (not for information)."""
    asked = asked_part(text) if is_message(text) else text
    kind = question_kind(asked)
    if kind == "what_to_do":
        return True
    lowered = f" {asked.lower()} "
    return kind not in INFORMATION_KINDS and any(cue in lowered for cue in SEEK_CARE_CUES)


def symptom_names(symptoms: Sequence[str], language: str) -> str:
    if language == "ko":
        return ", ".join(dict.fromkeys(framing.korean_name(name) or name for name in symptoms))
    return " and ".join(symptoms) if len(symptoms) <= 2 else ", ".join(symptoms[:-1]) + f" and {symptoms[-1]}"


def care_guidance(text: str, slots: dict, alerts: Sequence[dict], language: str) -> str:
    """The line, or "" when it does not belong in this answer (module docstring)."""
    # A message that only resembles an emergency (detected by similarity, not by a rule) gets a
    # hedged notice ("If this is happening now: …") about another category; the signs of what it names
    # still belong in the answer.
    if any(alert.get("kind") == "emergency" and alert.get("detected_by") != "similar" for alert in alerts or ()):
        return ""
    symptoms = symptoms_with_signs(slots)
    if not symptoms or not asks_what_to_do(text):
        return ""
    language = language if language in TEMPLATES else "en"
    signs = warning_signs(symptoms, language)
    templates = AFTER_AN_INJURY if all(table()[name].injury for name in symptoms) else TEMPLATES
    return templates[language].format(symptoms=symptom_names(symptoms, language), signs="; ".join(signs))
