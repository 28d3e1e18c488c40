"""llama-cpp-python loads `llama_cpp/lib/libllama.so` with ctypes, so PyInstaller's import
analysis never sees it ("Shared library with base name 'llama' not found" in frozen apps).
Ship libllama and the ggml libraries it links by soname; leave out libmtmd (multimodal,
imported only by llava chat handlers Chartside never uses)."""

from pathlib import Path

from PyInstaller.utils.hooks import get_package_paths

_, package_dir = get_package_paths("llama_cpp")
lib = Path(package_dir) / "lib"
WANTED = ("libllama.so", "libggml.so.0", "libggml-base.so.0", "libggml-cpu.so.0",
          "llama.dll", "ggml.dll", "ggml-base.dll", "ggml-cpu.dll", "libllama.dylib")
binaries = [(str(lib / name), "llama_cpp/lib") for name in WANTED if (lib / name).exists()]
excludedimports = ["llama_cpp.server", "llama_cpp.mtmd_cpp", "llama_cpp.llava_cpp"]
