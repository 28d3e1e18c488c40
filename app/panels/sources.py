"""The documents an answer used: number, score, title/focus, passage, URL and licence.

Each card shows the licence and attribution its passage's document records; the footer
names the open knowledge base's sources, as the engine's `kb.stats()` reports them.

URLs are shown as selectable text, not links: the app never opens a network location.
A citation clicked in the answer opens its source here with the source sentence that
backs the cited statement highlighted (the support check's best match) and scrolled into
view; the highlight stays until another citation is opened.
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget

from app.engine_messages import attribution_text
from app.panels.widgets import RichTextCard, escape, muted, vbox
from app.workers import retire

HIGHLIGHT_MS = 1500
PASSAGE_KEYS = ("passage", "text", "snippet", "content")
PREVIEW_CHARS = 280
TOGGLE_LINK = "passage:toggle"
SENTENCE_COLOUR = "#fff176"
SENTENCE_MARGIN_PX = 48


def locate(passage: str, sentence: str) -> tuple[int, int] | None:
    """Where `sentence` (a passage sentence as the support check saw it: whitespace joined,
    a bullet list joined to its lead-in as "Lead: a; b.") lies in `passage`, or None."""
    sentence = " ".join(sentence.split())
    if not sentence:
        return None
    found = passage.find(sentence)
    if found >= 0:
        return found, found + len(sentence)
    flat, offsets = [], []
    for index, char in enumerate(passage):
        if char.isspace():
            if not flat or flat[-1] == " ":
                continue
            char = " "
        flat.append(char)
        offsets.append(index)
    text = "".join(flat)

    def span(start: int, length: int) -> tuple[int, int]:
        return offsets[start], offsets[start + length - 1] + 1

    found = text.find(sentence)
    if found >= 0:
        return span(found, len(sentence))
    parts = [part for part in re.split(r": |; ", sentence.rstrip(".")) if part]
    start = text.find(parts[0]) if parts else -1
    if start < 0:
        return None
    end = text.find(parts[-1], start) if len(parts) > 1 else -1
    return span(start, (end + len(parts[-1]) if end >= 0 else start + len(parts[0])) - start)


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
        self.marked: tuple[int, int] | None = None
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
            text = self._passage_markup(shown)
            if shown != self.passage or self.expanded:
                link = self.tr("Show less") if self.expanded else self.tr("Show the whole passage")
                text += f" <a href='{TOGGLE_LINK}'>{escape(link)}</a>"
            parts.append(text)
        if source.get("url"):
            parts.append(f"<span style='color:#37474f'>{escape(source['url'])}</span>")
        licence = source.get("licence") or source.get("license") or ""
        attribution = source.get("attribution") or ""   # as the passage's document records it
        if licence or attribution:
            parts.append(f"<i style='color:#546e7a'>{escape(licence_label)}: "
                         f"{escape(' — '.join(part for part in (licence, attribution) if part))}</i>")
        self.set_markup("<br>".join(parts))

    def _passage_markup(self, shown: str) -> str:
        def markup(part: str) -> str:
            return escape(part).replace("\n", "<br>")

        if self.marked is None or self.marked[1] > len(shown):
            return markup(shown)
        start, end = self.marked
        return (markup(shown[:start]) + f"<span style='background-color:{SENTENCE_COLOUR}'>"
                + markup(shown[start:end]) + "</span>" + markup(shown[end:]))

    def mark_sentence(self, sentence: str) -> bool:
        """Highlight `sentence` in the passage (opening the whole passage when it lies past
        the preview); with "" or a sentence not found, clear the highlight. True if found."""
        self.marked = locate(self.passage, sentence) if sentence else None
        if self.marked is not None and not self.expanded and self.marked[1] > len(preview(self.passage)):
            self.expanded = True
        self._render()
        return self.marked is not None

    def marked_text(self) -> str:
        return self.passage[self.marked[0]:self.marked[1]] if self.marked else ""

    def marked_offset(self) -> int:
        """Vertical position of the highlighted sentence inside the card, in pixels."""
        if self.marked is None:
            return 0
        document = QTextDocument()
        document.setDefaultFont(self.label.font())
        document.setDocumentMargin(0)
        document.setHtml(self.label.text())
        document.setTextWidth(max(1, self.label.width()))
        at = document.toPlainText().find(" ".join(self.marked_text().split())[:40])
        if at < 0:
            return 0
        block = document.findBlock(at)
        top = document.documentLayout().blockBoundingRect(block).top()   # lays the block out first
        line = block.layout().lineForTextPosition(at - block.position())
        return self.label.y() + int(top + (line.y() if line.isValid() else 0))

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
        self.marked: tuple[int, str] | None = None   # the source number and its highlighted sentence
        self.body = QWidget()
        self.list = QVBoxLayout(self.body)
        self.list.setSpacing(8)
        self.empty = muted(self.tr("No sources for this answer."), "sourcesEmpty")
        self.list.addWidget(self.empty)
        self.list.addStretch(1)
        self.scroll = QScrollArea(widgetResizable=True, objectName="sourcesScroll")
        self.scroll.setWidget(self.body)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.attribution = QLabel(wordWrap=True, objectName="sourcesAttribution", visible=False)
        self.attribution.setStyleSheet("color: #546e7a; font-size: 8pt;")
        vbox((self.scroll, 1), self.attribution, parent=self, margins=(4, 4, 4, 4))
        self._unhighlight = QTimer(self, singleShot=True, interval=HIGHLIGHT_MS)
        self._unhighlight.timeout.connect(self._clear_highlight)
        self._hidden: list[SourceCard] = []
        self._reveal = QTimer(self, interval=0)
        self._reveal.timeout.connect(self._reveal_next)

    def set_attribution(self, attribution: str) -> None:
        """The footer: whom the open knowledge base's documents are owed to (the engine's
        `kb.stats()["attribution"]`); hidden while that is not known."""
        self.attribution.setText(self.tr("Knowledge base: %1").replace("%1", attribution_text(attribution))
                                 if attribution else "")
        self.attribution.setVisible(bool(attribution))

    def set_sources(self, sources: list[dict]) -> None:
        """Show `sources`; the same list again (streamed, then in the finished turn) is kept."""
        if self.cards and [card.source for card in self.cards] == list(sources):
            return
        self.clear()
        for index, source in enumerate(sources, start=1):
            card = SourceCard(int(source.get("n") or index), source, self.body)
            card.hide()
            self.cards.append(card)
            self.list.insertWidget(self.list.count() - 1, card)
        self.empty.setVisible(not self.cards)
        self._hidden = list(self.cards)
        self._reveal.start()

    def _reveal_next(self) -> None:
        """Show the next card: one per pass of the event loop, so laying out a turn's
        sources never holds the window for all of them at once."""
        if self._hidden:
            self._hidden.pop(0).show()
        if not self._hidden:
            self._reveal.stop()

    def reveal_all(self) -> None:
        """Show every card now (a citation is being opened: positions must be final)."""
        for card in self._hidden:
            card.show()
        self._hidden = []
        self._reveal.stop()

    def clear(self) -> None:
        self._hidden = []
        self._reveal.stop()
        for card in self.cards:
            retire(card)
        self.cards = []
        self.highlighted = None
        self.marked = None
        self.empty.show()

    def scroll_to(self, number: int, sentence: str = "") -> bool:
        """Bring source `number` into view and highlight it briefly; with `sentence` (the
        source sentence that backs the cited statement), highlight that sentence and bring
        it into view (it stays highlighted until another citation is opened)."""
        card = next((c for c in self.cards if c.number == number), None)
        if card is None:
            return False
        self.reveal_all()
        self._clear_highlight()
        for other in self.cards:
            if other is not card and other.marked is not None:
                other.mark_sentence("")
        marked = card.mark_sentence(sentence)
        card.highlight(True)
        self.highlighted = number
        self.marked = (number, card.marked_text()) if marked else None
        self._unhighlight.start()
        self._bring_into_view(card)
        # Once the layout has caught up with an opened passage, again.
        QTimer.singleShot(0, self, lambda: self._bring_into_view(card))
        return True

    def _bring_into_view(self, card: SourceCard) -> None:
        if card not in self.cards:
            return
        self.body.layout().activate()
        if card.marked is None:
            self.scroll.ensureWidgetVisible(card, 0, 8)
            return
        y = card.y() + card.marked_offset()
        bar, height = self.scroll.verticalScrollBar(), self.scroll.viewport().height()
        if not bar.value() + SENTENCE_MARGIN_PX <= y <= bar.value() + height - SENTENCE_MARGIN_PX:
            # The sentence a quarter down the view, with what comes before it above.
            bar.setValue(max(0, y - height // 4))

    def _clear_highlight(self) -> None:
        for card in self.cards:
            if card.number == self.highlighted:
                card.highlight(False)
        self.highlighted = None
