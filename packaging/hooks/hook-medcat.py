"""MedCAT registers its components (tokenizers, linkers, NER) by name and imports them
when a model pack is loaded, so import analysis misses them; Chartside's Hangul tokenizer
is one of those components."""

from PyInstaller.utils.hooks import collect_data_files, collect_submodules, copy_metadata

hiddenimports = collect_submodules(
    "medcat", filter=lambda name: not name.startswith(("medcat.utils.download", "medcat.tests"))
) + ["engine.clinical.hangul"]
datas = collect_data_files("medcat") + copy_metadata("medcat")
