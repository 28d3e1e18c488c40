"""Block every network connection in a subprocess and record each attempt.

Used as `sitecustomize` in child processes (see `offline_env`): any attempt to resolve a
host or to connect an internet socket is written to CHARTSIDE_NETGUARD_LOG and fails.
Unix-domain sockets stay allowed (local IPC is not network). `allow` names the only
`host:port` pairs a child may reach (a configured model server); every other address,
even another port of the same host, is still blocked and recorded.
"""

from __future__ import annotations

import os

GUARD_SOURCE = '''
import os, socket, traceback
_LOG = os.environ["CHARTSIDE_NETGUARD_LOG"]
_ALLOW = {tuple(item.rsplit(":", 1)) for item in os.environ.get("CHARTSIDE_NETGUARD_ALLOW", "").split(",") if item}

def _allowed(address):
    return isinstance(address, tuple) and len(address) >= 2 and (str(address[0]), str(address[1])) in _ALLOW

def _record(what):
    with open(_LOG, "a") as f:
        f.write(what + "\\n" + "".join(traceback.format_stack(limit=8)) + "\\n")
    raise OSError("network access blocked by the test: " + what)

_connect = socket.socket.connect
_connect_ex = socket.socket.connect_ex
_create_connection = socket.create_connection
_getaddrinfo = socket.getaddrinfo

def _guarded_connect(self, address):
    if self.family == getattr(socket, "AF_UNIX", None) or _allowed(address):
        return _connect(self, address)
    _record("connect %r" % (address,))

def _guarded_connect_ex(self, address):
    if self.family == getattr(socket, "AF_UNIX", None) or _allowed(address):
        return _connect_ex(self, address)
    _record("connect_ex %r" % (address,))

socket.socket.connect = _guarded_connect
socket.socket.connect_ex = _guarded_connect_ex
socket.create_connection = lambda address, *a, **k: (
    _create_connection(address, *a, **k) if _allowed(address) else _record("create_connection %r" % (address,)))
socket.getaddrinfo = lambda host, port=None, *a, **k: (
    _getaddrinfo(host, port, *a, **k) if _allowed((host, port)) else _record("getaddrinfo %r" % (host,)))
socket.gethostbyname = lambda host: _record("gethostbyname %r" % (host,))
'''


def offline_env(tmp_path, base_env: dict | None = None, allow: tuple[str, ...] = ()) -> tuple[dict, "os.PathLike"]:
    """Environment for a child process with the guard installed; returns (env, log path).
    `allow`: the `host:port` addresses the child may connect to (nothing else)."""
    guard_dir = tmp_path / "netguard"
    guard_dir.mkdir(exist_ok=True)
    (guard_dir / "sitecustomize.py").write_text(GUARD_SOURCE)
    log = tmp_path / "network_attempts.log"
    env = dict(base_env or os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(guard_dir), env.get("PYTHONPATH", "")]))
    env["CHARTSIDE_NETGUARD_LOG"] = str(log)
    env["CHARTSIDE_NETGUARD_ALLOW"] = ",".join(allow)
    for key in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "MEDCAT_DISABLE_VERSION_CHECK"):
        env.pop(key, None)  # the engine itself must set them
    return env, log


