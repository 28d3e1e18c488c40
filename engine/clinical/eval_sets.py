"""The team's labelled extraction and triage sets (resources/clinical/eval/): where they are and how they are read.

The similar-emergency check reads them at run time; `engine.bench.clinical_scores` scores against them.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.clinical.lexicon import lexicon_dir


def eval_dir() -> Path:
    return lexicon_dir() / "eval"


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
