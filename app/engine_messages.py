"""Korean for the engine's clinician-facing messages.

The engine writes `user_message` in English (it has no Qt); the GUI translates it once,
here, in the "EngineErrors" context of the Qt catalogue. The list marks the messages for
`pyside6-lupdate`; a message missing from it is shown in English, never hidden.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QT_TRANSLATE_NOOP

CONTEXT = "EngineErrors"
KNOWN_MESSAGES = (
    QT_TRANSLATE_NOOP("EngineErrors", "Chartside could not complete the request."),
    QT_TRANSLATE_NOOP("EngineErrors", "The settings file is invalid. Fix it or delete it to restore defaults."),
    QT_TRANSLATE_NOOP("EngineErrors", "The language model is not installed or could not be loaded."),
    QT_TRANSLATE_NOOP("EngineErrors", "A model file failed its integrity check (sha256). Reinstall the model."),
    QT_TRANSLATE_NOOP("EngineErrors", "The model returned an answer in an unexpected format."),
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
    QT_TRANSLATE_NOOP("EngineErrors", "The demo has no knowledge base to export or import."),
)


def translated(message: str) -> str:
    return QCoreApplication.translate(CONTEXT, message)
