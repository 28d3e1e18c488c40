"""sentence-transformers imports model modules by name from saved configs and reads its
version from package metadata."""

from PyInstaller.utils.hooks import collect_data_files, collect_submodules, copy_metadata

hiddenimports = collect_submodules("sentence_transformers", filter=lambda name: ".tests" not in name)
datas = collect_data_files("sentence_transformers") + copy_metadata("sentence-transformers")
