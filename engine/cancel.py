"""The one cancel token of the engine, for generation, index builds, imports and exports.

Set from any thread (a GUI button, a signal handler); the long call checks it between
tokens or batches and stops with an `engine.errors.Cancelled` subclass. The token is also
callable, so it can be passed wherever a `cancelled() -> bool` callback is expected.
"""

from __future__ import annotations

import threading


class CancelToken:
    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def __call__(self) -> bool:
        return self._event.is_set()
