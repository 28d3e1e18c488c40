"""The documents an answer used: number, score, title/focus, passage, URL and licence.

URLs are shown as selectable text, not links: the app never opens a network location.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget

MEDQUAD_ATTRIBUTION = ("MedQuAD (Ben Abacha & Demner-Fushman, BMC Bioinformatics 2019), "
                       "licensed CC BY 4.0")
HIGHLIGHT_MS = 1500
PASSAGE_KEYS = ("passage", "text", "snippet", "content")


def _escape(text: object) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class SourceCard(QFrame):
    NORMAL = "QFrame#sourceCard { border: 1px solid #cfd8dc; border-radius: 6px; background: palette(base); }"
    HIGHLIGHT = "QFrame#sourceCard { border: 2px solid #1565c0; border-radius: 6px; background: #e3f2fd; }"

    def __init__(self, number: int, source: dict, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("sourceCard")
        self.number = number
        self.source = source
        self.setStyleSheet(self.NORMAL)
        focus_label, score_label, licence_label = self.tr("Focus"), self.tr("Relevance score"), self.tr("Licence")
        title = source.get("title") or source.get("focus") or source.get("doc_id", "")
        focus = source.get("focus")
        header = f"<b>[{number}] {_escape(title)}</b>"
        if focus and focus != title:
            header += f"<br><span style='color:#546e7a'>{_escape(focus_label)}: {_escape(focus)}</span>"
        parts = [header]
        score = source.get("score")
        if isinstance(score, (int, float)):
            parts.append(f"<span style='color:#546e7a'>{_escape(score_label)}: {score:.3f}"
                         f" · {_escape(source.get('doc_id', ''))}</span>")
        passage = next((source[key] for key in PASSAGE_KEYS if source.get(key)), None)
        if passage:
            parts.append(_escape(passage))
        if source.get("url"):
            parts.append(f"<span style='color:#37474f'>{_escape(source['url'])}</span>")
        parts.append(f"<i style='color:#546e7a'>{_escape(licence_label)}: "
                     f"{_escape(source.get('licence') or source.get('license') or MEDQUAD_ATTRIBUTION)}</i>")
        label = QLabel("<br>".join(parts), wordWrap=True, objectName="sourceText")
        label.setTextFormat(Qt.TextFormat.RichText)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.addWidget(label)
        self.text = label.text()

    def highlight(self, on: bool) -> None:
        self.setStyleSheet(self.HIGHLIGHT if on else self.NORMAL)


class SourcesPanel(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("sourcesPanel")
        self.cards: list[SourceCard] = []
        self.highlighted: int | None = None
        self.body = QWidget()
        self.list = QVBoxLayout(self.body)
        self.list.setSpacing(8)
        self.empty = QLabel(self.tr("No sources for this answer."), objectName="sourcesEmpty", wordWrap=True)
        self.empty.setStyleSheet("color: #757575;")
        self.list.addWidget(self.empty)
        self.list.addStretch(1)
        self.scroll = QScrollArea(widgetResizable=True, objectName="sourcesScroll")
        self.scroll.setWidget(self.body)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.attribution = QLabel(self.tr("Knowledge base: %1").replace("%1", MEDQUAD_ATTRIBUTION),
                                  wordWrap=True, objectName="sourcesAttribution")
        self.attribution.setStyleSheet("color: #546e7a; font-size: 8pt;")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.scroll, 1)
        layout.addWidget(self.attribution)
        self._unhighlight = QTimer(self, singleShot=True, interval=HIGHLIGHT_MS)
        self._unhighlight.timeout.connect(self._clear_highlight)

    def set_sources(self, sources: list[dict]) -> None:
        self.clear()
        for index, source in enumerate(sources, start=1):
            card = SourceCard(int(source.get("n") or index), source, self.body)
            self.cards.append(card)
            self.list.insertWidget(self.list.count() - 1, card)
        self.empty.setVisible(not self.cards)

    def clear(self) -> None:
        for card in self.cards:
            card.deleteLater()
        self.cards = []
        self.highlighted = None
        self.empty.show()

    def scroll_to(self, number: int) -> bool:
        """Bring source `number` into view and highlight it briefly."""
        card = next((c for c in self.cards if c.number == number), None)
        if card is None:
            return False
        self._clear_highlight()
        self.scroll.ensureWidgetVisible(card, 0, 8)
        card.highlight(True)
        self.highlighted = number
        self._unhighlight.start()
        return True

    def _clear_highlight(self) -> None:
        for card in self.cards:
            card.highlight(False)
        self.highlighted = None
