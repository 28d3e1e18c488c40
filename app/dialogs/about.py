"""About Chartside: version, what stays on this computer, and attributions."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

import engine
from app.panels.sources import MEDQUAD_ATTRIBUTION


class AboutDialog(QDialog):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("aboutDialog")
        self.setWindowTitle(self.tr("About Chartside"))
        paragraphs = [
            f"<h3>Chartside {engine.__version__}</h3>",
            self.tr("An offline medical-knowledge assistant. Questions, answers and patient data stay on this "
                    "computer; patient data is kept only in the encrypted store."),
            self.tr("Chartside does not replace a clinical assessment."),
            "<b>" + self.tr("Knowledge base") + ":</b> " + MEDQUAD_ATTRIBUTION
            + " — https://github.com/abachaa/MedQuAD",
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
