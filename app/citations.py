"""Answer text → Markdown where citations `[1]` link to the sources panel.

A `[n]` links `cite:n`. With the turn's sentence records (the support check's `sentences`),
the `[n]` that closes a sourced sentence links `cite:n:i`, `i` being that sentence's index
in the records, so a click can show the source sentence that backs it. A sentence the
support check did not back is not in the answer, so it has no `[n]` and no link.
"""

from __future__ import annotations

import re

CITATION = re.compile(r"\[(\d{1,2})\](?!\()")
# What may stand between a sentence and its [n]: a space, the closing quote of a quoted
# source sentence (the Korean frame quotes the English evidence), a bracket.
_MARKER_AFTER = re.compile(r"[\s\"'”’)]{0,3}\[(\d{1,2})\]")
SCHEME = "cite"


def sentence_markers(answer: str, sentences: list[dict] | None) -> dict[int, int]:
    """Offset of each `[n]` that closes a sourced sentence → that sentence's record index."""
    found: dict[int, int] = {}
    cursor = 0
    for index, record in enumerate(sentences or []):
        source = record.get("source")
        text = str(record.get("text") or "").strip()
        if record.get("kind") != "sourced" or source is None or not text:
            continue
        at = answer.find(text, cursor)
        if at < 0:
            at = answer.find(text)
        if at < 0:
            continue
        marker = _MARKER_AFTER.match(answer, at + len(text))
        if marker and int(marker.group(1)) == int(source):
            found[marker.start(1) - 1] = index
            cursor = marker.end()
    return found


def link_citations(answer: str, source_count: int, sentences: list[dict] | None = None) -> str:
    """Turn `[n]` into a Markdown link when source n exists; leave other brackets alone."""
    markers = sentence_markers(answer, sentences)

    def replace(match: re.Match) -> str:
        number = int(match.group(1))
        if not 1 <= number <= source_count:
            return match.group(0)
        index = markers.get(match.start())
        target = f"{SCHEME}:{number}" if index is None else f"{SCHEME}:{number}:{index}"
        return f"[\\[{number}\\]]({target})"

    return CITATION.sub(replace, answer)


def citation_target(url: str) -> tuple[int, int | None] | None:
    """`cite:3` → (3, None); `cite:3:5` → (3, 5); anything else → None."""
    scheme, _, rest = url.partition(":")
    parts = rest.split(":")
    if scheme != SCHEME or not all(part.isdigit() for part in parts) or len(parts) > 2:
        return None
    return int(parts[0]), (int(parts[1]) if len(parts) == 2 else None)


def citation_number(url: str) -> int | None:
    """`cite:3` (or `cite:3:5`) → 3; anything else → None."""
    target = citation_target(url)
    return target[0] if target else None
