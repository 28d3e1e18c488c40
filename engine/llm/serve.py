"""A llama-cpp-python model server (`python -m llama_cpp.server`) on this machine's loopback.

Used by `chartside bench server` and the remote-role tests: it serves a manifest GGUF
model (sha256-verified first) on 127.0.0.1 through the same OpenAI-compatible API a
clinic's GPU box offers. llama_cpp.server answers one request at a time (it has no
parallel slots); llama.cpp's own `llama-server --parallel N` batches N at once. Its
default, `interrupt_requests`, cuts the running answer off whenever another request
arrives, so one desktop would end another's answer: it is switched off here.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from engine.models import get_model, verify
from engine.settings import LLMSettings

MODEL_ALIAS = "smollm2-server"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LlamaServer:
    """`python -m llama_cpp.server` on 127.0.0.1 with a manifest GGUF (the default one unless
    `model` names another); ready when the constructor returns; `stop()` or `kill()` ends it."""

    def __init__(self, log_dir: Path, *, api_key: str | None = None, certificate: tuple[Path, Path] | None = None,
                 n_ctx: int = 4096, model: str | None = None, alias: str = MODEL_ALIAS, n_threads: int = 1):
        self.port = free_port()
        self.api_key = api_key
        self.scheme = "https" if certificate else "http"
        self.url = f"{self.scheme}://127.0.0.1:{self.port}"
        self.log_path = log_dir / f"llama_server_{self.port}.log"
        self.alias = alias
        model_path = verify(get_model(model or LLMSettings().generate_model))
        command = [sys.executable, "-m", "llama_cpp.server", "--model", str(model_path), "--model_alias", alias,
                   "--host", "127.0.0.1", "--port", str(self.port), "--n_ctx", str(n_ctx), "--seed", "42",
                   "--n_threads", str(n_threads), "--interrupt_requests", "False"]
        if api_key:
            command += ["--api_key", api_key]
        if certificate:
            command += ["--ssl_certfile", str(certificate[0]), "--ssl_keyfile", str(certificate[1])]
        self._log = open(self.log_path, "wb")
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(command, stdout=self._log, stderr=subprocess.STDOUT, env=env,
                                        start_new_session=True)
        self._wait_ready()

    def _wait_ready(self, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"llama_cpp.server exited: {self.log_path.read_text(errors='replace')[-2000:]}")
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.2)
        raise RuntimeError("llama_cpp.server did not start in time")

    def requests_seen(self, path: str = "/v1/chat/completions") -> int:
        """How many requests for `path` the server logged (uvicorn's access log)."""
        self._log.flush()
        return self.log_path.read_text(errors="replace").count(f"POST {path}")

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def __enter__(self) -> "LlamaServer":
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
        self._log.close()


