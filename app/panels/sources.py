"""The documents an answer used: number, score, title/focus, passage, URL and licence.

URLs are shown as selectable text, not links: the app never opens a network location.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget

from app.panels.widgets import RichTextCard, escape, muted, vbox
from app.workers import retire

MEDQUAD_ATTRIBUTION = ("MedQuAD (Ben Abacha & Demner-Fushman, BMC Bioinformatics 2019), "
                       "licensed CC BY 4.0")
HIGHLIGHT_MS = 1500
PASSAGE_KEYS = ("passage", "text", "snippet", "content")
PREVIEW_CHARS = 280
TOGGLE_LINK = "passage:toggle"


def preview(text: str, limit: int = PREVIEW_CHARS) -> str:
    """The start of `text`, cut at a word boundary, with "…" when it was longer."""
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit)
    return text[:cut if cut > limit // 2 else limit].rstrip() + "…"


class SourceCard(RichTextCard):
    """One source. A long passage shows its start with a link to the whole of it: laying
    out a few thousand characters of wrapped rich text per card, for eight cards, would
    hold the event loop for well over 100 ms when an answer's sources arrive."""

    NORMAL = "border: 1px solid #cfd8dc; border-radius: 6px; background: palette(base);"
    HIGHLIGHT = "border: 2px solid #1565c0; border-radius: 6px; background: #e3f2fd;"

    def __init__(self, number: int, source: dict, parent: QWidget | None = None):
        super().__init__("sourceCard", self.NORMAL, parent)
        self.number = number
        self.source = source
        self.passage = str(next((source[key] for key in PASSAGE_KEYS if source.get(key)), "")).strip()
        self.expanded = False
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                           | Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self.label.setOpenExternalLinks(False)
        self.label.linkActivated.connect(self._link)
        self._render()

    def _render(self) -> None:
        source = self.source
        focus_label, score_label, licence_label = self.tr("Focus"), self.tr("Relevance score"), self.tr("Licence")
        title = source.get("title") or source.get("focus") or source.get("doc_id", "")
        focus = source.get("focus")
        header = f"<b>[{self.number}] {escape(title)}</b>"
        if focus and focus != title:
            header += f"<br><span style='color:#546e7a'>{escape(focus_label)}: {escape(focus)}</span>"
        parts = [header]
        score = source.get("score")
        if isinstance(score, (int, float)):
            parts.append(f"<span style='color:#546e7a'>{escape(score_label)}: {score:.3f}"
                         f" · {escape(source.get('doc_id', ''))}</span>")
        if self.passage:
            shown = self.passage if self.expanded else preview(self.passage)
            text = escape(shown).replace("\n", "<br>")
            if shown != self.passage or self.expanded:
                link = self.tr("Show less") if self.expanded else self.tr("Show the whole passage")
                text += f" <a href='{TOGGLE_LINK}'>{escape(link)}</a>"
            parts.append(text)
        if source.get("url"):
            parts.append(f"<span style='color:#37474f'>{escape(source['url'])}</span>")
        licence = source.get("licence") or source.get("license")
        attribution = source.get("attribution") or ("" if licence else MEDQUAD_ATTRIBUTION)
        parts.append(f"<i style='color:#546e7a'>{escape(licence_label)}: "
                     f"{escape(' — '.join(part for part in (licence, attribution) if part))}</i>")
        self.set_markup("<br>".join(parts))

    def toggle_passage(self) -> None:
        self.expanded = not self.expanded
        self._render()

    def _link(self, url: str) -> None:
        if url == TOGGLE_LINK:
            self.toggle_passage()

    def highlight(self, on: bool) -> None:
        self.set_style(self.HIGHLIGHT if on else self.NORMAL)


class SourcesPanel(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("sourcesPanel")
        self.cards: list[SourceCard] = []
        self.highlighted: int | None = None
        self.body = QWidget()
        self.list = QVBoxLayout(self.body)
        self.list.setSpacing(8)
        self.empty = muted(self.tr("No sources for this answer."), "sourcesEmpty")
        self.list.addWidget(self.empty)
        self.list.addStretch(1)
        self.scroll = QScrollArea(widgetResizable=True, objectName="sourcesScroll")
        self.scroll.setWidget(self.body)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.attribution = QLabel(self.tr("Knowledge base: %1").replace("%1", MEDQUAD_ATTRIBUTION),
                                  wordWrap=True, objectName="sourcesAttribution")
        self.attribution.setStyleSheet("color: #546e7a; font-size: 8pt;")
        vbox((self.scroll, 1), self.attribution, parent=self, margins=(4, 4, 4, 4))
        self._unhighlight = QTimer(self, singleShot=True, interval=HIGHLIGHT_MS)
        self._unhighlight.timeout.connect(self._clear_highlight)

    def set_sources(self, sources: list[dict]) -> None:
        """Show `sources`; the same list again (streamed, then in the finished turn) is kept."""
        if self.cards and [card.source for card in self.cards] == list(sources):
            return
        self.clear()
        for index, source in enumerate(sources, start=1):
            card = SourceCard(int(source.get("n") or index), source, self.body)
            self.cards.append(card)
            self.list.insertWidget(self.list.count() - 1, card)
        self.empty.setVisible(not self.cards)

    def clear(self) -> None:
        for card in self.cards:
            retire(card)
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
            if card.number == self.highlighted:
                card.highlight(False)
        self.highlighted = None
