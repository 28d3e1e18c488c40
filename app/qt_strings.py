"""Qt's own dialog strings that the Korean catalogue shipped with PySide6 (`qtbase_ko.qm`)
lacks: it predates Qt 6 renaming them (e.g. "Look in:" became "&Look in:"), so the save
dialog showed them in English. Listed here under Qt's own context, `pyside6-lupdate` puts
them into `chartside_ko.ts`; Qt asks our translator when its own has no entry."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

QT_CATALOGUE_GAPS = (
    QT_TRANSLATE_NOOP("QFileDialog", "&Look in:"),
    QT_TRANSLATE_NOOP("QFileDialog", "Files of &type:"),
)
