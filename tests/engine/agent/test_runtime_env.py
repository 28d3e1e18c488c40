import sys

import pytest

from engine.agent import runtime_env


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator")
def test_freed_memory_goes_back_to_the_system_on_glibc():
    big = bytearray(200 * 2**20)
    del big
    assert runtime_env._malloc_trim() is not None
    runtime_env.release_freed_memory()


def test_releasing_memory_is_a_no_op_without_glibc(monkeypatch):
    monkeypatch.setattr(runtime_env.sys, "platform", "win32")
    runtime_env._malloc_trim.cache_clear()
    try:
        assert runtime_env._malloc_trim() is None
        runtime_env.release_freed_memory()
    finally:
        runtime_env._malloc_trim.cache_clear()
