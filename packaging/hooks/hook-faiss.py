"""faiss picks its SWIG module at run time by CPU features; ship every variant present."""

from PyInstaller.utils.hooks import collect_submodules

hiddenimports = collect_submodules("faiss", filter=lambda name: "swigfaiss" in name or name.count(".") == 1)
