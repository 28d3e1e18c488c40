"""No import cycles in the engine or the GUI, not even through imports inside functions
(import-linter's layer contracts check the direction between packages; this checks every
module). A function-level import is for loading a heavy library late, never for breaking a cycle."""

from __future__ import annotations

import grimp


def test_no_module_imports_itself_back():
    graph = grimp.build_graph("engine", "app")
    cycles = set()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            chain = graph.find_shortest_chain(importer=imported, imported=module)
            if chain:
                cycles.add(" -> ".join((module, *chain)))
    assert not cycles, sorted(cycles)
