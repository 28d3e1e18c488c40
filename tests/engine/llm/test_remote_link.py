"""The link to a model server: TLS pin and CA against a real llama_cpp.server with a
self-signed certificate, and a misbehaving stub server (slow, malformed JSON, redirect,
gone) for timeouts, protocol errors and the local fallback with the real local model."""

from __future__ import annotations

import time

import pytest

from engine.errors import ConfigError
from engine.llm.remote import RemoteChatClient, RemoteModelError
from engine.llm.router import RoutedLLM
from engine.llm.runtime import LlamaRuntime
from engine.llm.tls import pem_certificate_sha256
from engine.settings import Settings
from tests.engine.llm.servers import MODEL_ALIAS, LlamaServer, StubServer, free_port, self_signed

pytestmark = pytest.mark.real_model

QUESTION = [{"role": "user", "content": "What is asthma? Answer in one sentence."}]
WRONG_PIN = "ab" * 32


def remote(url: str, **fields) -> RemoteChatClient:
    settings = Settings.model_validate({"remote": {"enabled": True, "url": url, "model": MODEL_ALIAS,
                                                   "server": "llama-cpp-python", **fields}})
    return RemoteChatClient(settings.remote, settings.llm)


@pytest.fixture(scope="module")
def certificates(tmp_path_factory):
    directory = tmp_path_factory.mktemp("tls")
    return {"server": self_signed(directory, "server"), "other": self_signed(directory, "other")}


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory, certificates):
    srv = LlamaServer(tmp_path_factory.mktemp("tls_server"), certificate=certificates["server"])
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def local():
    runtime = LlamaRuntime()
    yield runtime
    runtime.close()


# -- TLS ----------------------------------------------------------------------------------
def test_the_pinned_certificate_is_accepted(tls_server, certificates):
    pin = pem_certificate_sha256(certificates["server"][0].read_text())
    client = remote(tls_server.url, tls_pin_sha256=pin)
    assert client.chat("generate", QUESTION, max_tokens=12).strip()


def test_the_clinic_ca_file_is_accepted(tls_server, certificates):
    client = remote(tls_server.url, ca_file=str(certificates["server"][0]))
    assert MODEL_ALIAS in client.check()


@pytest.mark.parametrize("trust", ["pin", "ca"])
def test_a_wrong_certificate_is_refused_before_the_prompt_is_sent(tls_server, certificates, trust):
    before = tls_server.requests_seen()
    fields = {"tls_pin_sha256": WRONG_PIN} if trust == "pin" else {"ca_file": str(certificates["other"][0])}
    client = remote(tls_server.url, **fields)
    with pytest.raises(RemoteModelError) as caught:
        client.chat("generate", QUESTION, max_tokens=8)
    assert caught.value.kind == "certificate" and "Nothing was sent" in caught.value.user_message
    assert tls_server.requests_seen() == before


def test_https_needs_a_pin_or_a_ca_and_plain_http_only_on_loopback():
    with pytest.raises(ValueError, match="tls_pin_sha256 or remote.ca_file"):
        Settings.model_validate({"remote": {"enabled": True, "url": "https://gpu.clinic.lan:8443", "model": "m"}})
    with pytest.raises(ValueError, match="https on the network"):
        Settings.model_validate({"remote": {"enabled": True, "url": "http://192.168.0.20:8080", "model": "m"}})
    with pytest.raises(ValueError, match="credentials"):
        Settings.model_validate({"remote": {"enabled": True, "url": "https://u:p@gpu.lan", "model": "m",
                                            "tls_pin_sha256": WRONG_PIN}})
    pinned = Settings.model_validate({"remote": {"enabled": True, "url": "https://gpu.lan:8443", "model": "m",
                                                 "tls_pin_sha256": ":".join(["AB"] * 32)}})
    assert pinned.remote.tls_pin_sha256 == WRONG_PIN
    assert Settings().remote.enabled is False
    with pytest.raises(ConfigError):
        remote("https://127.0.0.1:9", ca_file="/nonexistent/ca.pem")


# -- a misbehaving server --------------------------------------------------------------
@pytest.fixture
def stub():
    servers = []

    def start(mode: str, delay: float = 3.0) -> StubServer:
        servers.append(StubServer(mode, delay))
        return servers[-1]
    yield start
    for server in servers:
        server.stop()


def test_a_slow_server_times_out_with_a_named_error(stub):
    slow = stub("slow", delay=3.0)
    started = time.perf_counter()
    with pytest.raises(RemoteModelError) as caught:
        remote(slow.url, read_timeout_s=0.5).chat("generate", QUESTION)
    assert caught.value.kind == "timeout" and "0.5 s" in caught.value.user_message
    assert time.perf_counter() - started < 2.5


def test_a_slow_server_falls_back_to_the_local_model_and_is_rested(stub, local):
    slow = stub("slow", delay=3.0)
    routed = RoutedLLM(local, remote(slow.url, read_timeout_s=0.5), ("generate", "classify"), retry_after_s=60)
    answer = routed.chat("generate", QUESTION, max_tokens=16)
    assert answer.strip()
    answered = routed.answered_by("generate")
    assert answered["remote"] is False and "went silent" in answered["fallback_reason"]
    label = routed.classify("classify", "How complex is: what is a cold?", ["simple", "moderate", "complex"])
    assert label in ("simple", "moderate", "complex")
    assert len(slow.requests) == 1  # the server is rested: the classification went straight to this desktop
    assert routed.info("generate").architecture != "remote"


def test_malformed_json_is_a_protocol_error_or_the_local_fallback(stub, local):
    broken = stub("malformed")
    with pytest.raises(RemoteModelError) as caught:
        remote(broken.url).chat("generate", QUESTION)
    assert caught.value.kind == "protocol" and "not valid JSON" in caught.value.user_message
    routed = RoutedLLM(local, remote(broken.url), ("classify",))
    label = routed.classify("classify", "How complex is: what is a cold?", ["simple", "moderate", "complex"])
    assert label in ("simple", "moderate", "complex")
    assert routed.answered_by("classify")["remote"] is False


def test_redirects_are_not_followed(stub):
    redirecting = stub("redirect")
    with pytest.raises(RemoteModelError) as caught:
        remote(redirecting.url).chat("generate", QUESTION)
    assert caught.value.kind == "refused" and "redirect" in caught.value.user_message
    assert len(redirecting.requests) == 1


def test_an_unreachable_server_falls_back_quickly(local):
    routed = RoutedLLM(local, remote(f"http://127.0.0.1:{free_port()}", connect_timeout_s=1.0), ("generate",))
    started = time.perf_counter()
    assert routed.chat("generate", QUESTION, max_tokens=8).strip()
    assert routed.answered_by("generate")["fallback_reason"].startswith("The model server cannot be reached")
    assert time.perf_counter() - started < 30


def test_the_request_carries_the_schema_the_token_and_no_proxy(stub, monkeypatch):
    ok = stub("ok")
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")
    monkeypatch.setenv("ALL_PROXY", "http://127.0.0.1:9")
    settings = Settings.model_validate({"remote": {"enabled": True, "url": ok.url, "model": "m",
                                                   "server": "llama-server"}})
    client = RemoteChatClient(settings.remote, settings.llm, token=lambda: "s3cret")
    schema = {"type": "object", "properties": {"label": {"type": "string", "enum": ["a", "b"]}}, "required": ["label"]}
    assert client.chat("classify", QUESTION, grammar_schema=schema) == "Stub answer."
    request = ok.requests[-1]
    assert request["headers"]["Authorization"] == "Bearer s3cret"
    assert request["body"]["response_format"]["json_schema"]["schema"] == schema
    assert request["body"]["stream"] is True
