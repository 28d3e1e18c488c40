"""tiktoken finds encodings through the `tiktoken_ext` namespace package (plugins)."""

from PyInstaller.utils.hooks import collect_data_files, collect_submodules

hiddenimports = collect_submodules("tiktoken_ext")
datas = collect_data_files("tiktoken_ext", include_py_files=False)
