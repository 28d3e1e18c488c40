import pytest

from engine.llm.runtime import LlamaRuntime
from engine.settings import LLMSettings


@pytest.fixture(scope="session")
def runtime():
    """The real default GGUF model, loaded once for the session."""
    rt = LlamaRuntime(LLMSettings())
    yield rt
    rt.close()
