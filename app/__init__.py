"""Chartside desktop app (PySide6) over the engine facade `engine.facade.Engine`.

The GUI talks only to the facade, runs every engine call in a worker thread
(`app.workers.EngineRunner`) and turns engine events into Qt signals.
"""
