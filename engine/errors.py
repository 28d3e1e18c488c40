"""The few named errors the engine raises.

The GUI and CLI translate these once, at their boundary, into messages a clinician
understands (`user_message`). Anything else is a bug and is reported as such.
"""

from __future__ import annotations


class ChartsideError(Exception):
    """Base class. `user_message` is safe to show and never contains PHI."""

    user_message = "Chartside could not complete the request."

    def __init__(self, detail: str = "", *, user_message: str | None = None):
        super().__init__(detail or self.user_message)
        if user_message is not None:
            self.user_message = user_message


class ConfigError(ChartsideError):
    user_message = "The settings file is invalid. Fix it or delete it to restore defaults."


class ModelUnavailable(ChartsideError):
    user_message = "The language model is not installed or could not be loaded."


class ModelVerificationError(ModelUnavailable):
    user_message = "A model file failed its integrity check (sha256). Reinstall the model."


class ModelOutputError(ChartsideError):
    """The model produced output that did not parse or validate; callers fall back."""

    user_message = "The model returned an answer in an unexpected format."


class Cancelled(ChartsideError):
    """A long call stopped through its `engine.cancel.CancelToken`."""

    user_message = "Stopped."


class GenerationCancelled(Cancelled):
    user_message = "Generation was stopped."


class BuildCancelled(Cancelled):
    user_message = "Building the knowledge base was cancelled; nothing partial was kept."


class WrongPassphrase(ChartsideError):
    user_message = "Wrong passphrase. Nothing was opened or changed."


class VaultError(ChartsideError):
    user_message = "The encrypted patient store could not be used."


class KnowledgeIndexError(ChartsideError):
    user_message = "The knowledge base index is missing or out of date; rebuild it."


class InputError(ChartsideError):
    user_message = "The input could not be processed."


class ClinicalPackError(ChartsideError):
    user_message = "The clinical concept pack is missing or could not be built; run `chartside clinical build-pack`."


class PatientDataFound(InputError):
    """Documents for the knowledge base hold what looks like patient data. `findings` maps
    each file to its findings (line numbers and masked excerpts, never the identifiers)."""

    user_message = ("These documents look like patient records, so nothing was added: the knowledge base is not "
                    "encrypted and bundles copy it to other desktops. Remove the lines listed, or override "
                    "explicitly (recorded in the audit log).")

    def __init__(self, detail: str = "", *, findings: dict | None = None, user_message: str | None = None):
        super().__init__(detail, user_message=user_message)
        self.findings = findings or {}


class KnowledgeBundleError(ChartsideError):
    user_message = "The knowledge-base bundle was refused. Nothing was changed."


class NotAKnowledgeBundle(KnowledgeBundleError):
    user_message = "This file is not a Chartside knowledge-base bundle. Nothing was changed."


class BundleVersionUnknown(KnowledgeBundleError):
    user_message = ("This bundle was made by a Chartside version this desktop does not know; update Chartside "
                    "here, or export the bundle again. Nothing was changed.")


class BundleManifestMismatch(KnowledgeBundleError):
    user_message = ("The bundle is damaged or was altered: its files do not match their sha256 manifest. "
                    "Copy or export it again. Nothing was changed.")


class EmbeddingModelMismatch(KnowledgeBundleError):
    user_message = ("The bundle was built with another embedding model (or embedding settings) than this desktop "
                    "uses, so its vectors cannot be searched here. Nothing was changed.")
