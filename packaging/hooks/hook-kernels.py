"""`kernels` (imported by transformers 5.x) reads `_internals/python_depends.json` beside its modules when
imported; without it the frozen app fails with "Cannot load dependency data, is `kernels` correctly installed?"."""

from PyInstaller.utils.hooks import collect_data_files, copy_metadata

datas = collect_data_files("kernels", includes=["**/*.json"]) + copy_metadata("kernels")
