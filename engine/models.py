"""The model manifest: which model files exist, where they come from, and their sha256.

Default models come from packages (installed with `--require-hashes`); clinics add GGUF
files with `chartside models add`, recorded in `models.toml` in the data directory.
Every load verifies the file's sha256 against the manifest first (cached per process by
path, size and mtime so repeated loads do not re-hash).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import ModelUnavailable, ModelVerificationError
from engine.paths import bundle_root, is_frozen, models_dir
from engine.settings import data_dir

ROLES = ("generate", "classify", "judge", "summarise", "embed", "tokenize")
USER_MANIFEST = "models.toml"


@dataclass(frozen=True)
class ModelEntry:
    name: str
    kind: str
    roles: tuple[str, ...]
    sha256: str
    size: int
    licence: str
    path: str
    package: str | None = None
    package_version: str | None = None
    module: str | None = None
    weights: str | None = None
    chat_format: str | None = None
    languages: tuple[str, ...] = ()
    parameters: int | None = None
    context_length: int | None = None
    dimension: int | None = None
    extra: dict = field(default_factory=dict, compare=False)

    @classmethod
    def from_dict(cls, data: dict) -> "ModelEntry":
        known = {f for f in cls.__dataclass_fields__ if f != "extra"}
        values = {k: v for k, v in data.items() if k in known}
        values["roles"] = tuple(values.get("roles", ()))
        values["languages"] = tuple(values.get("languages", ()))
        return cls(**values, extra={k: v for k, v in data.items() if k not in known})

    def to_dict(self) -> dict:
        out = {k: getattr(self, k) for k in self.__dataclass_fields__ if k != "extra"}
        out["roles"] = list(self.roles)
        out["languages"] = list(self.languages)
        return {k: v for k, v in out.items() if v is not None}

    @property
    def source(self) -> str:
        if self.package:
            return f"package {self.package}=={self.package_version} : {self.path}"
        return f"local file {self.path}"

    def location(self) -> Path:
        """Where the model lives on this machine (a file, or a folder for embeddings)."""
        if self.module:
            bundled = bundle_root() / self.module
            if is_frozen() and bundled.is_dir():
                return bundled / self.path
            spec = importlib.util.find_spec(self.module)
            if spec is None or not spec.submodule_search_locations:
                raise ModelUnavailable(
                    f"model {self.name}: package {self.package} is not installed "
                    f"(run `make models`)"
                )
            return Path(next(iter(spec.submodule_search_locations))) / self.path
        return Path(self.path)

    def weights_file(self) -> Path:
        """The file whose sha256 is recorded (the GGUF itself, or the folder's weights)."""
        loc = self.location()
        return loc / self.weights if self.weights else loc


def _read(path: Path) -> list[ModelEntry]:
    if not path.exists():
        return []
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return [ModelEntry.from_dict(item) for item in data.get("model", [])]


def user_manifest_path() -> Path:
    return data_dir() / USER_MANIFEST


def load_manifest() -> list[ModelEntry]:
    """Built-in entries first, then the clinic's own (a clinic entry may not shadow one)."""
    builtin = _read(models_dir() / "manifest.toml")
    names = {m.name for m in builtin}
    return builtin + [m for m in _read(user_manifest_path()) if m.name not in names]


def get_model(name: str) -> ModelEntry:
    for entry in load_manifest():
        if entry.name == name:
            return entry
    raise ModelUnavailable(f"no model named {name!r} in the manifest")


def models_for_role(role: str) -> list[ModelEntry]:
    return [m for m in load_manifest() if role in m.roles]


def sha256_file(path: Path, chunk: int = 1 << 20) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(chunk):
            digest.update(block)
    return digest.hexdigest()


_verified: dict[tuple[str, int, int], str] = {}


def verify(entry: ModelEntry) -> Path:
    """Check presence, size and sha256; return the model location or raise."""
    weights = entry.weights_file()
    if not weights.exists():
        raise ModelUnavailable(f"model {entry.name}: {weights} is missing")
    stat = weights.stat()
    if stat.st_size != entry.size:
        raise ModelVerificationError(
            f"model {entry.name}: size {stat.st_size} != manifest {entry.size} ({weights})"
        )
    key = (str(weights), stat.st_size, stat.st_mtime_ns)
    digest = _verified.get(key) or sha256_file(weights)
    if digest != entry.sha256:
        raise ModelVerificationError(
            f"model {entry.name}: sha256 {digest} != manifest {entry.sha256}"
        )
    _verified[key] = digest
    return entry.location()


def forget_verifications() -> None:
    """Drop the per-process sha256 digests, so the next `verify` hashes the file again as on a
    first start (`chartside bench llm` times that load)."""
    _verified.clear()


def add_user_model(entry: ModelEntry) -> Path:
    """Append (or replace) a clinic model entry in the user manifest, atomically."""
    path = user_manifest_path()
    entries = [m for m in _read(path) if m.name != entry.name] + [entry]
    text = "".join(_entry_toml(m) for m in entries)
    tmp = path.with_suffix(".toml.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return path


def _entry_toml(entry: ModelEntry) -> str:
    from engine.settings import _toml_value

    lines = ["[[model]]"]
    lines += [f"{k} = {_toml_value(v)}" for k, v in entry.to_dict().items()]
    return "\n".join(lines) + "\n\n"
