"""Answer text → Markdown where citations `[1]` link to the sources panel (`cite:1`)."""

from __future__ import annotations

import re

CITATION = re.compile(r"\[(\d{1,2})\](?!\()")
SCHEME = "cite"


def link_citations(answer: str, source_count: int) -> str:
    """Turn `[n]` into a Markdown link when source n exists; leave other brackets alone."""

    def replace(match: re.Match) -> str:
        number = int(match.group(1))
        if 1 <= number <= source_count:
            return f"[\\[{number}\\]]({SCHEME}:{number})"
        return match.group(0)

    return CITATION.sub(replace, answer)


def citation_number(url: str) -> int | None:
    """`cite:3` → 3; anything else → None."""
    scheme, _, rest = url.partition(":")
    if scheme == SCHEME and rest.isdigit():
        return int(rest)
    return None
