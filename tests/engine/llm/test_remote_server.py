"""Remote model roles against a real `llama_cpp.server` on 127.0.0.1 with the default GGUF.

One server process per module (with an API key); the fault tests that kill a server or
need TLS start their own. Turns run through the real Engine with a real SQLCipher vault
and the real local model as the fallback.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading

import pytest

from engine.errors import GenerationCancelled
from engine.events import Done, Token
from engine.facade import Engine
from engine.llm.remote import RemoteChatClient, RemoteModelError
from engine.llm.router import RoutedLLM
from engine.llm.runtime import LlamaRuntime
from engine.llm.structured import JUDGE_SCHEMA, validate_judgement
from engine.cancel import CancelToken
from engine.settings import Settings, save_settings
from tests.engine.llm.servers import MODEL_ALIAS, LlamaServer, free_port
from tests.netguard import offline_env

pytestmark = pytest.mark.real_model

TOKEN = "clinic-token-7f3a"
PASSPHRASE = "correct horse battery staple"
QUESTION = [{"role": "user", "content": "What is asthma? Answer in one sentence."}]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = LlamaServer(tmp_path_factory.mktemp("llama_server"), api_key=TOKEN)
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def local():
    runtime = LlamaRuntime()
    yield runtime
    runtime.close()


def remote_settings(url: str, roles=("generate",), **remote) -> Settings:
    settings = Settings.model_validate({"remote": {"enabled": True, "url": url, "model": MODEL_ALIAS,
                                                   "server": "llama-cpp-python", "roles": list(roles),
                                                   "read_timeout_s": 60.0, **remote}})
    settings.vault.kdf_iterations = 10_000
    settings.llm.max_answer_tokens = 96  # short answers keep the local fallback fast on a busy machine
    return settings


def client(url: str, token: str | None = TOKEN, **remote) -> RemoteChatClient:
    settings = remote_settings(url, **remote)
    return RemoteChatClient(settings.remote, settings.llm, token=lambda: token)


def engine_with_vault(tmp_path, settings: Settings, token: str | None = TOKEN) -> Engine:
    engine = Engine(settings, knowledge=None, clinical=None, embedder=None, vault_path=tmp_path / "vault.db")
    engine.patients.unlock(PASSPHRASE, create=True)
    if token:
        engine.models.set_remote_token(token)
    return engine


def run_turn(engine: Engine, text: str, **kwargs) -> tuple[str, dict]:
    streamed, result = [], {}
    for event in engine.ask(text, **kwargs):
        if isinstance(event, Token):
            streamed.append(event.text)
        elif isinstance(event, Done):
            result = event.result
    return "".join(streamed), result


# -- real turns -------------------------------------------------------------------------
def test_agent_and_llm_turns_are_answered_by_the_server_and_stored_in_the_vault(server, tmp_path):
    engine = engine_with_vault(tmp_path, remote_settings(server.url))
    try:
        patient = engine.patients.create_patient("Remote Test")
        before = server.requests_seen()
        streamed, result = run_turn(engine, "What is asthma?", patient_id=patient["id"], mode="llm")
        assert result["answer"].strip() and streamed.strip()
        assert result["trace"]["answered_by"] == {"model": MODEL_ALIAS, "host": f"127.0.0.1:{server.port}",
                                                  "remote": True, "fallback_reason": None}
        _streamed, agent = run_turn(engine, "How is high blood pressure treated?", patient_id=patient["id"])
        assert agent["answer"].strip() and agent["trace"]["answered_by"]["remote"] is True
        assert server.requests_seen() >= before + 2
        session = engine.patients.list_sessions(patient["id"])[0]
        assert [t["user"] for t in engine.patients.session_turns(session["id"])] == [
            "What is asthma?", "How is high blood pressure treated?"]
        assert engine.models.device_info()["remote"]["answered_by"]["host"] == f"127.0.0.1:{server.port}"
    finally:
        engine.close()


def test_every_role_can_be_remote_with_the_schema_sent_and_checked_in_code(server, local):
    routed = RoutedLLM(local, client(server.url, roles=("generate", "classify", "judge", "summarise")),
                       ("generate", "classify", "judge", "summarise"), fallback=False)
    label = routed.classify("classify", "How complex is: what is a cold?", ["simple", "moderate", "complex"])
    assert label in ("simple", "moderate", "complex")
    assert routed.answered_by("classify")["remote"] is True
    raw = routed.complete_json("judge", [{"role": "user", "content": "Judge: 'Asthma is a lung disease.'"}],
                               JUDGE_SCHEMA, max_tokens=200)
    judgement = validate_judgement(raw)
    assert 0.0 <= judgement["overall"] <= 1.0 and len(judgement["missing_info"]) <= 3
    assert routed.answered_by("judge")["remote"] is True
    summary = routed.chat("summarise", [{"role": "user", "content": "Summarise: the patient asked about asthma."}],
                          max_tokens=24)
    assert summary.strip()
    assert routed.remote.info("generate").architecture == "remote"


def test_cancel_stops_a_remote_answer_between_tokens(server):
    remote = client(server.url)
    cancel = CancelToken()
    pieces = []
    with pytest.raises(GenerationCancelled):
        for piece in remote.stream_chat("generate", [{"role": "user", "content": "List twenty fruits."}],
                                        max_tokens=200, cancel=cancel):
            pieces.append(piece)
            if len(pieces) == 3:
                cancel.cancel()
    assert len(pieces) == 3 and remote.last_metrics.cancelled
    assert remote.chat("generate", QUESTION, max_tokens=16).strip()  # the server serves the next request


# -- faults -----------------------------------------------------------------------------
def test_a_wrong_token_falls_back_to_this_desktop_and_says_why(server, tmp_path):
    engine = engine_with_vault(tmp_path, remote_settings(server.url), token="not-the-token")
    try:
        _streamed, result = run_turn(engine, "What is asthma?", mode="llm")
        answered = result["trace"]["answered_by"]
        assert result["answer"].strip()
        assert answered["remote"] is False and answered["host"] == "this desktop"
        assert "token" in answered["fallback_reason"]
    finally:
        engine.close()
    strict = client(server.url, token="not-the-token")
    with pytest.raises(RemoteModelError) as caught:
        strict.chat("generate", QUESTION, max_tokens=8)
    assert caught.value.kind == "auth" and "not-the-token" not in str(caught.value)


def test_without_fallback_a_refused_token_is_a_clear_named_error(server, local):
    routed = RoutedLLM(local, client(server.url, token=None), ("generate",), fallback=False)
    with pytest.raises(RemoteModelError) as caught:
        routed.chat("generate", QUESTION, max_tokens=8)
    assert caught.value.kind == "auth" and "Settings → Models" in caught.value.user_message


def test_a_server_killed_mid_stream_keeps_the_partial_answer_and_the_vault(tmp_path):
    doomed = LlamaServer(tmp_path, api_key=TOKEN)
    engine = engine_with_vault(tmp_path, remote_settings(doomed.url, retry_after_s=60.0))
    try:
        patient = engine.patients.create_patient("Killed Stream")
        first, _ = run_turn(engine, "What is asthma?", patient_id=patient["id"], mode="llm")
        killed = threading.Event()
        streamed, result = [], {}
        for event in engine.ask("Describe the heart in great detail, part by part.", patient_id=patient["id"],
                                mode="llm"):
            if isinstance(event, Token):
                streamed.append(event.text)
                if len(streamed) == 2 and not killed.is_set():
                    doomed.kill()
                    killed.set()
            elif isinstance(event, Done):
                result = event.result
        assert killed.is_set() and result["trace"]["cancelled"] is True
        assert result["trace"]["answered_by"]["remote"] is True
        assert "stopped in the middle" in result["trace"]["answered_by"]["fallback_reason"]
        assert result["answer"].strip() and len(streamed) >= 2
        # the server is now marked down: the next turn runs on this desktop at once
        _next, after = run_turn(engine, "What is asthma?", patient_id=patient["id"], mode="llm")
        assert after["trace"]["answered_by"]["remote"] is False and after["answer"].strip()
        session = engine.patients.list_sessions(patient["id"])[0]
        turns = engine.patients.session_turns(session["id"])
        assert len(turns) == 3 and turns[0]["answer"].strip() == first.strip()
        assert engine.models.has_remote_token()
    finally:
        engine.close()
        doomed.stop()
    reopened = Engine(remote_settings(doomed.url), knowledge=None, clinical=None, embedder=None,
                      vault_path=tmp_path / "vault.db")
    patients = reopened.patients
    patients.unlock(PASSPHRASE)
    assert patients.vault.integrity_problems() == []
    assert len(patients.session_turns(patients.list_sessions(patients.list_patients()[0]["id"])[0]["id"])) == 3
    reopened.close()


def test_the_child_process_reaches_exactly_the_configured_server_and_nothing_else(server, tmp_path):
    """The network guard allows only the server's host:port; the turn goes there and the
    child's attempt at any other port (even on 127.0.0.1) is blocked and recorded."""
    home = tmp_path / "home"
    home.mkdir()
    settings = remote_settings(server.url)
    other_port = free_port()
    script = textwrap.dedent(f"""
        import json, os, socket
        from pathlib import Path
        from engine.facade import Engine
        from engine.settings import load_settings
        engine = Engine(load_settings(), knowledge=None, clinical=None, embedder=None)
        engine.patients.unlock({PASSPHRASE!r}, create=True)
        engine.models.set_remote_token({TOKEN!r})
        result = [e for e in engine.ask("What is asthma?", mode="llm")][-1].result
        other = socket.socket()
        try:
            other.connect(("127.0.0.1", {other_port}))
            blocked = False
        except OSError:
            blocked = True
        print(json.dumps({{"answered_by": result["trace"]["answered_by"], "answer": result["answer"],
                           "blocked": blocked}}))
        engine.close()
    """)
    env, log = offline_env(tmp_path, allow=(f"127.0.0.1:{server.port}",))
    env["CHARTSIDE_HOME"] = str(home)
    save_settings(settings, home / "settings.toml")
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["answered_by"]["remote"] is True and out["answer"].strip()
    assert out["blocked"] is True
    attempts = [block.splitlines()[0] for block in log.read_text().split("\n\n") if block.strip()]
    assert attempts == [f"connect ('127.0.0.1', {other_port})"]
    assert TOKEN not in (home / "settings.toml").read_text()
