"""Sentence support: is each sentence of an answer backed by a sentence of a cited passage?

An answer is split into sentences; every sentence that states something is compared with
every sentence of the passages the prompt carried:
- English: content-word overlap (the BM25 tokenizer's stems) and the cosine of the
  sentence embeddings (the engine's own sentence-transformers model), averaged;
- another language (a Korean sentence against English passages): the share of the
  sentence's clinical concept ids that the passage sentence also names;
- in both cases the numbers of the sentence must all occur in the passage sentence, the
  two must agree on negation, and every medical word of the sentence (engine.text's
  vocabulary) must occur in that passage, or the pair does not count.
The best passage sentence is the sentence's support; below the threshold the sentence is
unsupported. Alerts, profile facts, the "when to get help now" guidance and the standing
notices are deterministic text of the engine and are marked as such (`kind`), not scored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Sequence

import numpy as np

from engine.agent.prompting import clean_citations
from engine.text import (
    has_hangul,
    is_negated,
    latin_words,
    medical_words,
    numbers,
    split_answer_sentences,
    split_passage_sentences,
    tokenize,
)

SOURCED, ALERT, PROFILE, NOTICE = "sourced", "alert", "profile", "notice"
# The engine's "when to get help now" line (engine.agent.care_guidance): deterministic, not sourced.
GUIDANCE = "guidance"
# The `reason` of the notice that says unsupported sentences were left out: a reader that
# shows the count itself (the desktop's support note) hides this line.
LEFT_OUT = "left out"
DEFAULT_THRESHOLD = 0.6
LEXICAL_WEIGHT = 0.5
# Below this share of its content stems in the source sentence, a sentence is a different
# claim however close its embedding ("gout is caused by a virus" vs "... uric acid").
MIN_LEXICAL = 0.4
_CITATION = re.compile(r"\s*\[(\d{1,2})\]")
# Knowledge-base text keeps list items inline ("if you - Are a man - Drink alcohol").
# Not a dash between two numbers: "for 3 - 6 weeks" is a range.
_INLINE_BULLET = re.compile(r"(?:^|(?<!\d)\s+)[-*•]\s+(?=[A-Za-z0-9(])|(?<=\d)\s+[-*•]\s+(?=[A-Za-z(])")
# An item may name itself before a dash ("- Skin - itching, hives, redness, swelling", "- Clean - always
# wash your fruits …"): a short name, then a description in lower case. The two are one item.
_TITLE_WORDS = 6
_DESCRIPTION_WORDS = 3
# Items past this many are left out of the evidence (nothing can quote them); symptom lists often run to
# ten or more ("… Frequent bowel movements or diarrhea; Weight loss; …"), and eight cut them.
_MAX_LIST_ITEMS = 12
ITEM_SENTENCE_WORDS = 5
# It also lost its line breaks: a section heading runs into the sentence after it ("Signs and
# Symptoms of Anemia The most common symptom ..."), and a list into its lead-in ("include:
# Shortness of breath Dizziness Headache ... These signs ..."). A heading is a run of
# capitalised words (small joining words aside) before a sentence opener and a lower-case word.
_HEADING_JOINERS = frozenset("a an and or of for the to in on with without at by from vs as like".split())
_SENTENCE_OPENERS = frozenset("The A An This These Those It Its If When Most Many Some People You Your "
                              "There Each All Other To".split())
_LIST_CUE = re.compile(r"\b(?:include|includes|including|following|below|are|as|examples?)\b(?:\W+\w+){0,3}\W*$", re.I)
_MAX_HEADING_WORDS = 8
# A page title set before a colon by its topic may run longer when the sentence opens with that
# topic again ("Measles: Make Sure Your Child Is Protected with MMR Vaccine Measles starts …").
_MAX_TOPIC_TITLE_WORDS = 12
# Words that go on or end a name begun by capitalised words ("Centers for Disease Control and
# Prevention", "Fanconi Bickel syndrome", "National Cancer Institute"), and words that begin a sentence rather than a heading
# ("In the United States ...", "See the PDQ summary").
_NAME_GOES_ON = frozenset({"and", "or", "of", "by", "for", "&"})
_NAME_ENDINGS = frozenset({"syndrome", "disease", "disorder"})
_BODY_NAMES = frozenset({"Institute", "Institutes", "Foundation", "Association", "Society", "Center", "Centers",
                         "Academy", "College", "Department", "Agency", "Organization", "University", "Hospital",
                         "Clinic", "Program", "Service", "Services", "Council", "Board"})
_PLACE_WORDS = frozenset({"In", "See", "On", "For", "At"})
# The agency a health-topic page names at its end, run into its last list item ("… smoke near your
# baby NIH: National Institute of Child Health and Human Development.").
_ATTRIBUTION = re.compile(r"(?<=[\w)])\s+NIH: National [A-Z][\w ,'-]*\.$")
# A list whose lead-in names what it lists only by pointing back ("These include:", "They are:").
_POINTS_BACK = re.compile(r"^(?:these|they|those)\s+(?:include|are|can include|may include|can be|involve)\s*:", re.I)
_FOLLOWING = re.compile(r"\b(?:the|these)\s+following\b|\bas follows\b", re.I)
# Web page link text left at a sentence's start: the Spanish-page link ("Español", its "ñ"
# often lost) and "(Click the table on the right ...)", "(See below)".
_LINK_TEXT = re.compile(r"^(?:Espa\S{0,2}ol\s+|\((?:click|see)\b[^)]*\)\s*)+", re.I)
_MAX_ITEM_WORDS = 6
# A bullet item that opens with a unit this short opens with a heading (`item_headings`), which
# speaks for at most this many sentences after it.
ITEM_HEADING_WORDS = 6
ITEM_SENTENCES = 3
# A sentence in parentheses ends where its bracket closes: "(Hemoglobin is the iron-rich protein
# in red blood cells.) Another goal is to treat the cause." is two sentences.
_AFTER_PARENTHESIS = re.compile(r"(?<=[.!?]\))\s+(?=[A-Z])")
# An item on a line of its own may run longer ("High levels of sugar in the blood due to insulin
# resistance or diabetes"): its line break already says where it ends.
_MAX_LINE_ITEM_WORDS = 14
_MIN_FLAT_ITEMS = 3


@dataclass(frozen=True)
class Evidence:
    """One sentence of a passage: `source` is its [n], `position` its order in the passage."""

    source: int
    text: str
    position: int


@dataclass
class Support:
    text: str
    kind: str = SOURCED
    source: int | None = None
    support: float | None = None
    source_sentence: str | None = None
    reason: str = ""

    @property
    def supported(self) -> bool:
        return self.kind != SOURCED or self.source is not None

    def public(self) -> dict:
        """The `sentences` entry of the turn JSON (`chartside chat --json`, `ask --json`)."""
        return {"text": self.text, "source": self.source,
                "support": None if self.support is None else round(self.support, 3), "kind": self.kind}

    def traced(self) -> dict:
        return {**self.public(), "source_sentence": self.source_sentence, "reason": self.reason}


def passage_units(text: str) -> list[str]:
    """Sentences of a passage; a lead-in ending with ':' and the bullet items after it become
    one sentence ("Symptoms include: thirst; frequent urination."), since the items alone say
    nothing and the lead-in alone says less. Items on lines of their own, without bullets
    ("… the following heart-healthy lifestyles:" / "Heart-healthy eating" / "Quitting smoking"),
    join their lead-in the same way."""
    return [unit for unit, _ in _units_and_items(text)]


@lru_cache(maxsize=64)
def item_headings(text: str) -> dict[int, str]:
    """The bullet item each sentence of `passage_units` sits in, by its index, where the item
    opens with a heading of its own ("- Acetaminophen. Try this medicine first for your pain. DO
    NOT take more than 4 grams (4,000 mg) on any 1 day."): the heading says what the sentences
    after it are about. An item ends at the next bullet, at a heading in capitals ("FEVER") or
    after `ITEM_SENTENCES` sentences. Cached: the composer asks once per sentence of a passage."""
    out, heading, after = {}, "", 0
    for i, (unit, opens_item) in enumerate(_units_and_items(text)):
        if opens_item:
            heading, after = (unit, 0) if _is_item_heading(unit) else ("", 0)
            continue
        if unit.isupper():
            heading = ""
        elif heading and after < ITEM_SENTENCES:
            out[i], after = heading, after + 1
    return out


def _units_and_items(text: str) -> list[tuple[str, bool]]:
    """`passage_units`, each with whether it opens a bullet item."""
    units: list[str] = []
    opens: set[int] = set()
    listing = -1  # the unit that is a lead-in with line items joined to it
    # The lead-in whose items open with headings, where the last of them opened, and its paragraph.
    headed, last_item, list_paragraph = -1, -1, -1
    listed, listed_paragraph = -1, -1  # the last unit made of a lead-in and its bullet items
    cut_off = False  # whether a sentence inside one of its items cut that list
    announced = False  # whether its lead-in announces it ("These include")
    named = -1  # the last list unit whose items name themselves ("Skin - itching, hives"; `_titled`)
    for paragraph, block in _paragraph_blocks(text):
        line = " ".join(block.split())
        if _is_line_item(line) and units and (listing == len(units) - 1 or units[-1].endswith(":")):
            if listing != len(units) - 1:
                units[-1], listing = f"{units[-1].rstrip(':,')}: {line}.", len(units) - 1
            elif units[-1].count("; ") + 1 < _MAX_LIST_ITEMS:
                units[-1] = f"{units[-1][:-1]}; {line}."
            continue
        listing = -1
        pieces = [" ".join(p.split()) for p in _INLINE_BULLET.split(block)]
        starts_with_item = bool(_INLINE_BULLET.match(block))
        pieces = [p for p in pieces if p]
        if not pieces:
            continue
        if starts_with_item:
            titled = _titled([p.rstrip(" .;,") for p in pieces])
            if titled and named == listed and _goes_on(units, listed, listed_paragraph, paragraph, titled):
                # "… at home: Clean - always wash …. - Separate - keep raw foods to themselves.": an item's
                # full stop cut the list, and the next named item goes on it.
                units[listed] = f"{units[listed][:-1]}; {'; '.join(titled)}."
                continue
            # A list in its own paragraph: its lead-in is the unit before it when that one
            # ends like one ("Hypoglycemia causes symptoms such as").
            lead = units[-1] if units and _is_lead_in(units[-1]) else ""
            if lead:
                units.pop()
            items = titled or _without_repeat([i.rstrip(" .;,") for i in pieces[:_MAX_LIST_ITEMS]])
            heading = len(items) == 1 and _is_item_heading(items[0])
            if not lead and not heading and cut_off and _goes_on(units, listed, listed_paragraph, paragraph, items):
                units[listed] = f"{units[listed][:-1]}; {'; '.join(items)}."
                continue
            if not lead and len(items) == 1:
                opens.add(len(units))
                # The next item of a list whose lead-in took only the first ("… include the
                # following: Rubber band ligation." / "- Sclerotherapy. The doctor injects …"):
                # its heading joins the lead-in, which else would name one item as if the only one.
                if (heading and headed >= 0 and paragraph == list_paragraph
                        and len(units) - last_item <= ITEM_SENTENCES + 1
                        and units[headed].count("; ") + 1 < _MAX_LIST_ITEMS):
                    units[headed], last_item = f"{units[headed][:-1]}; {items[0]}.", len(units)
            elif lead:
                headed, last_item, list_paragraph = (len(units), len(units), paragraph) if heading else (-1, -1, -1)
            units.append(f"{lead.rstrip(':.,')}: {'; '.join(items)}." if lead
                         else "; ".join(items) + ".")
            if lead and titled:
                listed, listed_paragraph, named = len(units) - 1, paragraph, len(units) - 1
            continue
        head, items = pieces[0], pieces[1:]
        announces = head.endswith(":") or _is_lead_in(head)
        if items and not announces and announced and _is_item_sentence(head) \
                and _goes_on(units, listed, listed_paragraph, paragraph, items):
            # A list item of two sentences cut the list at its full stop ("- Placing babies on their
            # backs to sleep, even for short naps. "Tummy time" is for when babies are awake … -
            # Using a firm sleep surface …"): the items after it go on the list, and the item's
            # second sentence stands alone.
            units[listed], cut_off = f"{units[listed][:-1]}; {'; '.join(i.rstrip(' .;') for i in items)}.", True
            units.extend(u if u.endswith((".", "!", "?")) else f"{u}."
                         for piece in split_passage_sentences(head) for u in _restored(piece))
            continue
        titled = _titled([i.rstrip(" .;") for i in items])
        if items and (announces or len(items) >= 2):
            items = titled or _without_repeat([i.rstrip(" .;") for i in items[:_MAX_LIST_ITEMS]])
            head = without_heading(_LINK_TEXT.sub("", head)) or head
            unit = f"{head.rstrip(':,')}: {'; '.join(items)}."
            if _POINTS_BACK.match(unit) and units and units[-1].endswith(".") and ": " not in units[-1]:
                # "… they do know ways to reduce the risk. These include: placing babies on their
                # backs …": the list says what it lists only with the sentence before it.
                units[-1] = f"{units[-1]} {unit}"
            else:
                units.append(unit)
            listed, listed_paragraph, cut_off, announced = len(units) - 1, paragraph, False, announces
            named = listed if titled else -1
            if len(items) == 1 and _is_item_heading(items[0]):
                headed, last_item, list_paragraph = listed, listed, paragraph
            continue
        units.extend(u for piece in split_passage_sentences(head) for u in _restored(piece))
        units.extend(i if i.endswith((".", "!", "?")) else f"{i}." for i in items)
    return [(_balanced(_ATTRIBUTION.sub(".", u) if "; " in u else u), i in opens)
            for i, u in enumerate(units) if len(u) > 1]


def _titled(items: list[str]) -> list[str] | None:
    """The items joined name to description ("Skin - itching, hives"), when every item of
    `items` is a short capitalised name followed by a description in lower case; None when they
    are not all so (a list of symptoms may open with a capital, "Drowsiness - dry mouth")."""
    if not items or len(items) % 2:
        return None
    names, descriptions = items[0::2], items[1::2]
    if all(n[:1].isupper() and len(n.split()) <= _TITLE_WORDS and not n.endswith((".", ":", ";", "?"))
           and d[:1].islower() and len(d.split()) >= _DESCRIPTION_WORDS for n, d in zip(names, descriptions)):
        return [f"{n} - {d}" for n, d in zip(names, descriptions)]
    return None


def _goes_on(units: list[str], listed: int, listed_paragraph: int, paragraph: int, items: list[str]) -> bool:
    """Whether `items` go on the list unit `listed`, cut off by a sentence inside an item of its
    paragraph (`_units_and_items`)."""
    return (listed >= 0 and listed_paragraph == paragraph
            and units[listed].count("; ") + len(items) < _MAX_LIST_ITEMS)


def _is_item_sentence(text: str) -> bool:
    """A sentence that can go on a list item ("'Tummy time' is for when babies are awake and
    someone is watching"), not a fragment left by a dash ("A BMI", "… 6 or lower; or")."""
    words = text.split()
    return len(words) >= ITEM_SENTENCE_WORDS and words[-1].lower() not in {"or", "and"}


def _is_item_heading(text: str) -> bool:
    """A bullet item's opening unit short enough to be its heading (`item_headings`)."""
    return len(latin_words(text)) <= ITEM_HEADING_WORDS


def _balanced(unit: str) -> str:
    """The unit without a closing bracket its text never opened ("… Postnasal drip; Sore throat)."),
    left from a list some pages put in brackets and the lead-in took apart."""
    if not unit.endswith((")", ").")) or unit.count(")") <= unit.count("("):
        return unit
    cut = unit.rfind(")")
    return unit[:cut] + unit[cut + 1:]


# A footnote number after a full stop ("… from 1 to several hours.1 Gallbladder attacks often follow …",
# "… about 17 percent of the population.1 However, …"): some pages keep their reference marks, which
# glued two sentences into one and read as a number.
_FOOTNOTE_MARK = re.compile(r"(?<=[a-z)])\.\d{1,2}(?:[,-]\d{1,2})*(?=\s)")


def _paragraph_blocks(text: str) -> list[tuple[int, str]]:
    """`split_passage_sentences` of `text` without footnote marks, each with the number of the paragraph it
    is in (a blank line ends a sentence as well as a paragraph, so the sentences are the same)."""
    text = _FOOTNOTE_MARK.sub(".", text)
    return [(number, block) for number, paragraph in enumerate(re.split(r"\n\s*\n", text))
            for block in split_passage_sentences(paragraph)]


def _without_repeat(items: list[str]) -> list[str]:
    """The items without the copy of the list some pages run on after the last one, its
    bullets lost ("… - fatigue. a cough that doesn't go away … fatigue")."""
    if len(items) < 2:
        return items
    last, first = items[-1], items[0].lower()
    cut = last.lower().find(f". {first}")
    return [*items[:-1], last[:cut]] if cut > 0 else items


def _is_title(text: str) -> bool:
    words = text.split()
    return 0 < len(words) <= _MAX_ITEM_WORDS and all(_heading_word(w) for w in words)


def is_bare_list(unit: str) -> bool:
    """A unit `passage_units` made of a list without a lead-in whose items are only names
    ("Vaginal yeast infection; Vaginitis."), or of a title and the titles of other pages ("Skin
    Cancer Prevention: Skin Cancer Treatment; Melanoma Treatment; Genetics of Skin Cancer."): it
    says nothing about what it lists."""
    lead, colon, rest = unit.rstrip(".").partition(": ")
    if colon:
        items = rest.split("; ")
        # A resource's name may head each title: "Restless Leg Syndrome Foundation: Diagnosis;
        # Restless Leg Syndrome Foundation: Treatment Options."
        return (len(lead.split()) > 1 and _is_title(lead) and len(items) > 1
                and all(_is_title(part) for i in items for part in i.split(": ")))
    items = unit.rstrip(".").split("; ")
    return ":" not in unit and len(items) > 1 and all(len(latin_words(i)) <= _MAX_ITEM_WORDS for i in items)


def _is_line_item(line: str) -> bool:
    """A list item on a line of its own: a few words, no sentence end, no bullet."""
    return (bool(line) and not line.endswith((".", "!", "?", ":", ";")) and not _INLINE_BULLET.search(line)
            and len(line.split()) <= _MAX_LINE_ITEM_WORDS)


def _is_lead_in(unit: str) -> bool:
    """A unit that announces the list after it: "... such as", "Symptoms include:", "If you
    notice one or more of the following signs, don't wait."
    """
    if unit.endswith(":") or _FOLLOWING.search(unit):
        return True
    return not unit.endswith((".", "!", "?")) and bool(_LIST_CUE.search(unit))


def _heading_word(word: str) -> bool:
    return bool(re.fullmatch(r"[A-Z0-9][\w'\-]*|\([A-Z0-9][\w'\-]*\)", word)) or word in _HEADING_JOINERS


def without_heading(sentence: str) -> str:
    """`sentence` without a section heading run into its start (the heading says nothing alone):
    capitalised words before a sentence opener, before a word of the heading that starts the
    sentence again ("Lactose Intolerance Lactose intolerance is ..."), after a heading
    in capitals ("FEVER Acetaminophen can ..."), or a title of three words or more before a
    capitalised word and a lower-case one ("Effects of NSAID Drugs Non-steroidal
    anti-inflammatory drugs can ..."), unless that word goes on a name ("Centers for Disease
    Control and Prevention", "Fanconi Bickel syndrome"). A title set off by a spaced colon
    ("Summary : Taking acetaminophen ...", "How Acetaminophen Can Help Your Child : ...") goes
    too; a term defined that way in lower case ("Physical exam and history : An exam ...") stays."""
    title, colon, rest = sentence.partition(" : ")
    if colon and rest[:1].isupper() and len(title.split()) <= _MAX_HEADING_WORDS and title[:1].isupper() \
            and all(map(_heading_word, title.split())):
        return rest
    words = sentence.split(" ")
    longest = _MAX_TOPIC_TITLE_WORDS if words[0].endswith(":") else _MAX_HEADING_WORDS
    for k in range(1, min(len(words) - 2, longest) + 1):
        opener, after, heading = words[k], words[k + 1], words[:k]
        capitals = all(len(w.rstrip(",")) >= 4 and w.isupper() for w in heading)
        # "FEVER Acetaminophen (Tylenol) and ibuprofen ...": a bracket may follow a heading in capitals;
        # "How COPD Affects Airways The "airways" are ...": a quoted word may follow a sentence opener;
        # "COPD Develops Slowly, Has No Cure When COPD is severe ...": so may the heading's topic again.
        if not opener[:1].isupper() or not (after.lstrip("\"“‘'")[:1].islower() or (capitals and after[:1] == "(")
                                            or (opener in _SENTENCE_OPENERS and after == heading[0])):
            continue
        # "COLD, SORE THROAT, COUGH Cold medicines ...", "COPD Develops Slowly, Has No Cure When ...": a
        # heading may list with commas; "Tinnitus: A Common Symptom Tinnitus, also ...": a heading's topic
        # may stand before a colon.
        listed = [w.rstrip(",") for w in heading]
        listed[0] = listed[0].rstrip(":")
        if not (heading[0][:1].isupper() and heading[-1] not in _HEADING_JOINERS and all(map(_heading_word, listed))):
            continue
        # "... Jaundice Jaundice refers to", "How Kidney Disease Occurs Kidney disease means ...",
        # "Medications Medications for glaucoma may be ..." (the word itself repeated, whatever follows).
        # "Signs and Symptoms of Iron Deficiency Signs and symptoms of iron deficiency may include ...":
        # the heading's first words again, as the sentence's own start; "Treatment May Start Right Away
        # Treatment for a heart attack ...": its first word again, after a heading of three words or more.
        bare = [w.strip(",:").lower() for w in heading]
        said = opener.strip(",:").lower()
        restated = len(opener) >= 4 and opener[1:].islower() and (
            said == bare[-1] or (after not in _NAME_GOES_ON and said in bare)
            or (len(heading) >= 3 and said == bare[0])
            or (len(heading) >= 3 and [w.lower() for w in words[k:k + 3]] == bare[:3]))
        if k > _MAX_HEADING_WORDS and not (restated and said == bare[0]):
            continue
        if opener in _SENTENCE_OPENERS or restated:
            return " ".join(words[k:])
        if after in _NAME_GOES_ON or after.strip(",.") in _NAME_ENDINGS or opener in _BODY_NAMES:
            continue
        shouted = not opener.isupper() and capitals
        # "Viral Pneumonia Antibiotics don't work when the cause of pneumonia is a virus."
        echoed = (len(heading) == 2 and len(heading[-1]) >= 5 and not opener.isupper()
                  and heading[0] not in _SENTENCE_OPENERS
                  and f" {heading[-1].lower()}" in " ".join(words[k + 2:]).lower())
        titled = (len(heading) >= 3 and not opener.isupper()
                  and not any(w in _SENTENCE_OPENERS or w in _PLACE_WORDS for w in heading))
        if shouted or titled or echoed:
            return " ".join(words[k:])
    return sentence


def unflattened_list(sentence: str) -> list[str]:
    """A lead-in whose list items lost their line breaks ("include: Shortness of breath
    Dizziness Headache Pale skin These signs ...") as "Lead: a; b; c." and the sentence
    run in after the list; any other sentence unchanged. Items keep their source spelling,
    so the source card can still find them."""
    head, colon, rest = sentence.partition(": ")
    if not colon or not rest[:1].isupper() or not _LIST_CUE.search(head) or rest.endswith("?") or "et al" in rest:
        return [sentence]
    items: list[list[str]] = []
    for word in rest.split(" "):
        last = items[-1][-1] if items else ""
        starts_item = word[:1].isupper() and (not items or (last not in _HEADING_JOINERS
                                                             and (last[-1:].isalnum() or last[-1:] == ")")))
        if starts_item:
            items.append([word])
        else:
            items[-1].append(word)
    end = next((i for i, item in enumerate(items)
                if i and (item[0] in _SENTENCE_OPENERS or len(item) > _MAX_ITEM_WORDS)), len(items))
    tail = " ".join(w for item in items[end:] for w in item)
    items = items[:end]
    if len(items) < _MIN_FLAT_ITEMS or len(items[0]) > _MAX_ITEM_WORDS:
        return [sentence]
    if all(w[:1].isupper() or w in _HEADING_JOINERS for i in items for w in i):   # a name ("NIH: National Institute of ...")
        return [sentence]
    listed = "; ".join(" ".join(i).rstrip(" .;,") for i in items)
    return [f"{head}: {listed}."] + ([tail] if tail else [])


def _restored(sentence: str) -> list[str]:
    sentence = _LINK_TEXT.sub("", sentence)
    return [_without_stray_close(u) for part in _AFTER_PARENTHESIS.split(sentence) if part
            for u in unflattened_list(without_heading(part))]


def _without_stray_close(unit: str) -> str:
    """"... because of the chickenpox vaccine.)" ends a parenthesis opened in an earlier sentence."""
    if unit.endswith(".)") and unit.count(")") > unit.count("("):
        return unit[:-1]
    return unit


def evidence_from(documents: Sequence, numbers: Sequence[int] | None = None) -> list[Evidence]:
    """Every sentence of the passages `numbers` (all by default), numbered like the sources ([1] is the first)."""
    out = []
    for number in range(1, len(documents) + 1) if numbers is None else numbers:
        doc = documents[number - 1]
        text = getattr(doc, "passage", "") or getattr(doc, "text", "")
        out.extend(Evidence(number, unit, i) for i, unit in enumerate(passage_units(text)))
    return out


def answer_sentences(text: str) -> list[str]:
    """The answer's sentences, citation markers kept with their sentence."""
    return [s for s in split_answer_sentences(text) if _CITATION.sub("", s).strip(" -•*")]


def strip_citations(sentence: str) -> str:
    return _CITATION.sub("", sentence).strip()


def cited(sentence: str) -> list[int]:
    return [int(n) for n in _CITATION.findall(sentence)]


def lexical_overlap(sentence: str, source: str) -> float:
    """Share of the sentence's content stems that the source sentence has."""
    mine = set(tokenize(sentence))
    if not mine:
        return 0.0
    return len(mine & set(tokenize(source))) / len(mine)


def facts_agree(sentence: str, source: str, passage: str = "") -> str:
    """'' when numbers, negation and medical words agree, else why not."""
    missing = numbers(sentence) - numbers(source)
    if missing:
        return f"number {sorted(missing)[0]} not in the source"
    if is_negated(sentence) != is_negated(source):
        return "negation differs from the source"
    if passage and not has_hangul(sentence):
        new_terms = medical_words(sentence) - medical_words(passage)
        if new_terms:
            return f"'{sorted(new_terms)[0]}' is not in the source"
    return ""


class SupportChecker:
    """Scores sentences against evidence; `embedder` has `embed(texts) -> array`,
    `concepts(text) -> set of concept ids` serves sentences in another language."""

    def __init__(self, embedder=None, concepts: Callable[[str], set[str]] | None = None,
                 threshold: float = DEFAULT_THRESHOLD):
        self.embedder = embedder
        self.concepts = concepts
        self.threshold = threshold
        self._passages: dict[int, str] = {}

    def vectors(self, texts: Sequence[str]) -> np.ndarray | None:
        if self.embedder is None or not texts:
            return None
        vectors = np.asarray(self.embedder.embed(list(texts)), dtype=np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.maximum(norms, 1e-9)

    def check(self, sentences: Sequence[str], evidence: Sequence[Evidence],
              evidence_vectors: np.ndarray | None = None, *, within: Sequence[int] | None = None,
              embed: Callable[[Sequence[str]], np.ndarray | None] | None = None) -> list[Support]:
        """One `Support` per sentence (kind `sourced`); `within` limits the evidence to those
        source numbers (citation precision: is the sentence backed by the passage it cites?).
        `embed` (default `vectors`): a `SentenceVectors` of the turn, so that sentences it has
        already embedded are not embedded again."""
        embed = embed or self.vectors
        texts = [strip_citations(s) for s in sentences]
        if not evidence:
            return [Support(t, support=0.0, reason="no passages") for t in texts]
        english = [i for i, t in enumerate(texts) if not has_hangul(t)]
        if evidence_vectors is None and english:
            evidence_vectors = embed([e.text for e in evidence])
        sentence_vectors = embed([texts[i] for i in english]) if english else None
        rows = {i: row for row, i in enumerate(english)}
        passages: dict[int, str] = {}
        for item in evidence:
            passages[item.source] = f"{passages.get(item.source, '')} {item.text}"
        self._passages = passages
        allowed = set(within) if within is not None else None
        results = []
        for i, text in enumerate(texts):
            if i in rows:
                similarity = None if sentence_vectors is None or evidence_vectors is None else \
                    evidence_vectors @ sentence_vectors[rows[i]]
                results.append(self._best(text, evidence, similarity, allowed))
            else:
                results.append(self._best_across_languages(text, evidence, allowed))
        return results

    def _best(self, text, evidence, similarity, allowed) -> Support:
        best, best_score, rejected, rejected_score = None, 0.0, "", 0.0
        for j, item in enumerate(evidence):
            if allowed is not None and item.source not in allowed:
                continue
            lexical = lexical_overlap(text, item.text)
            cosine = float(similarity[j]) if similarity is not None else lexical
            score = LEXICAL_WEIGHT * lexical + (1 - LEXICAL_WEIGHT) * max(0.0, cosine)
            if score <= best_score:
                continue
            why = facts_agree(text, item.text, self._passages.get(item.source, ""))
            if not why and lexical < MIN_LEXICAL:
                why = "too few of its words are in the source"
            if why:
                if score > rejected_score:
                    rejected, rejected_score = why, score
                continue
            best, best_score = item, score
        return self._verdict(text, best, best_score, rejected)

    def _best_across_languages(self, text, evidence, allowed) -> Support:
        mine = self.concepts(text) if self.concepts else set()
        if not mine:
            return Support(text, support=0.0, reason="no concept to compare across languages")
        best, best_score, rejected, rejected_score = None, 0.0, "", 0.0
        for item in evidence:
            if allowed is not None and item.source not in allowed:
                continue
            theirs = self.concepts(item.text)
            score = len(mine & theirs) / len(mine)
            if score <= best_score:
                continue
            why = facts_agree(text, item.text)
            if why:
                if score > rejected_score:
                    rejected, rejected_score = why, score
                continue
            best, best_score = item, score
        return self._verdict(text, best, best_score, rejected)

    def _verdict(self, text, best, score, rejected) -> Support:
        if best is None or score < self.threshold:
            reason = rejected or ("below the support threshold" if best is not None else "no matching sentence")
            return Support(text, support=round(score, 4), source_sentence=best.text if best else None, reason=reason)
        return Support(text, source=best.source, support=round(score, 4), source_sentence=best.text)


# The first verb of a plain English sentence: what comes before it is the subject.
_FIRST_VERB = re.compile(r"\b(is|are|was|were|be|can|may|might|could|will|would|should|must|does|do|did|has|have|"
                         r"had|causes?|caused|happens?|occurs?|means?|refers?|includes?|affects?|leads?|results?|"
                         r"develops?|makes?|helps?|needs?|lowers?|raises?|increases?|reduces?)\b", re.I)


class SentenceVectors:
    """One answer's sentence vectors, each text embedded once (normalised, by `checker.vectors`).

    The composer embeds the passages' sentences to choose among them, and the support check
    embeds them again as its evidence and as the sentences it checks, twice for an English
    answer (its quotes and the further sentences it names): on two cores that was most of a
    composed answer's time. A text's vector also depends a little on the batch it is embedded
    in (dynamic int8 quantisation, `engine.knowledge.dense`), so one vector per text keeps the
    selection and the check reading the same sentence the same way."""

    def __init__(self, checker: SupportChecker):
        self._checker = checker
        self._rows: dict[str, np.ndarray] = {}

    def __call__(self, texts: Sequence[str]) -> np.ndarray | None:
        if self._checker.embedder is None or not texts:
            return None
        new = [t for t in dict.fromkeys(texts) if t not in self._rows]
        if new:
            self._rows.update(zip(new, self._checker.vectors(new)))
        return np.stack([self._rows[t] for t in texts])


def subject_stems(sentence: str) -> set[str]:
    """Content stems before the sentence's first verb ("High blood pressure is ..." ->
    high, blood, pressur); empty when no verb is found."""
    match = _FIRST_VERB.search(sentence)
    return set(tokenize(sentence[:match.start()])) if match else set()


def strict_support(sentence: str, evidence: Sequence[Evidence]) -> tuple[Evidence | None, str]:
    """The one source sentence that says everything `sentence` says, or None and why not.

    Stricter than the support score, for a model's sentence shown as the answer's lead: every
    content word of it is in one source sentence, it names no medical term that sentence
    lacks, its numbers and negation agree, and its subject is that sentence's subject (or
    within it). "High blood pressure is a medical condition that can be caused by various
    factors, including high blood pressure medications" scores above the threshold against
    "... caused by another medical condition or medicine ... is called secondary
    hypertension" but fails each of these."""
    mine = set(tokenize(sentence))
    subject = subject_stems(sentence)
    if not mine:
        return None, "no content words"
    if not subject:
        return None, "no subject found"
    why = "no source sentence has all its content words"
    for item in evidence:
        theirs = set(tokenize(item.text))
        if not mine <= theirs:
            continue
        disagreement = facts_agree(sentence, item.text, item.text)
        if disagreement:
            why = disagreement
            continue
        if not subject <= subject_stems(item.text):
            why = "its subject is not the subject of the source sentence"
            continue
        return item, ""
    return None, why


def guard(answer: str, documents: Sequence, checker: SupportChecker) -> list[Support]:
    """The supported sentences of a model's answer, each citing the passage that backs it;
    unsupported ones are returned too (for the trace) with `source` None."""
    sentences = answer_sentences(clean_citations(answer, len(documents)))
    return checker.check(sentences, evidence_from(documents))


def render(items: Sequence[Support], *, separator: str = " ") -> str:
    """The answer text: supported sentences with their [n] inline, deterministic parts as they are."""
    parts = []
    for item in items:
        if item.kind == SOURCED:
            if item.source is None:
                continue
            parts.append(f"{item.text.rstrip()} [{item.source}]")
        else:
            parts.append(item.text)
    return separator.join(parts)


def support_rate(items: Sequence[Support]) -> float | None:
    """Share of the sourced sentences that are supported (None when there are none)."""
    sourced = [i for i in items if i.kind == SOURCED]
    if not sourced:
        return None
    return sum(1 for i in sourced if i.source is not None) / len(sourced)
