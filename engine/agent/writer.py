"""Who writes a grounded answer, chosen by `[answer] writer`:

- `composer`: engine.agent.composer builds it from the passages' own sentences (no model
  call): the default for small models (`auto` below `refine.small_model_params`), which
  write fluent but unsupported text;
- `model`: the model writes from the prompt; the sentence support check (engine.agent.support)
  keeps the supported sentences with their [n] and drops the rest (said in the answer);
  with nothing supported the composer's answer is given instead;
- `composer+model`: the composer's answer with one lead sentence phrased by the model,
  kept only when the support check finds it backed by a passage and one source sentence
  holds every content word of it, with the same subject (support.strict_support): a lead
  that merely scores close to a source ("... can be caused by various factors, including
  high blood pressure medications") is dropped.
The model's text is collected before it is shown when the support check is on, so the
reader never sees a sentence that is then withdrawn.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.agent import answer_framing as framing
from engine.agent.composer import Composition, compose
from engine.agent.prompting import clean_citations, safety_prompt
from engine.agent.support import (LEFT_OUT, NOTICE, SOURCED, Support, SupportChecker, evidence_from, guard,
                                  strict_support)
from engine.clinical.slot_model import CONCEPT_SLOTS
from engine.errors import GenerationCancelled
from engine.events import Token

LEAD_TOKENS = 48
_PIECE = re.compile(r".+?(?:\n+|\] |$)", re.DOTALL)


@dataclass
class Written:
    text: str
    sentences: list[Support] = field(default_factory=list)
    writer: str = "model"
    cancelled: bool = False
    decisions: list[str] = field(default_factory=list)


# The writers that build the answer from the passages' own sentences.
COMPOSER_WRITERS = ("composer", "composer+model")


def chosen_writer(services) -> str:
    writer = services.settings.answer.writer
    if writer != "auto":
        return writer
    try:
        parameters = services.llm.info("generate").parameters
    except AttributeError:
        parameters = None
    small = parameters is not None and parameters < services.settings.refine.small_model_params
    return "composer" if small else "model"


def composer_writes(services) -> bool:
    """The composer writes the answer, so it reads the retrieved passages whole: the compressed
    documents section fits a model's prompt (and the judge's), and cutting the chunks to it left
    the composer without the sentences that answer (the opening of "What causes Varicose Veins ?"
    cut to a figure caption). Not in the degraded mode, which shows the prompt's excerpts."""
    return services.llm_unavailable is None and chosen_writer(services) in COMPOSER_WRITERS


def sentence_embedder(services):
    """The engine's sentence-transformers embedder (shared with retrieval and the cache)."""
    if services.embedder is not None:
        return services.embedder
    kb = getattr(getattr(services.knowledge, "retriever", None), "kb", None)
    return getattr(kb, "embedder", None)


def concept_reader(services):
    """Concept ids of a text through the clinical pack (for sentences in another language)."""
    clinical = services.clinical
    if clinical is None:
        return None
    memo: dict[str, set[str]] = {}

    def concepts(text: str) -> set[str]:
        if text not in memo:
            slots = clinical.extract(text)
            memo[text] = {str(i["concept_id"]).upper() for key in CONCEPT_SLOTS
                          for i in slots.get(key, []) if isinstance(i, dict) and i.get("concept_id")}
        return memo[text]
    return concepts


def support_checker(services) -> SupportChecker:
    return SupportChecker(sentence_embedder(services), concept_reader(services),
                          threshold=services.settings.answer.support_threshold)


def query_plan(services, text: str):
    """The knowledge service's query plan for the question (its focus concepts), or None."""
    planner = getattr(services.knowledge, "plan", None)
    if planner is None:
        return None
    try:
        return planner(text)
    except Exception:  # noqa: BLE001 - no plan: the composer scores against the asked sentences
        return None


def boilerplate(services) -> frozenset[str]:
    """The knowledge base's repeated sentences (engine.knowledge.boilerplate), none when the
    knowledge service cannot say."""
    sentences = getattr(services.knowledge, "boilerplate", None)
    return sentences() if sentences is not None else frozenset()


def _compose(state, services, checker: SupportChecker, about_patient: bool) -> Composition:
    return compose(question=state.text, language=state.language, slots=state.slots, documents=state.documents,
                   checker=checker, alerts=state.alerts, profile_summary=state.profile_summary,
                   about_patient=about_patient, plan=query_plan(services, state.text),
                   boilerplate=boilerplate(services))


def _collect(services, messages: list[dict], max_tokens: int) -> tuple[str, bool]:
    pieces: list[str] = []
    try:
        for piece in services.llm.stream_chat("generate", messages, max_tokens=max_tokens, cancel=services.cancel):
            pieces.append(piece)
    except GenerationCancelled:
        return "".join(pieces), True
    return "".join(pieces), False


def lead_messages(state, composition: Composition) -> list[dict]:
    quoted = "\n".join(f"[{s.source}] {s.text}" for s in composition.sentences if s.kind == SOURCED)
    return [{"role": "system", "content": safety_prompt("en")},
            {"role": "user", "content": f"Sources:\n{quoted}\n\nQuestion: {composition.query}\n"
                                        "Answer in one short sentence, using only the sources."}]


def phrased_lead(state, services, checker: SupportChecker, composition: Composition) -> tuple[Support | None, str]:
    """One model sentence that answers the question, if the support check backs it."""
    if state.language != "en" or not any(s.kind == SOURCED for s in composition.sentences):
        return None, "composer+model: no model lead (Korean question or nothing sourced)"
    text, cancelled = _collect(services, lead_messages(state, composition), LEAD_TOKENS)
    if cancelled or not text.strip():
        return None, "composer+model: the model gave no lead"
    checked = guard(text.strip(), state.documents, checker)
    first = checked[0] if checked else None
    if first is None or first.source is None:
        reason = first.reason if first else "empty"
        return None, f"composer+model: the model's lead was not supported ({reason}); dropped"
    backing, why = strict_support(first.text, evidence_from(state.documents))
    if backing is None:
        return None, f"composer+model: the model's lead failed the strict check ({why}); dropped"
    lead = Support(first.text, source=backing.source, support=first.support, source_sentence=backing.text)
    return lead, f"composer+model: the model's lead is backed word for word by [{lead.source}] ({lead.support:.2f})"


def with_lead(composition: Composition, lead: Support, language: str) -> Composition:
    """Insert the supported model lead right after the composer's own lead line."""
    sentences = list(composition.sentences)
    index = next(i for i, s in enumerate(sentences) if s.kind == NOTICE) + 1
    sentences.insert(index, lead)
    marker = next(s.text for s in sentences if s.kind == NOTICE)
    text = composition.text.replace(marker, f"{marker}\n{lead.text} [{lead.source}]", 1)
    return Composition(text, sentences, composition.kind, composition.query, composition.decisions)


def write_answer(state, services, messages: list[dict], max_tokens: int, stream, about_patient: bool):
    """Generator: yields the answer's tokens, returns `Written`. `stream(services, messages,
    max_tokens)` is the node's streaming generator (model writes, support check off)."""
    writer = chosen_writer(services)
    if writer == "model" and not services.settings.answer.support_check:
        text, cancelled = yield from stream(services, messages, max_tokens)
        return Written(clean_citations(text.strip(), len(state.documents)), [], writer, cancelled,
                       ["answer: the model writes, support check off"])
    checker = support_checker(services)
    if writer in COMPOSER_WRITERS:
        composition = _compose(state, services, checker, about_patient)
        decisions = list(composition.decisions)
        if writer == "composer+model":
            lead, decision = phrased_lead(state, services, checker, composition)
            decisions.append(decision)
            if lead is not None:
                composition = with_lead(composition, lead, state.language)
        yield from _pieces(composition.text)
        return Written(composition.text, composition.sentences, writer, False, decisions)
    text, cancelled = _collect(services, messages, max_tokens)
    checked = guard(text.strip(), state.documents, checker) if text.strip() else []
    kept = [s for s in checked if s.source is not None]
    dropped = len(checked) - len(kept)
    decisions = [f"answer: the model wrote {len(checked)} sentences; {len(kept)} supported, {dropped} dropped"]
    if not kept and state.documents:
        composition = _compose(state, services, checker, about_patient)
        decisions.append("answer: no model sentence was supported; the composer's answer is given")
        sentences = [*composition.sentences, *checked]
        yield from _pieces(composition.text)
        return Written(composition.text, sentences, writer, cancelled, decisions + composition.decisions)
    body = " ".join(f"{s.text} [{s.source}]" for s in kept)
    notes = [Support(framing.texts(state.language)["weak"], kind=NOTICE, reason=LEFT_OUT)] if dropped else []
    answer = "\n\n".join([body, *[n.text for n in notes]]) if body else text.strip()
    yield from _pieces(answer)
    return Written(answer, [*checked, *notes], writer, cancelled, decisions)


def _pieces(text: str):
    """A finished answer as tokens, one cited sentence or line at a time (the chat renders
    as it arrives)."""
    for piece in _PIECE.findall(text):
        yield Token(piece)


def sentence_records(items: list[Support]) -> list[dict]:
    return [item.traced() for item in items]
