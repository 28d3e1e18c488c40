"""About Chartside: version, what stays on this computer, and attributions (the knowledge
base's as the engine last reported it, `kb.stats()["attribution"]`).

With a clinic model server enabled (Settings → Models), not everything stays on this
computer: the dialog names the server and, role by role, what is sent to it.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

import engine
from app.engine_messages import attribution_text
from app.panels.widgets import escape


class AboutDialog(QDialog):
    def __init__(self, parent: QWidget | None = None, remote=None, knowledge_attribution: str = ""):
        super().__init__(parent)
        self.setObjectName("aboutDialog")
        self.setWindowTitle(self.tr("About Chartside"))
        paragraphs = [
            f"<h3>Chartside {engine.__version__}</h3>",
            *self._where_data_go(remote),
            self.tr("Chartside does not replace a clinical assessment."),
            *(["<b>" + self.tr("Knowledge base") + ":</b> " + escape(attribution_text(knowledge_attribution))]
              if knowledge_attribution else []),
            "<b>" + self.tr("Default language model") + ":</b> SmolLM2-135M-Instruct (Apache-2.0)",
            "<b>" + self.tr("Embeddings") + ":</b> all-MiniLM-L6-v2 (Apache-2.0)",
            "<b>" + self.tr("Font") + ":</b> Noto Sans CJK (SIL Open Font License 1.1)",
        ]
        text = QLabel("<p>" + "</p><p>".join(paragraphs) + "</p>", wordWrap=True, objectName="aboutText")
        text.setTextFormat(Qt.TextFormat.RichText)
        text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addWidget(buttons)
        self.text = text.text()

    def _where_data_go(self, remote) -> list[str]:
        """Where questions, answers and patient data go: this computer only, or also the
        clinic's model server for the roles it answers."""
        if remote is None or not getattr(remote, "enabled", False) or not getattr(remote, "roles", None):
            return [self.tr("An offline medical-knowledge assistant. Questions, answers and patient data stay on this "
                            "computer; patient data is kept only in the encrypted store.")]
        sent = {
            "generate": self.tr("writing answers: the question, the patient facts on file, earlier turns of the "
                                "conversation and the retrieved passages"),
            "classify": self.tr("classifying questions: the question"),
            "judge": self.tr("checking answers: the question, the answer and the retrieved passages"),
            "summarise": self.tr("summaries: earlier turns of the conversation and long passages"),
        }
        server = escape(getattr(remote, "url", "") or "?")
        items = "".join(f"<li>{escape(sent[role])}</li>" for role in remote.roles if role in sent)
        rest = self.tr("Everything else stays on this computer; patient data is stored only in the encrypted store.")
        if getattr(remote, "fallback_to_local", False):
            rest += " " + self.tr("When the server fails, this computer's model answers.")
        return [
            self.tr("A medical-knowledge assistant. A clinic model server is enabled (Settings → Models), so some "
                    "data leave this computer: what the model prompts hold is sent to %1 for").replace("%1", server)
            + f"<ul>{items}</ul>",
            rest,
        ]
