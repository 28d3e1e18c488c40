"""The models area: installed models, the device, and the clinic model server's link."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

from engine.container import ServiceContainer
from engine.errors import ChartsideError
from engine.managers.patients import PatientsManager
from engine.settings import Settings

Progress = Callable[[int, int, str], None]


class ModelsManager:
    def __init__(self, container: ServiceContainer, patients: PatientsManager):
        self._container = container
        self._patients = patients

    def installed(self) -> list[dict]:
        """Every model of the manifest, with its roles and whether its file verifies."""
        from engine.models import load_manifest, verify

        rows = []
        for entry in load_manifest():
            try:
                verify(entry)
                verified = True
            except ChartsideError:
                verified = False
            rows.append({**entry.to_dict(), "roles": list(entry.roles), "verified": verified})
        return rows

    def add(self, path, roles, progress: Progress | None = None) -> dict:
        from engine.llm.gguf import add_gguf_model

        entry = add_gguf_model(Path(path), roles=roles, progress=progress)
        return {**entry.to_dict(), "roles": list(entry.roles), "verified": True}

    def device_info(self) -> dict:
        settings = self._container.settings
        info: dict = {"n_gpu_layers": settings.llm.n_gpu_layers, "threads": settings.llm.n_threads or None,
                      "model": settings.llm.generate_model, "gpu_offload_supported": False}
        try:
            import llama_cpp

            info["gpu_offload_supported"] = bool(llama_cpp.llama_supports_gpu_offload())
            info["llama_cpp_version"] = getattr(llama_cpp, "__version__", "")
        except (ImportError, AttributeError):
            info["llama_cpp_version"] = None
        llm = self._container.llm_loaded
        if llm is not None:
            loaded = llm.info("generate")
            info.update(model=loaded.name, n_ctx=loaded.n_ctx, model_load_seconds=round(loaded.load_seconds, 3))
        if settings.remote.enabled:
            from engine.llm.remote import server_address

            _scheme, host, port = server_address(settings.remote.url)
            info["remote"] = {"host": f"{host}:{port}", "model": settings.remote.model,
                              "roles": list(settings.remote.roles), "answered_by": self.answered_by("generate")}
        return info

    # -- the clinic model server (off by default) --------------------------------------
    def answered_by(self, role: str = "generate") -> dict | None:
        """Which model on which machine served `role` last (None before any call or without a server)."""
        llm = self._container.llm_loaded
        return llm.answered_by(role) if llm is not None else None

    def remote_token(self) -> str | None:
        """The server's bearer token, read from the vault for each request (none while locked)."""
        from engine.memory.secrets import REMOTE_TOKEN, SecretStore

        vault = self._patients.open_vault
        return SecretStore(vault).get(REMOTE_TOKEN) if vault is not None else None

    def set_remote_token(self, token: str | None) -> None:
        """Keep the model server's bearer token in the vault (None or empty removes it)."""
        from engine.memory.secrets import REMOTE_TOKEN, SecretStore

        secrets = SecretStore(self._patients.vault)
        if token and token.strip():
            secrets.set(REMOTE_TOKEN, token.strip())
        else:
            secrets.delete(REMOTE_TOKEN)

    def has_remote_token(self) -> bool:
        return self._patients.open_vault is not None and self.remote_token() is not None

    def check_remote(self, settings: Settings | None = None) -> dict:
        """Reach the configured server once (`GET /v1/models`): its models, or why not."""
        from engine.llm.remote import RemoteChatClient, RemoteModelError

        settings = settings or self._container.settings
        client = RemoteChatClient(settings.remote, settings.llm, token=self.remote_token)
        started = time.perf_counter()
        try:
            models = client.check()
        except RemoteModelError as exc:
            return {"ok": False, "host": client.host, "kind": exc.kind, "message": exc.user_message}
        finally:
            client.close()
        return {"ok": True, "host": client.host, "models": models, "model_offered": settings.remote.model in models,
                "ms": round((time.perf_counter() - started) * 1000, 1)}
