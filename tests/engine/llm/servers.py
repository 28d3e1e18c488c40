"""Model servers for the remote-role tests, all on 127.0.0.1.

- `LlamaServer`: a real `python -m llama_cpp.server` process with the default GGUF
  (optionally with an API key and a TLS certificate);
- `StubServer`: a tiny threaded HTTP server that misbehaves on purpose (slow, malformed
  JSON, redirects) and counts the requests it got;
- `self_signed(tmp_path)`: a certificate and key for 127.0.0.1 from the openssl CLI.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx

from engine.models import get_model
from engine.settings import LLMSettings

MODEL_ALIAS = "smollm2-server"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def self_signed(directory: Path, name: str = "server") -> tuple[Path, Path]:
    """(certificate, key) PEM files for CN/SAN 127.0.0.1, valid one day."""
    cert, key = directory / f"{name}.crt", directory / f"{name}.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    return cert, key


class LlamaServer:
    """`python -m llama_cpp.server` with the default GGUF, started and stopped by the test."""

    def __init__(self, log_dir: Path, *, api_key: str | None = None, certificate: tuple[Path, Path] | None = None,
                 n_ctx: int = 4096):
        self.port = free_port()
        self.api_key = api_key
        self.scheme = "https" if certificate else "http"
        self.url = f"{self.scheme}://127.0.0.1:{self.port}"
        self.log_path = log_dir / f"llama_server_{self.port}.log"
        model = get_model(LLMSettings().generate_model).location()
        command = [sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--model_alias", MODEL_ALIAS,
                   "--host", "127.0.0.1", "--port", str(self.port), "--n_ctx", str(n_ctx), "--seed", "42",
                   "--n_threads", "1"]
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

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
        self._log.close()


def chunk(text: str | None = None, finish: str | None = None) -> bytes:
    delta = {"content": text} if text is not None else {}
    body = {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    return f"data: {json.dumps(body)}\n\n".encode()


class StubServer:
    """A misbehaving OpenAI-compatible server. `mode`: slow | malformed | redirect | ok."""

    def __init__(self, mode: str = "ok", delay: float = 3.0):
        self.mode = mode
        self.delay = delay
        self.requests: list[dict] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802  (http.server's naming)
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                stub.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                if stub.mode == "redirect":
                    self.send_response(307)
                    self.send_header("Location", "http://127.0.0.1:9/v1/chat/completions")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if stub.mode == "slow":
                    time.sleep(stub.delay)
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                if stub.mode == "malformed":
                    self.wfile.write(b'data: {"choices": [{"delta": {"content": "Hel\n\n')
                    self.wfile.write(b"data: [DONE]\n\n")
                    return
                for word in ("Stub ", "answer."):
                    self.wfile.write(chunk(word))
                self.wfile.write(chunk(finish="stop"))
                self.wfile.write(b"data: [DONE]\n\n")

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def chat_ok(url: str, **kwargs) -> bool:
    """Whether the server answers /v1/models (used to prove a server is up)."""
    try:
        return httpx.get(f"{url}/v1/models", trust_env=False, timeout=5, **kwargs).status_code < 500
    except httpx.HTTPError:
        return False
