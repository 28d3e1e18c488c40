"""Korean/English UI through Qt translations.

English is the source language in the code (`self.tr("...")`). The Korean catalogue is
`resources/i18n/chartside_ko.ts` (Qt Linguist format), compiled to `chartside_ko.qm` with
`pyside6-lrelease` (`python -m app.i18n --release`). Qt's own strings (standard buttons,
file dialogs) come from the `qtbase_ko.qm` that PySide6 ships; the few it lacks are listed
in `app.qt_strings` and translated in our catalogue.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QLibraryInfo, QTranslator
from PySide6.QtWidgets import QApplication

from engine.paths import resources_dir

LANGUAGES = {"ko": "한국어", "en": "English"}
CATALOGUE = "chartside"
_current = "en"


def current_language() -> str:
    """The UI language now installed ("en" or "ko"): what engine texts that come in both
    languages (alert messages) are shown in."""
    return _current


def i18n_dir() -> Path:
    return resources_dir() / "i18n"


def catalogue_path(language: str, suffix: str = ".qm") -> Path:
    return i18n_dir() / f"{CATALOGUE}_{language}{suffix}"


class UiLanguage:
    """Installs and swaps the app's translators for one language at a time."""

    def __init__(self, app: QApplication):
        self._app = app
        self._translators: list[QTranslator] = []
        self.language = "en"

    def set(self, language: str) -> bool:
        """Switch to `language`; return False when its catalogue could not be loaded."""
        for translator in self._translators:
            self._app.removeTranslator(translator)
        self._translators.clear()
        self.language = language if language in LANGUAGES else "en"
        global _current
        _current = self.language
        if self.language == "en":
            return True
        own = QTranslator(self._app)
        loaded = own.load(str(catalogue_path(self.language)))
        if loaded:
            self._app.installTranslator(own)
            self._translators.append(own)
        qt_own = QTranslator(self._app)
        if qt_own.load(f"qtbase_{self.language}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
            self._app.installTranslator(qt_own)
            self._translators.append(qt_own)
        return loaded


def _tool(name: str) -> str:
    found = shutil.which(name) or str(Path(sys.executable).with_name(name))
    return found


def update_catalogue(language: str = "ko") -> None:
    """Refresh the .ts from the sources (new strings appear as unfinished)."""
    sources = sorted(str(p) for p in (Path(__file__).parent).rglob("*.py"))
    subprocess.run([_tool("pyside6-lupdate"), *sources, "-no-obsolete", "-locations", "none",
                    "-ts", str(catalogue_path(language, ".ts"))], check=True)


def release_catalogue(language: str = "ko") -> None:
    """Compile the .ts into the .qm the app loads."""
    subprocess.run([_tool("pyside6-lrelease"), str(catalogue_path(language, ".ts")),
                    "-qm", str(catalogue_path(language))], check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.i18n", description=__doc__)
    parser.add_argument("--update", action="store_true", help="run pyside6-lupdate over app/")
    parser.add_argument("--release", action="store_true", help="compile the .ts to .qm")
    args = parser.parse_args(argv)
    if args.update:
        update_catalogue()
    if args.release:
        release_catalogue()
    return 0


if __name__ == "__main__":
    sys.exit(main())
