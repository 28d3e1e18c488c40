"""Model servers for the remote-role tests, all on 127.0.0.1.

- `LlamaServer` (engine.llm.serve): a real `python -m llama_cpp.server` process with the
  default GGUF (optionally with an API key and a TLS certificate);
- `StubServer`: a tiny threaded HTTP server that misbehaves on purpose (slow, malformed
  JSON, redirects) and counts the requests it got;
- `self_signed(tmp_path)`: a certificate and key for 127.0.0.1 from the openssl CLI.
"""

from __future__ import annotations

import json
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from engine.llm.serve import MODEL_ALIAS, LlamaServer, free_port

__all__ = ["MODEL_ALIAS", "LlamaServer", "StubServer", "free_port", "self_signed"]


def self_signed(directory: Path, name: str = "server") -> tuple[Path, Path]:
    """(certificate, key) PEM files for CN/SAN 127.0.0.1, valid one day."""
    cert, key = directory / f"{name}.crt", directory / f"{name}.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    return cert, key


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
                try:
                    self._stream()
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up first (a timeout or a cancelled turn): nobody is left to answer

            def _stream(self):
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
