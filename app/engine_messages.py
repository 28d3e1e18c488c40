"""Korean for the engine's clinician-facing messages.

The engine writes `user_message` in English (it has no Qt); the GUI translates it once,
here, in the "EngineErrors" context of the Qt catalogue. The list marks the messages for
`pyside6-lupdate`; a message missing from it is shown in English, never hidden.
The same holds for the other engine texts the chat and the trace show: progress lines
(`Status` events), the pipeline's step names (stable node ids), why the support check
left a sentence out, a model server's fallback reason ("message (host)"), and the note
for the clinic's own documents in the knowledge base's attribution.
Alerts come from the engine in both languages (`messages`): `alert_message` picks the UI's.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication, QT_TRANSLATE_NOOP

from app.i18n import current_language

CONTEXT = "EngineErrors"
KNOWN_MESSAGES = (
    QT_TRANSLATE_NOOP("EngineErrors", "Chartside could not complete the request."),
    QT_TRANSLATE_NOOP("EngineErrors", "The settings file is invalid. Fix it or delete it to restore defaults."),
    QT_TRANSLATE_NOOP("EngineErrors", "The language model is not installed or could not be loaded."),
    QT_TRANSLATE_NOOP("EngineErrors", "A model file failed its integrity check (sha256). Reinstall the model."),
    QT_TRANSLATE_NOOP("EngineErrors", "The model returned an answer in an unexpected format."),
    QT_TRANSLATE_NOOP("EngineErrors", "Stopped."),
    QT_TRANSLATE_NOOP("EngineErrors", "Generation was stopped."),
    QT_TRANSLATE_NOOP("EngineErrors", "Wrong passphrase. Nothing was opened or changed."),
    QT_TRANSLATE_NOOP("EngineErrors", "The encrypted patient store could not be used."),
    QT_TRANSLATE_NOOP("EngineErrors", "The knowledge base index is missing or out of date; rebuild it."),
    QT_TRANSLATE_NOOP("EngineErrors", "The input could not be processed."),
    QT_TRANSLATE_NOOP("EngineErrors", "Building the knowledge base was cancelled; nothing partial was kept."),
    QT_TRANSLATE_NOOP("EngineErrors", "The clinical concept pack is missing or could not be built; run `chartside clinical build-pack`."),  # noqa: E501
    QT_TRANSLATE_NOOP("EngineErrors", "The conversation is too long for the model's context. Start a new session or shorten the question."),  # noqa: E501
    QT_TRANSLATE_NOOP("EngineErrors", "The question is too long for the model's context. Shorten it."),
    QT_TRANSLATE_NOOP("EngineErrors", "There is no patient store yet. Create one first."),
    QT_TRANSLATE_NOOP("EngineErrors", "No encrypted patient store exists yet."),
    QT_TRANSLATE_NOOP("EngineErrors", "Unlock the patient store first."),
    QT_TRANSLATE_NOOP("EngineErrors", "The patient store is locked."),
    QT_TRANSLATE_NOOP("EngineErrors", "The patient store was written by a newer or different Chartside version."),
    QT_TRANSLATE_NOOP("EngineErrors", "The passphrase must not be empty."),
    QT_TRANSLATE_NOOP("EngineErrors", "The passphrase contains an invalid character."),
    QT_TRANSLATE_NOOP("EngineErrors", "The two passphrases differ."),
    QT_TRANSLATE_NOOP("EngineErrors", "That patient does not exist."),
    QT_TRANSLATE_NOOP("EngineErrors", "That conversation does not exist."),
    QT_TRANSLATE_NOOP("EngineErrors", "That conversation belongs to another patient."),
    QT_TRANSLATE_NOOP("EngineErrors", "Type a question first."),
    QT_TRANSLATE_NOOP("EngineErrors", "The model file was not found."),
    QT_TRANSLATE_NOOP("EngineErrors", "This file is not a GGUF model."),
    QT_TRANSLATE_NOOP("EngineErrors", "Export format must be JSON, Markdown or PDF."),
    QT_TRANSLATE_NOOP("EngineErrors", "Export format must be Markdown or PDF."),
    QT_TRANSLATE_NOOP("EngineErrors", "Export format must be JSON or Markdown."),
    QT_TRANSLATE_NOOP("EngineErrors", "These documents look like patient records, so nothing was added: the knowledge base is not encrypted and bundles copy it to other desktops. Remove the lines listed, or override explicitly (recorded in the audit log)."),  # noqa: E501
    QT_TRANSLATE_NOOP("EngineErrors", "Unlock the patient store first: adding documents that look like patient data is recorded in its audit log. Nothing was added."),  # noqa: E501
    QT_TRANSLATE_NOOP("EngineErrors", "The knowledge-base bundle was refused. Nothing was changed."),
    QT_TRANSLATE_NOOP("EngineErrors", "This file is not a Chartside knowledge-base bundle. Nothing was changed."),
    QT_TRANSLATE_NOOP("EngineErrors", "This bundle was made by a Chartside version this desktop does not know; update Chartside here, or export the bundle again. Nothing was changed."),  # noqa: E501
    QT_TRANSLATE_NOOP("EngineErrors", "The bundle is damaged or was altered: its files do not match their sha256 manifest. Copy or export it again. Nothing was changed."),  # noqa: E501
    QT_TRANSLATE_NOOP("EngineErrors", "The bundle was built with another embedding model (or embedding settings) than this desktop uses, so its vectors cannot be searched here. Nothing was changed."),  # noqa: E501
    QT_TRANSLATE_NOOP("EngineErrors", "The bundle was built with other index settings (or another default corpus) than this desktop's, so it would be rebuilt rather than used. Nothing was changed."),  # noqa: E501
    QT_TRANSLATE_NOOP("EngineErrors", "Not enough disk space to import the bundle beside the current index. Nothing was changed."),  # noqa: E501
    QT_TRANSLATE_NOOP("EngineErrors", "The bundle file was not found. Nothing was changed."),
    QT_TRANSLATE_NOOP("EngineErrors", "The folder to export the bundle to does not exist."),
    QT_TRANSLATE_NOOP("EngineErrors", "The model server's reply was not understood."),
    QT_TRANSLATE_NOOP("EngineErrors", "The model server stopped in the middle of the answer."),
    QT_TRANSLATE_NOOP("EngineErrors", "The model server sent a reply that is not valid JSON."),
    QT_TRANSLATE_NOOP("EngineErrors", "The model server answered with a redirect, which Chartside does not follow."),
    QT_TRANSLATE_NOOP("EngineErrors", "The model server refused the access token. Set the token again in Settings → Models."),  # noqa: E501
    QT_TRANSLATE_NOOP("EngineErrors", "The model server has no such model or address. Check the URL and model name."),
    QT_TRANSLATE_NOOP("EngineErrors", "The model server did not answer in time."),
    QT_TRANSLATE_NOOP("EngineErrors", "The model server's certificate is not the clinic's. Nothing was sent."),
    QT_TRANSLATE_NOOP("EngineErrors", "The model server cannot be reached."),
)

STATUS_CONTEXT = "EngineStatus"
KNOWN_STATUS = (
    QT_TRANSLATE_NOOP("EngineStatus", "Preparing the answer…"),
    QT_TRANSLATE_NOOP("EngineStatus", "Loading the language model…"),
    QT_TRANSLATE_NOOP("EngineStatus", "The language model is unavailable: answering with the alerts and retrieved "
                                      "passages only."),
)

STEP_CONTEXT = "PipelineSteps"
STEP_NAMES = {
    "extract_and_triage": QT_TRANSLATE_NOOP("PipelineSteps", "checking for emergencies and drug alerts"),
    "store_memory": QT_TRANSLATE_NOOP("PipelineSteps", "noting the patient's facts"),
    "check_cache": QT_TRANSLATE_NOOP("PipelineSteps", "looking for an earlier answer"),
    "plan_retrieval": QT_TRANSLATE_NOOP("PipelineSteps", "understanding the question"),
    "assemble_context": QT_TRANSLATE_NOOP("PipelineSteps", "gathering the patient's context"),
    "retrieve": QT_TRANSLATE_NOOP("PipelineSteps", "searching the knowledge base"),
    "generate_answer": QT_TRANSLATE_NOOP("PipelineSteps", "writing the answer"),
    "judge_answer": QT_TRANSLATE_NOOP("PipelineSteps", "checking the answer"),
    "quality_check": QT_TRANSLATE_NOOP("PipelineSteps", "deciding whether to search again"),
    "store_response": QT_TRANSLATE_NOOP("PipelineSteps", "finishing"),
}

ATTRIBUTION_CONTEXT = "KnowledgeAttribution"
# The knowledge base's attribution (`stats()["attribution"]`) joins its sources' credits,
# shown as recorded, and the engine's note for the clinic's own documents, translated here.
ATTRIBUTION_SEPARATOR = " · "
KNOWN_ATTRIBUTION_PARTS = (
    QT_TRANSLATE_NOOP("KnowledgeAttribution", "Documents added by this clinic"),
)

REASON_CONTEXT = "SupportCheck"
KNOWN_REASONS = (
    QT_TRANSLATE_NOOP("SupportCheck", "no passages"),
    QT_TRANSLATE_NOOP("SupportCheck", "no concept to compare across languages"),
    QT_TRANSLATE_NOOP("SupportCheck", "negation differs from the source"),
    QT_TRANSLATE_NOOP("SupportCheck", "too few of its words are in the source"),
    QT_TRANSLATE_NOOP("SupportCheck", "below the support threshold"),
    QT_TRANSLATE_NOOP("SupportCheck", "no matching sentence"),
)
# Reasons that name what was missing (engine.agent.support.facts_agree).
PATTERNED_REASONS = (
    (re.compile(r"^number (.+) not in the source$"), QT_TRANSLATE_NOOP("SupportCheck", "number %1 not in the source")),
    (re.compile(r"^'(.+)' is not in the source$"), QT_TRANSLATE_NOOP("SupportCheck", "'%1' is not in the source")),
)
_WITH_HOST = re.compile(r"^(.*\S)\s+\(([^()]+)\)$")


def translated(message: str) -> str:
    return QCoreApplication.translate(CONTEXT, message)


def with_host(message: str) -> str:
    """A model server's message, "message (host)", with the message part translated."""
    found = _WITH_HOST.match(message)
    if found and found.group(1) in KNOWN_MESSAGES:
        return f"{translated(found.group(1))} ({found.group(2)})"
    return translated(message)


def status_text(message: str) -> str:
    return QCoreApplication.translate(STATUS_CONTEXT, message)


def attribution_text(attribution: str) -> str:
    """The knowledge base's attribution with the engine's own note translated (credits
    such as "MedQuAD (…), CC BY 4.0" stay as their documents record them)."""
    parts = str(attribution or "").split(ATTRIBUTION_SEPARATOR)
    return ATTRIBUTION_SEPARATOR.join(QCoreApplication.translate(ATTRIBUTION_CONTEXT, part)
                                      if part in KNOWN_ATTRIBUTION_PARTS else part for part in parts)


def step_name(node: str) -> str:
    """A pipeline node id as the chat names the step ("generate_answer" → "writing the answer")."""
    source = STEP_NAMES.get(node)
    return QCoreApplication.translate(STEP_CONTEXT, source) if source else node.replace("_", " ")


def reason_text(reason: str) -> str:
    """Why the support check left a sentence out, in the UI language."""
    for pattern, source in PATTERNED_REASONS:
        found = pattern.match(reason)
        if found:
            return QCoreApplication.translate(REASON_CONTEXT, source).replace("%1", found.group(1))
    return QCoreApplication.translate(REASON_CONTEXT, reason) if reason in KNOWN_REASONS else reason


def alert_message(alert: dict, language: str | None = None) -> str:
    """The alert's message in `language` (default: the UI's), when the engine gave it in that
    language; otherwise the message as the engine wrote it (the question's language)."""
    messages = alert.get("messages") or {}
    return str(messages.get(language or current_language()) or alert.get("message") or "")
