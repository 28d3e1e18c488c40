"""Negation of concept mentions, in Korean, English and mixed text.

Korean negates after the finding ("열은 없어요", "기침은 안 해요", "두통은 아니고");
English mostly before it ("no fever", "denies chest pain", "without nausea"), sometimes
after ("fever: none", "chest pain denied"). A cue reaches the nearest mention on its side
and spreads along a list ("열이나 기침은 없어요", "no fever, chills or cough") but not
across a clause boundary ("열이 있는데 기침은 없어요", "no fever but a bad cough").
"""

from __future__ import annotations

import re

from engine.clinical.mentions import Mention
from engine.clinical.text import HANGUL_SYLLABLE

_H = HANGUL_SYLLABLE

# After the mention, before the next clause boundary.
_POST_CUE = re.compile(
    rf"없|않|아니|아닌|아녜|아냐|(?<![{_H}])안\s+[{_H}]|음성|괜찮(?:아요|습니다|고|은데|아졌)(?!\s*\?)|무증상|\(-\)"
    r"|\b(?:none|denied|denies|absent|negative)\b|:\s*(?:no|neg|-)\s*(?:[.,;]|$)",
    re.IGNORECASE | re.ASCII,
)
# Clause boundaries after a mention: a positive existence verb, contrastive, causal,
# conditional and temporal endings, sentence punctuation.
_POST_BOUNDARY = re.compile(
    rf"있|는데|지만|인데|어서|아서|해서|니까|으니|그리고|그런데|근데|하고\s|이고\s|고\s+[{_H}]+[^{_H}]"
    rf"|면\s|면서|때|후에|후\s|전에|다가|[.!?;\n]|\b(?:but|however|with|has|have|had|when|if|after)\b",
    re.IGNORECASE | re.ASCII,
)
_PRE_CUE = re.compile(
    r"\b(?:no|not|denies|denied|deny|denying|without|never|negative\s+for|free\s+of|absence\s+of|"
    r"no\s+history\s+of|no\s+signs?\s+of|no\s+evidence\s+of|rules?\s+out|ruled\s+out|no\s+longer|"
    r"(?:do|does|did)(?:\s+not|n't)\s+(?:have|get|feel|experience|take)|"
    r"(?:don't|doesn't|didn't|haven't|hasn't|havent|dont|doesnt|didnt|never)"
    r"(?:\s+(?:have|had|get|got|feel|felt|experience|experienced|notice|noticed|take|taken|been\s+having))?|"
    r"isn't|wasn't|aren't|weren't|nor|neither)\b",
    re.IGNORECASE | re.ASCII,
)
_PRE_BREAK = re.compile(
    r"\b(?:but|however|although|though|except|apart\s+from|yet|which|who|because|since|with|has|have|had|and\s+(?:am|is|get|got|now))\b|[.!?;:]|그리고|하지만",
    re.IGNORECASE | re.ASCII,
)
_LIST_CONNECTOR = re.compile(
    r"^[\s,/·]*(?:(?:이나|나|이랑|랑|하고|과|와|및|또는|혹은|이며|도|,|or|and|nor|/|&)[\s,]*)*"
    r"(?:이나|나|이랑|랑|하고|과|와|도|은|는|이|가)?[\s,]*$",
    re.IGNORECASE | re.ASCII,
)
MAX_PRE_CUE_WORDS = 5


def apply_negation(text: str, mentions: list[Mention]) -> None:
    """Set `negated` on each mention in place."""
    post = _post_negated(text, mentions)
    pre = _pre_negated(text, mentions)
    for mention, after, before in zip(mentions, post, pre):
        mention.negated = mention.negated_form or after or before


def _post_negated(text: str, mentions: list[Mention]) -> list[bool]:
    flags = [False] * len(mentions)
    for index in range(len(mentions) - 1, -1, -1):
        mention = mentions[index]
        following = mentions[index + 1] if index + 1 < len(mentions) else None
        tail = text[mention.end: following.start if following else len(text)]
        clause = _until_boundary(tail)
        if _POST_CUE.search(clause):
            flags[index] = True
        elif following is not None and _LIST_CONNECTOR.match(tail) and flags[index + 1]:
            flags[index] = True
    return flags


# "두통이 안 나아요", "열이 떨어지지 않아요": the finding persists; not a negation.
_PERSISTS = re.compile(
    r"(?:없어지|사라지|나아지|낫|멈추|가라앉|떨어지|좋아지|줄어들|내리)지\s*(?:가\s*|는\s*)?않"
    r"|(?<![가-힣])안\s+(?:나아|낫|나았|좋아지|좋아져|떨어지|떨어져|떨어졌|멈춰|멈추|멈췄|가라앉|없어지|없어져|줄어|내려|사라)"
)


def _until_boundary(tail: str) -> str:
    boundary = _POST_BOUNDARY.search(tail)
    clause = tail[: boundary.start()] if boundary else tail
    persists = _PERSISTS.search(clause)
    return clause[: persists.start()] if persists else clause


def _pre_negated(text: str, mentions: list[Mention]) -> list[bool]:
    flags = [False] * len(mentions)
    for index, mention in enumerate(mentions):
        previous = mentions[index - 1] if index else None
        head = text[previous.end if previous else 0: mention.start]
        window = _last_words(head, MAX_PRE_CUE_WORDS)
        cues = list(_PRE_CUE.finditer(window))
        if cues and not _PRE_BREAK.search(window[cues[-1].end():]):
            flags[index] = True
        elif previous is not None and flags[index - 1] and _LIST_CONNECTOR.match(head):
            flags[index] = True
    return flags


def _last_words(head: str, count: int) -> str:
    words = head.split()
    if len(words) <= count:
        return head
    return " ".join(words[-count:]) + (" " if head.endswith(" ") else "")
