"""Adding a GGUF model a clinic copied in: check it, read its metadata, record it."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Callable, Sequence

from engine.errors import InputError, ModelUnavailable
from engine.llm.runtime import ROLES
from engine.models import ModelEntry, add_user_model, load_manifest

GGUF_MAGIC = b"GGUF"
Progress = Callable[[int, int, str], None]


def read_gguf_metadata(path: Path) -> dict:
    """Metadata of a GGUF file, read by llama.cpp itself (vocabulary only, no weights)."""
    _check_magic(path)
    from llama_cpp import Llama

    try:
        llama = Llama(model_path=str(path), vocab_only=True, verbose=False)
    except (ValueError, RuntimeError, OSError) as exc:
        raise ModelUnavailable(f"{path.name} is not a loadable GGUF model: {exc}") from exc
    try:
        return dict(llama.metadata or {})
    finally:
        llama.close()


def _check_magic(path: Path) -> None:
    if not path.is_file():
        raise InputError(f"{path} does not exist or is not a file", user_message="The model file was not found.")
    with open(path, "rb") as handle:
        if handle.read(4) != GGUF_MAGIC:
            raise InputError(f"{path.name} is not a GGUF file", user_message="This file is not a GGUF model.")


def _sha256_with_progress(path: Path, progress: Progress | None) -> str:
    total = path.stat().st_size
    digest, done = hashlib.sha256(), 0
    with open(path, "rb") as handle:
        while block := handle.read(8 << 20):
            digest.update(block)
            done += len(block)
            if progress:
                progress(done, total, "verifying")
    return digest.hexdigest()


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "model"


def _test_load(path: Path) -> None:
    from llama_cpp import Llama

    try:
        llama = Llama(model_path=str(path), n_ctx=256, n_gpu_layers=0, verbose=False)
        llama.eval(llama.tokenize(b"Hello", add_bos=True))
        llama.close()
    except (ValueError, RuntimeError, OSError) as exc:
        raise ModelUnavailable(f"{path.name} failed a test load: {exc}") from exc


def add_gguf_model(
    path: Path,
    *,
    roles: Sequence[str] | None = None,
    name: str | None = None,
    licence: str = "unknown",
    load_check: bool = True,
    select: bool = False,
    progress: Progress | None = None,
) -> ModelEntry:
    """Verify that `path` is a loadable GGUF model and record it in the user manifest."""
    path = Path(path).expanduser().resolve()
    roles = tuple(roles or ROLES)
    unknown = set(roles) - set(ROLES)
    if unknown:
        raise InputError(f"unknown role(s): {', '.join(sorted(unknown))}")
    metadata = read_gguf_metadata(path)
    arch = metadata.get("general.architecture", "")
    name = name or _slug(metadata.get("general.name") or path.stem)
    if any(m.name == name and m.package for m in load_manifest()):
        raise InputError(f"{name} is a built-in model name; choose another with --name")
    sha256 = _sha256_with_progress(path, progress)
    if load_check:
        _test_load(path)
    entry = ModelEntry(
        name=name,
        kind="gguf",
        roles=roles,
        sha256=sha256,
        size=path.stat().st_size,
        licence=licence,
        path=str(path),
        chat_format=None if metadata.get("tokenizer.chat_template") else "chatml",
        context_length=_int(metadata.get(f"{arch}.context_length")),
        parameters=_int(metadata.get("general.parameter_count")),
        extra={"architecture": arch},
    )
    add_user_model(entry)
    if select:
        from engine.settings import load_settings, save_settings

        settings = load_settings()
        for role in roles:
            setattr(settings.llm, f"{role}_model", name)
        save_settings(settings)
    return entry


def _int(value: object) -> int | None:
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        return None
