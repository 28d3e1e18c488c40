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
from engine.text import HANGUL_SYLLABLE

_H = HANGUL_SYLLABLE

# After the mention, before the next clause boundary. "대상포진이 아닌지 걱정돼요" (worried it may be
# shingles) asks whether, and negates nothing.
_POST_CUE = re.compile(
    rf"없|않|아니|아닌(?!지|가)|아녜|아냐|(?<![{_H}])안\s+[{_H}]|음성|(?<!도)(?<!도\s)괜찮(?:아요|습니다|고|은데|아졌)(?!\s*\?)|무증상|\(-\)"
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


# A test for the condition that came back normal or negative ("독감 검사했는데 음성이에요", "당뇨 검사 결과
# 정상이에요"): the "는데" that would end the clause does not end this one.
_KO_TESTED_NORMAL = re.compile(rf"^\s*(?:이|가|은|는)?\s*검사[{_H}]*\s*(?:[{_H}]+\s+)?(?:결과[{_H}]*\s*)?"
                               r"(?:음성|정상|이상\s*(?:없|무))")


# A condition the patient had and no longer has ("I used to have asthma", "예전에 천식이 있었는데 지금은 괜찮아요"),
# read in the few characters around the mention (`_AROUND`).
_USED_TO_HAVE = re.compile(r"\bused\s+to\s+(?:have|get|suffer\s+from)\s+(?:(?:a|an|the)\s+)?$", re.IGNORECASE)
_HAD_UNTIL_NOW = re.compile(rf"^\s*(?:이|가)?\s*있었(?:는데|지만|고)\s*,?\s*(?:지금은|이제는|요즘은|지금)\s*"
                            r"(?:다\s*)?(?:괜찮|없|나았|안\s*해|멀쩡)")


_AROUND = 30


# A mention in the dative, genitive or instrumental ("통풍에 안 좋은 음식", "두통에 효과 없어요", "당뇨의 합병증은
# 없어요"): what follows denies something else, unless it is catching, suffering or having trouble with the
# illness itself ("감기에 안 걸렸어요", "두통에 시달리지 않아요", "열로 고생하지 않았어요", "어지럼증에는 문제 없어요").
_OBLIQUE = re.compile(rf"^\s*(?:에(?:는|도|게|서)?|의|으로|로|한테)(?![{_H}])")
_CAUGHT = re.compile(rf"걸리|걸렸|걸려|시달리|시달렸|감염|고생|^\s*[{_H}]+\s*(?:별\s*|아무\s*)?문제")


def apply_negation(text: str, mentions: list[Mention]) -> None:
    """Set `negated` on each mention in place."""
    post = _post_negated(text, mentions)
    pre = _pre_negated(text, mentions)
    for mention, after, before in zip(mentions, post, pre):
        mention.negated = mention.negated_form or after or before or _no_longer_had(text, mention)


def _no_longer_had(text: str, mention: Mention) -> bool:
    """A test for it came back normal (`_KO_TESTED_NORMAL`), or a condition or complaint the patient used to
    have (`_USED_TO_HAVE`, `_HAD_UNTIL_NOW`)."""
    after = text[mention.end: mention.end + _AROUND]
    if _KO_TESTED_NORMAL.match(after):
        return True
    return mention.slot in ("condition", "symptom") and bool(
        _USED_TO_HAVE.search(text[max(0, mention.start - _AROUND): mention.start]) or _HAD_UNTIL_NOW.match(after))


def _post_negated(text: str, mentions: list[Mention]) -> list[bool]:
    flags = [False] * len(mentions)
    for index in range(len(mentions) - 1, -1, -1):
        mention = mentions[index]
        following = mentions[index + 1] if index + 1 < len(mentions) else None
        tail = text[mention.end: following.start if following else len(text)]
        clause = _until_boundary(tail)
        if _OBLIQUE.match(tail) and not _CAUGHT.search(clause):
            continue
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


# "변비 안 생기게 하려면", "독감 안 걸리려면", "머릿니 어떻게 없애요": a goal (to prevent it,
# to get rid of it), not a denial; someone asking how to get rid of lice has them.
_GOAL = re.compile(
    r"(?<![가-힣])안\s*(?:생기|걸리|오|나|하|아프|붓|도지)(?:게|도록|려|으려|기\s*위해)"
    r"|(?:생기|걸리|오|나|하|아프|붓|도지)지\s*않(?:게|도록|으려|기\s*위해)"
    r"|없애|없앨|없어지게|없어지도록|없어지려면|없어질까"
)


def _until_boundary(tail: str) -> str:
    """The clause after a mention, with its question mark: "두통은 괜찮아요" denies a headache,
    "타이레놀 괜찮아요?" asks about Tylenol."""
    boundary = _POST_BOUNDARY.search(tail)
    clause = tail[: boundary.end() if boundary.group(0) == "?" else boundary.start()] if boundary else tail
    cut = [m.start() for m in (_PERSISTS.search(clause), _GOAL.search(clause)) if m]
    return clause[: min(cut)] if cut else clause


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


# A medicine the patient no longer takes: stored as a negated (stopped) medication, so the
# profile retracts it rather than listing it as current ("He stopped taking simvastatin",
# "메트포르민은 속이 안 좋아서 끊었어요").
_STOPPED_BEFORE = re.compile(
    r"\b(?:stopped|quit|discontinued|ceased)(?:\s+(?:taking|using|the))?\s*$"
    r"|\bused\s+to\s+(?:take|be\s+on|use)(?:\s+the)?\s*$"
    r"|\b(?:came|come|coming|went|gone|been)\s+off(?:\s+(?:of|the))?\s*$"
    r"|\b(?:took|taken|take|switched|switch|weaned|moved)\s+(?:me|him|her|them|us)\s+off(?:\s+(?:of|the))?\s*$"
    r"|\bno\s+longer\s+(?:on|taking|take|takes|using)(?:\s+the)?\s*$"
    r"|\b(?:not|n't)\s+(?:on|taking)\s+(?:the\s+)?$",
    re.IGNORECASE | re.ASCII,
)
_STOPPED_AFTER_EN = re.compile(
    r"^[^.!?;]{0,25}?\b(?:was|were|has\s+been|have\s+been|got)\s+(?:stopped|discontinued|taken\s+away)\b"
    r"|^\s*(?:any\s*more|anymore)\b",
    re.IGNORECASE | re.ASCII,
)
_STOPPED_AFTER_KO = re.compile(
    r"끊었|끊은\s*지|끊고|끊어서|끊음|중단(?:했|하고|함|한\s*지|됐|되었|하였)|그만\s*(?:먹|복용|드시|뒀|두었)"
    r"|(?<![가-힣])안\s*(?:먹고\s*있|먹어요|먹습니다|먹는\s*중|드시고\s*있|드세요)|먹지\s*않고\s*있|복용(?:을|하지)?\s*(?:안|않|그만)"
)
# A question or a plan about stopping is not a stop ("Can I quit taking it?", "그만 먹어도 되나요?").
_STOP_ASKED_EN = re.compile(r"\b(?:can|could|should|shall|may|might|must|will|would|to|if|whether)\s+(?:\w+\s+){0,2}?(?:quit|stop|come\s+off|go\s+off)\b", re.IGNORECASE | re.ASCII)
_STOP_ASKED_KO = re.compile(r"^[가-힣]{0,3}(?:도\s*(?:되|괜찮)|야\s*(?:하|할|되)|을까|ㄹ까|려고|려는|고\s*싶|면\s|라고\s*하|으라)")
# Between the medicine and a Korean cue, a verb of taking means the cue belongs to something else
# ("아스피린 먹고 담배는 끊었어요").
_STILL_TAKING = re.compile(r"(?:먹|복용하|드시|쓰)(?:고\s*있|는데|고\s|며|면서)")
_SENTENCE_END = re.compile(r"[.!?\n]")


def mark_discontinued(text: str, mentions: list[Mention]) -> None:
    """Set `negated` on medication mentions the text says were stopped, in place."""
    medications = [(i, m) for i, m in enumerate(mentions) if m.slot == "medication"]
    for position, (index, mention) in enumerate(medications):
        previous_end = mentions[index - 1].end if index else 0
        before = _last_words(text[previous_end: mention.start], MAX_PRE_CUE_WORDS)
        sentence_end = _SENTENCE_END.search(text, mention.end)
        next_medication = medications[position + 1][1].start if position + 1 < len(medications) else len(text)
        stop = min(sentence_end.start() if sentence_end else len(text), next_medication)
        after = text[mention.end: stop]
        korean_cue = _STOPPED_AFTER_KO.search(after)
        if korean_cue and (_STILL_TAKING.search(after[: korean_cue.start()]) or _STOP_ASKED_KO.match(after[korean_cue.end():])):
            korean_cue = None
        english_cue = (_STOPPED_BEFORE.search(before) and not _STOP_ASKED_EN.search(before)) or _STOPPED_AFTER_EN.match(after)
        if english_cue or korean_cue:
            mention.negated = True
