"""Chartside engine: a plain Python package (no Qt) behind one facade.

Importing the package applies the offline switches before anything else is imported.
The layers, one turn's data flow and where each concept lives: docs/ARCHITECTURE.md.
"""

from engine import offline as _offline  # noqa: F401  (side effect: offline switches)

__version__ = "0.1.0"
