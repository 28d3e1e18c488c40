"""The agent: the ten-node turn graph, token-budgeted context, self-refine,
the guarded response cache and the ablation harness.

    pipeline.run_turn(text, services)  -> events, ending with Done(turn result)
    pipeline.agent_graph / llm_graph   -> the two graphs; pipeline_mermaid() draws one
    services.AgentServices             -> what the nodes use; wiring.* adapts the real services

The facade (`engine.facade.Engine`) is the only caller outside tests and benchmarks.
The node order, and how to add a node or a service: docs/ARCHITECTURE.md.
"""
