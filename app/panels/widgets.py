"""What the panels share: headings, muted hints, framed rich-text cards and layouts
written as one expression (`vbox(...)`, `hbox(...)`)."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
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


def heading(text: str, name: str, style: str = "") -> QLabel:
    """A bold section heading (extra CSS in `style`)."""
    label = QLabel(text, objectName=name)
    label.setStyleSheet(f"{HEADING_STYLE} {style}".strip())
    return label


def muted(text: str, name: str, style: str = "") -> QLabel:
    """A grey, wrapped hint such as "nothing here yet"."""
    label = QLabel(text, objectName=name, wordWrap=True)
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
        self.label = QLabel(wordWrap=True, objectName=f"{name}Text")
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        vbox(self.label, parent=self, margins=(10, 8, 10, 8))
        self.text = ""

    def set_markup(self, markup: str) -> None:
        self.label.setText(markup)
        self.text = markup

    def set_style(self, style: str) -> None:
        self.setStyleSheet(f"QFrame#{self.objectName()} {{ {style} }} QLabel {{ border: none; background: transparent; }}")
