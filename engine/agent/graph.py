"""A tiny declarative graph runner (no framework).

A node is a named function `node(state, services) -> dict` (the state update), or a
generator function that yields `engine.events.Event`s (streamed tokens, alerts, sources)
and *returns* its update. Edges map each node to the next node's name, or to a `Branch`
whose router picks among named targets from the state. The runner applies updates, emits
`NodeStarted`/`NodeFinished` with timings around every node, and stops with an error after
`step_limit` steps, so a routing bug can never loop forever.
"""

from __future__ import annotations

import inspect
import time
from dataclasses import dataclass
from typing import Callable, Iterator

from engine.events import Event, NodeFinished, NodeStarted

START = "__start__"
END = "__end__"

Node = Callable[..., object]


@dataclass(frozen=True)
class Branch:
    """A conditional edge: `router(state)` returns one of `targets` (a label -> node map)."""

    router: Callable[[object], str]
    targets: dict[str, str]

    def next(self, state) -> str:
        label = self.router(state)
        if label not in self.targets:
            raise ValueError(f"router {self.router.__name__} returned unknown label {label!r}")
        return self.targets[label]


class GraphError(RuntimeError):
    """A malformed graph or a run that exceeded its step limit (a bug, never user input)."""


class Graph:
    def __init__(self, name: str, nodes: dict[str, Node], edges: dict[str, str | Branch], *, step_limit: int = 32):
        self.name = name
        self.nodes = dict(nodes)
        self.edges = dict(edges)
        self.step_limit = step_limit
        self._check()

    def _check(self) -> None:
        if START not in self.edges:
            raise GraphError(f"graph {self.name}: no edge from {START}")
        for source, edge in self.edges.items():
            if source != START and source not in self.nodes:
                raise GraphError(f"graph {self.name}: edge from unknown node {source!r}")
            targets = edge.targets.values() if isinstance(edge, Branch) else [edge]
            for target in targets:
                if target != END and target not in self.nodes:
                    raise GraphError(f"graph {self.name}: edge {source!r} -> unknown node {target!r}")
        missing = set(self.nodes) - set(self.edges)
        if missing:
            raise GraphError(f"graph {self.name}: node(s) without an outgoing edge: {sorted(missing)}")

    def next_node(self, current: str, state) -> str:
        edge = self.edges[current]
        return edge.next(state) if isinstance(edge, Branch) else edge

    def run(self, state, services) -> Iterator[Event]:
        """Run from START to END, yielding every event; `state` holds the result afterwards."""
        current = self.next_node(START, state)
        steps = 0
        while current != END:
            steps += 1
            if steps > self.step_limit:
                raise GraphError(f"graph {self.name}: more than {self.step_limit} steps (last node {current})")
            yield NodeStarted(current)
            started = time.perf_counter()
            update = yield from _call(self.nodes[current], state, services)
            state.apply(update)
            elapsed = (time.perf_counter() - started) * 1000
            state.nodes.append(current)
            state.timings_ms[current] = round(state.timings_ms.get(current, 0.0) + elapsed, 3)
            following = self.next_node(current, state)
            yield NodeFinished(current, round(elapsed, 3), {"next": following})
            current = following

    def mermaid(self) -> str:
        """The graph as a Mermaid flowchart (for the docs and the GUI's pipeline view)."""
        lines = ["flowchart TD", f"    {START}([start])", f"    {END}([end])"]
        lines += [f"    {name}[{name}]" for name in self.nodes]
        for source, edge in self.edges.items():
            if isinstance(edge, Branch):
                for label, target in edge.targets.items():
                    lines.append(f"    {source} -->|{label}| {target}")
            else:
                lines.append(f"    {source} --> {edge}")
        return "\n".join(lines) + "\n"


def _call(node: Node, state, services):
    """Run a node; a generator node's yielded events pass through and its return is the update."""
    if inspect.isgeneratorfunction(node):
        return (yield from node(state, services))
    return node(state, services)
