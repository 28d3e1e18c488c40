"""The engine's areas, each owning its state and its lock (composed by `engine.facade.Engine`).

- `patients.PatientsManager` (`engine.patients`): the encrypted vault, patients, sessions,
  profile facts and exports.
- `knowledge.KnowledgeManager` (`engine.kb`): the one open knowledge base and its search
  service; every change to them under its lock.
- `models.ModelsManager` (`engine.models`): installed models, device info, the clinic
  model server.
- `turns.TurnsManager` (`engine.turns`): answering a turn, cancelling it, the response cache
  and the per-session conversation memories.
"""
