"""One typed settings tree, stored as TOML in the user data directory.

`CHARTSIDE_HOME` overrides the data directory (tests and scripts). Every feature flag
named in docs/ARCHITECTURE.md lives in `FeatureFlags` so ablation runs can switch it off; the
defaults are the full system.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Literal

from platformdirs import user_data_dir
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from engine.errors import ConfigError
from engine.paths import private_dir

APP_NAME = "Chartside"
SETTINGS_FILE = "settings.toml"


def data_dir() -> Path:
    """The user data directory: `CHARTSIDE_HOME` if set, else the platform's default.
    It holds the vault, so it is owner-only (0700), and tightened if it was not."""
    home = os.environ.get("CHARTSIDE_HOME")
    path = Path(home) if home else Path(user_data_dir(APP_NAME, appauthor=False))
    return private_dir(path)


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class FeatureFlags(_Section):
    """Switches for ablation runs. Names are what `--flags name=value` accepts."""

    response_cache: bool = True
    active_retrieval: bool = True
    slot_extraction: bool = True
    profile_memory: bool = True
    hierarchical_memory: bool = True
    profile_query_rewrite: bool = True
    query_expansion: bool = True
    bm25: bool = True
    dense: bool = True
    compression: bool = True
    self_refine: bool = True
    heuristic_judge_for_small_models: bool = True
    triage: bool = True
    conflict_alerts: bool = True


class LLMSettings(_Section):
    """Which model serves each role and how llama.cpp runs it."""

    backend: Literal["llama-cpp", "fake"] = Field(
        "llama-cpp", description="fake: the scripted FakeLLM answering every call with a fixed reply (demos, GUI tests)")
    generate_model: str = "smollm2-135m-instruct-q4_1"
    classify_model: str = "smollm2-135m-instruct-q4_1"
    judge_model: str = "smollm2-135m-instruct-q4_1"
    summarise_model: str = "smollm2-135m-instruct-q4_1"
    n_ctx: int = Field(4096, ge=256, le=131072)
    n_threads: int = Field(0, ge=0, description="0 = all physical cores")
    n_gpu_layers: int = Field(0, ge=-1, description="-1 = offload every layer")
    n_batch: int = Field(512, ge=8)
    seed: int = 42
    temperature: float = Field(0.2, ge=0.0, le=2.0)
    top_p: float = Field(0.9, gt=0.0, le=1.0)
    repeat_penalty: float = Field(1.1, ge=1.0, le=2.0)
    max_answer_tokens: int = Field(384, ge=8, le=8192)
    chat_format: str | None = Field(None, description="override the GGUF chat template")
    verify_sha256_on_load: bool = True
    generation_context_apart: bool | None = Field(
        None, description="answers get their own llama.cpp context, so judge and classification calls do not "
                          "evict the cached safety prompt; None = only without GPU offload (a second context "
                          "holds its own copy of the offloaded layers)")


REMOTE_SERVERS = ("llama-server", "llama-cpp-python", "ollama", "vllm")
LOOPBACK_HOSTS = ("127.0.0.1", "::1", "localhost")


class RemoteModelSettings(_Section):
    """An OpenAI-compatible chat server on the clinic network that answers some LLM roles.

    Off by default. The bearer token is kept in the vault, never here. `https` needs the
    server certificate's sha256 pin or the clinic CA file; plain `http` is refused except
    on this machine's loopback address (prompts can hold patient data).
    """

    enabled: bool = False
    url: str = Field("", description="base address, e.g. https://gpu-box.clinic.lan:8443")
    server: Literal["llama-server", "llama-cpp-python", "ollama", "vllm"] = Field(
        "llama-server", description="decides how the JSON-schema constraint is sent")
    model: str = Field("", description="the model name the server knows (its /v1/models id)")
    roles: list[Literal["generate", "classify", "judge", "summarise"]] = ["generate"]
    tls_pin_sha256: str = Field("", description="sha256 of the server certificate (DER), hex")
    ca_file: str = Field("", description="the clinic CA certificate (PEM) that signed the server certificate")
    connect_timeout_s: float = Field(3.0, gt=0.0, le=60.0)
    read_timeout_s: float = Field(60.0, gt=0.0, le=600.0, description="longest silence between two tokens")
    fallback_to_local: bool = Field(True, description="answer with this desktop's model when the server fails")
    retry_after_s: float = Field(30.0, ge=0.0, description="after a failure, the local model answers this long")
    n_ctx: int = Field(4096, ge=256, le=131072, description="the server model's context size")
    parameters: int | None = Field(None, ge=1, description="the server model's size (judge: heuristic below 1B)")
    languages: list[str] = Field(["en", "ko"], description="languages the server model writes")

    @field_validator("tls_pin_sha256")
    @classmethod
    def _pin(cls, value: str) -> str:
        cleaned = value.replace(":", "").strip().lower()
        if cleaned and (len(cleaned) != 64 or any(c not in "0123456789abcdef" for c in cleaned)):
            raise ValueError("tls_pin_sha256 must be 64 hex digits (colons allowed)")
        return cleaned

    @model_validator(mode="after")
    def _secure_link(self) -> "RemoteModelSettings":
        if not self.enabled:
            return self
        from urllib.parse import urlsplit

        parts = urlsplit(self.url)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.path.strip("/") not in ("", "v1"):
            raise ValueError("remote.url must look like https://host:port (optionally ending in /v1)")
        if parts.username or parts.password or parts.query or parts.fragment:
            raise ValueError("remote.url may not carry credentials, a query or a fragment (the token is in the vault)")
        if parts.scheme == "http" and parts.hostname not in LOOPBACK_HOSTS:
            raise ValueError("remote.url must use https on the network (plain http only to 127.0.0.1)")
        if parts.scheme == "https" and not (self.tls_pin_sha256 or self.ca_file):
            raise ValueError("https needs remote.tls_pin_sha256 or remote.ca_file")
        if not self.model:
            raise ValueError("remote.model must name the server's model")
        return self


class EmbeddingSettings(_Section):
    model: str = "all-minilm-l6-v2"
    batch_size: int = Field(64, ge=1)
    max_seq_length: int = Field(256, ge=16, le=512, description="queries")
    document_max_seq_length: int = Field(128, ge=16, le=512, description="knowledge-base chunks")
    backend: Literal["torch", "torch-int8"] = Field(
        "torch-int8", description="torch-int8: dynamic int8 Linear layers, ~2x faster on CPU"
    )


class RetrievalSettings(_Section):
    rrf_k: int = Field(60, ge=1)
    bm25_weight: float = Field(0.4, ge=0.0, description="RRF weight; chosen on LiveQA, see engine/knowledge/README.md")
    dense_weight: float = Field(1.0, ge=0.0)
    bm25_k1: float = 1.5
    bm25_b: float = 0.75
    dense_index: Literal["flat", "hnsw", "ivf"] = "flat"
    chunk_tokens: int = Field(256, ge=32, le=1024)
    k_simple: int = 3
    k_moderate: int = 8
    k_complex: int = 15
    compression: Literal["extractive", "abstractive", "hybrid"] = "extractive"


class CacheSettings(_Section):
    similarity_threshold: float = Field(0.85, ge=0.0, le=1.0)
    max_entries: int = Field(1000, ge=1)
    ttl_seconds: int = Field(24 * 3600, ge=1)


class RefineSettings(_Section):
    quality_threshold: float = Field(0.5, ge=0.0, le=1.0)
    max_iterations: int = Field(2, ge=0, le=5)
    duplicate_jaccard: float = Field(0.8, ge=0.0, le=1.0)
    min_improvement: float = Field(0.05, ge=0.0, le=1.0)
    weights: tuple[float, float, float] = (0.4, 0.3, 0.3)
    small_model_params: int = Field(1_000_000_000, description="below this, heuristic judge")


class ContextSettings(_Section):
    total_budget: int = Field(4000, ge=512)
    system_tokens: int = Field(400, ge=50)
    documents_tokens: int = Field(900, ge=0)
    profile_share: float = Field(0.2, ge=0.0, le=1.0)
    long_term_share: float = Field(0.1, ge=0.0, le=1.0)
    generation_reserve: int = Field(512, ge=16)


class MemorySettings(_Section):
    working_turns: int = Field(5, ge=1)
    summarise_every: int = Field(5, ge=1)
    summary_tokens: int = Field(200, ge=32)
    decay_per_hour: dict[str, float] = {
        "vitals": 0.1,
        "labs": 0.05,
        "symptoms": 0.02,
        "medications": 0.005,
        "conditions": 0.001,
        "allergies": 0.0,
    }
    tier_shares: tuple[float, float, float] = Field(
        (0.5, 0.3, 0.2), description="history budget split of HierarchicalMemory.retrieve_context (working, "
                                     "compressed, semantic); agent turns use the context section's shares instead"
    )
    related_turns: int = Field(3, ge=0, description="older turns recalled by embedding similarity")


class VaultSettings(_Section):
    kdf_iterations: int = Field(
        256_000,
        ge=10_000,
        description="PBKDF2-HMAC-SHA512 iterations; a vault opens only with the count it was created with",
    )
    synchronous: Literal["NORMAL", "FULL"] = Field("FULL", description="FULL: a returned commit survives power loss")
    idle_lock_minutes: int = Field(10, ge=0)


class AnswerSettings(_Section):
    """Who writes the answer: the composer (sentences of the sources, each cited), the model
    (guarded by the sentence support check), or the composer with a model-phrased lead.
    `auto`: the composer for models below `refine.small_model_params`, else the model."""

    writer: Literal["auto", "composer", "model", "composer+model"] = "auto"
    support_check: bool = True
    support_threshold: float = Field(0.6, ge=0.0, le=1.0)


class UISettings(_Section):
    language: Literal["ko", "en"] = "ko"


class Settings(_Section):
    mode: Literal["agent", "llm"] = "agent"
    features: FeatureFlags = FeatureFlags()
    llm: LLMSettings = LLMSettings()
    embedding: EmbeddingSettings = EmbeddingSettings()
    retrieval: RetrievalSettings = RetrievalSettings()
    cache: CacheSettings = CacheSettings()
    refine: RefineSettings = RefineSettings()
    context: ContextSettings = ContextSettings()
    memory: MemorySettings = MemorySettings()
    vault: VaultSettings = VaultSettings()
    answer: AnswerSettings = AnswerSettings()
    ui: UISettings = UISettings()
    remote: RemoteModelSettings = RemoteModelSettings()

    def with_flags(self, overrides: dict[str, object]) -> "Settings":
        """A copy with feature flags overridden, e.g. from `--flags self_refine=false`."""
        unknown = set(overrides) - set(FeatureFlags.model_fields)
        if unknown:
            raise ConfigError(f"unknown feature flag(s): {', '.join(sorted(unknown))}")
        flags = self.features.model_copy(update={})
        for name, value in overrides.items():
            setattr(flags, name, value)
        return self.model_copy(update={"features": flags})


VAULT_FILE = "vault.db"


def default_vault_path() -> Path:
    """The encrypted patient store. Here rather than in engine.memory.store so that asking
    whether a store exists (the app's first question) imports no database library."""
    return data_dir() / VAULT_FILE


def settings_path() -> Path:
    return data_dir() / SETTINGS_FILE


def load_settings(path: Path | None = None) -> Settings:
    """Read the settings file; a missing file means defaults."""
    path = path or settings_path()
    if not path.exists():
        return Settings()
    try:
        return Settings.model_validate(tomllib.loads(path.read_text(encoding="utf-8")))
    except (tomllib.TOMLDecodeError, ValidationError) as exc:
        raise ConfigError(f"{path}: {exc}") from exc


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write the settings atomically (temp file in the same directory, then rename)."""
    path = path or settings_path()
    text = _to_toml(settings.model_dump(mode="json"))
    tmp = path.with_suffix(".toml.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return path


def parse_flags(text: str) -> dict[str, object]:
    """Parse `name=value,name=value` (booleans true/false/1/0/on/off)."""
    result: dict[str, object] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, sep, raw = item.partition("=")
        if not sep:
            raise ConfigError(f"flag {item!r} must look like name=value")
        lowered = raw.strip().lower()
        if lowered in {"true", "1", "on", "yes"}:
            result[name.strip()] = True
        elif lowered in {"false", "0", "off", "no"}:
            result[name.strip()] = False
        else:
            raise ConfigError(f"flag {name.strip()!r} needs true or false, got {raw!r}")
    return result


def _to_toml(data: dict, prefix: str = "") -> str:
    """Minimal TOML writer for the settings tree (tables, scalars, flat lists, dicts)."""
    scalars, tables = [], []
    for key, value in data.items():
        if value is None:
            continue
        if isinstance(value, dict) and all(not isinstance(v, dict) for v in value.values()) and prefix:
            tables.append((key, value))
        elif isinstance(value, dict):
            tables.append((key, value))
        else:
            scalars.append(f"{key} = {_toml_value(value)}")
    out = []
    if scalars:
        if prefix:
            out.append(f"[{prefix}]")
        out.extend(scalars)
        out.append("")
    for key, value in tables:
        out.append(_to_toml(value, f"{prefix}.{key}" if prefix else key))
    return "\n".join(out)


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return '""'
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    escaped = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'
