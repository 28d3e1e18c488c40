"""What the panels share: headings, muted hints, framed rich-text cards and layouts
written as one expression (`vbox(...)`, `hbox(...)`)."""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtWidgets import QBoxLayout, QFrame, QHBoxLayout, QLabel, QLayout, QVBoxLayout, QWidget

HEADING_STYLE = "font-weight: 600;"
MUTED_STYLE = "color: #757575;"


def escape(text: object) -> str:
    """Text shown inside rich text: markup characters become entities."""
    return html.escape(str(text), quote=False)


def fill(layout: QBoxLayout, items) -> QBoxLayout:
    """Add `items` in order: a widget or layout, `(widget or layout, stretch)`, or an int
    for a stretch of that factor."""
    for entry in items:
        item, stretch = entry if isinstance(entry, tuple) else (entry, 0)
        if isinstance(item, int):
            layout.addStretch(item)
        elif isinstance(item, QLayout):
            layout.addLayout(item, stretch)
        else:
            layout.addWidget(item, stretch)
    return layout


def vbox(*items, parent: QWidget | None = None, margins: tuple[int, int, int, int] | None = None) -> QVBoxLayout:
    """A vertical layout of `items` (see `fill`), installed on `parent` when given."""
    layout = QVBoxLayout(parent) if parent is not None else QVBoxLayout()
    if margins is not None:
        layout.setContentsMargins(*margins)
    return fill(layout, items)


def hbox(*items) -> QHBoxLayout:
    """A horizontal layout of `items` (see `fill`)."""
    return fill(QHBoxLayout(), items)


class WrappedLabel(QLabel):
    """A word-wrapped label that remembers its height for each width and its size hint
    until its text, font or style changes.

    Qt's layouts ask a wrapped label for its height at a width about two dozen times per
    pass, and QLabel lays its whole text out again for every question; for an answer or a
    handful of source cards of rich text that held the event loop for 60-300 ms on two
    cores when a turn finished."""

    def __init__(self, text: str = "", parent: QWidget | None = None, **properties):
        super().__init__(text, parent, **properties)
        self.setWordWrap(True)
        self._heights: dict[int, int] = {}
        self._hint: QSize | None = None

    def forget_sizes(self) -> None:
        self._heights = {}
        self._hint = None

    def setText(self, text: str) -> None:
        self.forget_sizes()
        super().setText(text)

    def setTextFormat(self, text_format: Qt.TextFormat) -> None:
        self.forget_sizes()
        super().setTextFormat(text_format)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self.forget_sizes()
        super().changeEvent(event)

    def heightForWidth(self, width: int) -> int:
        height = self._heights.get(width)
        if height is None:
            height = self._heights[width] = super().heightForWidth(width)
        return height

    def sizeHint(self) -> QSize:
        if self._hint is None:
            self._hint = super().sizeHint()
        return QSize(self._hint)


def heading(text: str, name: str, style: str = "") -> QLabel:
    """A bold section heading (extra CSS in `style`)."""
    label = QLabel(text, objectName=name)
    label.setStyleSheet(f"{HEADING_STYLE} {style}".strip())
    return label


def muted(text: str, name: str, style: str = "") -> QLabel:
    """A grey, wrapped hint such as "nothing here yet"."""
    label = WrappedLabel(text, objectName=name)
    label.setStyleSheet(f"{MUTED_STYLE} {style}".strip())
    return label


class RichTextCard(QFrame):
    """A framed card with one selectable rich-text label; `text` is the label's markup.

    `style` is the CSS of the frame (applied to this object name only, so the label inside
    keeps no border)."""

    def __init__(self, name: str, style: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName(name)
        self.set_style(style)
        self.label = WrappedLabel(objectName=f"{name}Text")
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        vbox(self.label, parent=self, margins=(10, 8, 10, 8))
        self.text = ""

    def set_markup(self, markup: str) -> None:
        self.label.setText(markup)
        self.text = markup

    def set_style(self, style: str) -> None:
        self.setStyleSheet(f"QFrame#{self.objectName()} {{ {style} }} QLabel {{ border: none; background: transparent; }}")
