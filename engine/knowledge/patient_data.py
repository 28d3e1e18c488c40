"""Finds what looks like patient data in a document before it enters the knowledge base.

The knowledge base is plain files (not encrypted) and bundles copy it to other desktops,
so `kb add` refuses a document in which any of these appear, unless the user overrides:

- `resident_registration_number`: a Korean 주민등록번호 `YYMMDD-GNNNNNN` (a real month and
  day, G from 1 to 8; the back part may be masked with `*`), or 13 digits right after a
  주민(등록)번호 label. Unlabelled 13-digit runs are left alone: Korean product barcodes
  (EAN-13 from 880...) have the same shape.
- `phone_number`: Korean mobile numbers (010, 011, 016-019, also as +82 10) anywhere; any
  other number (Korean landline, North American, international) only after a phone label
  (phone, tel, mobile, 연락처, 전화, 휴대폰...). Toll-free and service numbers (1-800...,
  080-, 15xx-xxxx) are organisations', never flagged.
- `chart_number`: a record label (MRN, chart no., patient ID, 차트번호, 등록번호, 병록번호,
  환자번호...) followed by an identifier with at least four digits.
- `birth_date`: a birth label (DOB, date of birth, born, 생년월일, 출생...) with a full date,
  or a Korean `YYYY.MM.DD생` / `YYMMDD생`.
- `name_and_date`: a person's name given as such (Name:/Patient:/Mr./Ms., 성명/이름/환자명,
  or a Korean surname-led name with 님/씨) on the same line as a full date (day, month,
  year). Reference text mentions years ("2019 guidelines", "(Smith 2019)"), doses
  ("5 mg/kg/day", "1-2 tablets") and dates without a person; none of these is flagged.

Findings carry the line number and a masked excerpt (digits become `#`; a name, and any
word on the line that could be one, keeps only its first letter), so what is printed or
logged never holds the identifier itself.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterable

KINDS = ("resident_registration_number", "phone_number", "chart_number", "birth_date", "name_and_date")
EXCERPT_CHARS = 80

# -- dates -------------------------------------------------------------------------------
_MONTH = r"(?:0?[1-9]|1[0-2])"
_DAY = r"(?:0?[1-9]|[12]\d|3[01])"
_YEAR = r"(?:19|20)\d{2}"
_MONTH_NAME = (r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
               r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?")
FULL_DATE = (
    rf"(?:(?<![\d.]){_YEAR}\s?[-./]\s?{_MONTH}\s?[-./]\s?{_DAY}(?![\d])"  # 1980-01-02, 1980. 1. 2
    rf"|{_YEAR}\s*년\s*{_MONTH}\s*월\s*{_DAY}\s*일"  # 1980년 1월 2일
    rf"|(?<![\d.]){_DAY}[-./]{_MONTH}[-./]{_YEAR}(?!\d)"  # 02/01/1980, 2.1.1980
    rf"|(?<![\d.]){_MONTH}[-./]{_DAY}[-./]{_YEAR}(?!\d)"  # 01/02/1980
    rf"|\b{_MONTH_NAME}\s+{_DAY},?\s+{_YEAR}\b"  # Jan 2, 1980
    rf"|\b{_DAY}\s+{_MONTH_NAME},?\s+{_YEAR}\b)"  # 2 January 1980
)
_SHORT_DATE = rf"(?<![\d.])\d{{2}}\s?[-./]?\s?{_MONTH}\s?[-./]?\s?{_DAY}(?!\d)"  # 80.01.02, 800102

_FULL_DATE_RE = re.compile(FULL_DATE, re.IGNORECASE)
_BIRTH_LABEL = (r"(?:\bD\.?\s?O\.?\s?B\b\.?|\bdate\s+of\s+birth\b|\bbirth\s*date\b|\bbirthday\b|\bborn(?:\s+on)?\b"
                r"|생년월일|출생일|출생|생일)")
_BIRTH_RE = re.compile(
    rf"{_BIRTH_LABEL}\s*(?:[:：=\-]\s*|\(|\s)\s*(?:{FULL_DATE}|{_SHORT_DATE})"
    rf"|(?:{FULL_DATE}|{_SHORT_DATE})\s*생(?![가-힣])",
    re.IGNORECASE,
)

# -- resident registration numbers --------------------------------------------------------
_RRN_DATE = r"\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])"
_RRN_RE = re.compile(
    rf"(?<![\d-]){_RRN_DATE}\s?[-–]\s?[1-8][\d*]{{6}}(?![\d*])"
    rf"|(?:주민\s?(?:등록)?\s?번호|RRN)\s*[:：]?\s*{_RRN_DATE}[1-8]\d{{6}}(?!\d)",
)

# -- phone numbers ------------------------------------------------------------------------
_KR_MOBILE = r"(?:\+82[-. ]?1[016789]|(?<!\d)01[016789])[-. ]?\d{3,4}[-. ]?\d{4}(?!\d)"
_MOBILE_RE = re.compile(_KR_MOBILE)
_PHONE_LABEL = (r"(?:\b(?:tel(?:ephone)?|phone|ph|cell(?:\s?phone)?|mobile|contact(?:\s+number)?|home|work|fax)\b\.?"
                r"|\bH\.?P\b\.?|연락처|전화(?:\s?번호)?|휴대(?:폰|전화)|핸드폰|집|직장)")
_ANY_PHONE = (r"(?:\+\d{1,3}[-. ]?)?(?:\(\d{2,4}\)\s?|\d{2,4}[-. ])\d{3,4}[-. ]\d{4}(?!\d)"
              r"|(?<!\d)0\d{3,4}[-. ]\d{6}(?!\d)|(?<!\d)\d{10,11}(?!\d)")
_LABELLED_PHONE_RE = re.compile(rf"{_PHONE_LABEL}\s*(?:#|no\.?|번호)?\s*[:：]?\s*({_ANY_PHONE})", re.IGNORECASE)
_SERVICE_NUMBER = re.compile(r"^(?:\+?1[-. ]?)?\(?8(?:00|88|77|66|55|44|33)\)?|^080|^1[5-8]\d\d")

# -- chart / record numbers ----------------------------------------------------------------
_CHART_LABEL = (r"(?:\bMRN\b|\bmedical\s+record\s+(?:number|no\b\.?|#)|\bchart\s*(?:number|no\b\.?|#)"
                r"|\bpatient\s+(?:id|number|no\b\.?|#)|\bhospital\s+(?:number|no\b\.?)|\bcase\s+(?:number|no\b\.?)"
                r"|차트\s?번호|챠트\s?번호|(?<!사업자)(?<!법인)(?<!사업자 )(?<!주민)(?<!주민 )등록\s?번호|병록\s?번호|환자\s?번호"
                r"|의무\s?기록\s?번호|진료\s?(?:카드\s?)?번호)")
_CHART_RE = re.compile(rf"{_CHART_LABEL}\s*(?:[:：#.=]\s*)?(?!(?:19|20)\d\d\b)([A-Z]{{0,4}}[-\s]?\d[\d-]{{3,}}\d?)",
                       re.IGNORECASE)

# -- names ----------------------------------------------------------------------------------
_SURNAMES = ("김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노하곽성차주우구민나진지엄채원천방공현함변염"
             "여추도소석선설마길연위표명기반왕금옥육인맹제모탁국어은편용")
_NOT_NAMES = {"선생", "원장", "과장", "부장", "교수", "실장", "간호", "고객", "보호", "환자", "주치", "담당", "박사", "회장",
              "사장", "대표", "팀장", "기사", "부모", "어머", "아버", "주임", "하나", "이모", "고모", "형", "손님"}
_NAME_PATTERNS = [
    re.compile(r"\b(?i:patient(?:'s)?\s+name|full\s+name|name|patient|pt)\s*[:：]\s*"
               r"([A-Z][A-Za-z'\-]+(?:,?\s+[A-Z][A-Za-z'\-]+){0,2})"),
    re.compile(r"\b(?:Mr|Mrs|Ms|Miss|Mx)\.?\s+([A-Z][A-Za-z'\-]+(?:\s+[A-Z][A-Za-z'\-]+)?)"),
    re.compile(r"(?:성명|이름|환자\s?명|환자\s?이름|수진자|피보험자)\s*[:：]?\s*([가-힣]{2,4})(?![가-힣])"),
    re.compile(r"환자\s*[:：]\s*([가-힣]{2,4})(?![가-힣])"),
    re.compile(rf"(?<![가-힣])([{_SURNAMES}][가-힣]{{1,2}})\s?(?:님|씨)(?![가-힣])"),
]

# "Brand name: ...", "Drug name: ...": the name of a thing, not of a person.
_THING_NAME = re.compile(r"\b(?:brand|drug|generic|trade|product|file|user|common|chemical|scientific|company|test)\s*$",
                         re.IGNORECASE)


@dataclass(frozen=True)
class Finding:
    """One line that looks like patient data: what, where, and an excerpt safe to show."""

    kind: str
    line: int
    excerpt: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.kind.replace('_', ' ')}: {self.excerpt}"


def scan_text(text: str) -> list[Finding]:
    """Every line of `text` that looks like patient data (one finding per kind and line)."""
    findings: list[Finding] = []
    for number, line in enumerate(text.splitlines(), start=1):
        found: dict[str, list[tuple[int, int]]] = {}
        for kind, spans in _line_spans(line):
            if spans:
                found.setdefault(kind, []).extend(spans)
        if not found:
            continue
        all_spans = [span for spans in found.values() for span in spans]
        for kind in KINDS:
            if kind in found:
                findings.append(Finding(kind, number, masked_excerpt(line, all_spans, found[kind][0])))
    return findings


def _line_spans(line: str) -> Iterable[tuple[str, list[tuple[int, int]]]]:
    yield "resident_registration_number", [m.span() for m in _RRN_RE.finditer(line)]
    phones = [m.span() for m in _MOBILE_RE.finditer(line)]
    phones += [m.span(1) for m in _LABELLED_PHONE_RE.finditer(line) if not _SERVICE_NUMBER.match(m.group(1))]
    yield "phone_number", phones
    yield "chart_number", [m.span(1) for m in _CHART_RE.finditer(line)]
    yield "birth_date", [m.span() for m in _BIRTH_RE.finditer(line)]
    names = [m.span(1) for pattern in _NAME_PATTERNS for m in pattern.finditer(line)
             if m.group(1)[:2] not in _NOT_NAMES and not _THING_NAME.search(line[:m.start()])]
    dates = [m.span() for m in _FULL_DATE_RE.finditer(line)]
    yield "name_and_date", names + dates if names and dates else []


def masked_excerpt(line: str, spans: list[tuple[int, int]], focus: tuple[int, int]) -> str:
    """The line around `focus` with every flagged span masked: digits become `#`, letters
    after the first of each word `*`. Digits elsewhere on the line are masked too, so a
    number the detectors did not recognise is not echoed either."""
    chars = list(line)
    for start, end in spans:
        first = True
        for i in range(start, end):
            c = chars[i]
            if c.isdigit():
                chars[i] = "#"
            elif c.isalpha():
                chars[i] = c if first else "*"
                first = False
            else:
                first = True
    masked = re.sub(r"\d", "#", "".join(chars))
    masked = _POSSIBLE_NAME.sub(_mask_possible_name, masked)
    start = max(0, focus[0] - EXCERPT_CHARS // 2)
    end = min(len(masked), start + EXCERPT_CHARS)
    start = max(0, end - EXCERPT_CHARS)
    return ("…" if start else "") + masked[start:end].strip() + ("…" if end < len(masked) else "")


# In a flagged line, any word that could be a name is cut to its first letter as well (a
# name the detectors did not tie to the finding, e.g. "DOB 1962-03-14 (John Smith)"):
# capitalised English words and 2-4 syllable Hangul words led by a common surname, except
# the labels that make the excerpt readable.
_POSSIBLE_NAME = re.compile(rf"\b[A-Z][a-z'\-]+\b|(?<![가-힣])[{_SURNAMES}][가-힣]{{1,3}}(?![가-힣])")
_KEPT_WORDS = {
    "Name", "Patient", "Phone", "Tel", "Telephone", "Mobile", "Cell", "Contact", "Date", "Birth", "Born", "Chart",
    "Medical", "Record", "Number", "Hospital", "Case", "Mr", "Mrs", "Ms", "Miss", "Mx", "Seen", "Home", "Work",
    "연락처", "전화", "전화번호", "성명", "이름", "생일", "출생", "출생일", "등록번호", "병록번호", "주민번호", "내원", "입원",
    "외래", "환자", "환자명", "진료번호",
}


def _mask_possible_name(match: re.Match) -> str:
    word = match.group(0)
    return word if word in _KEPT_WORDS else word[0] + "*" * (len(word) - 1)


def summarise(findings: Iterable[Finding]) -> dict[str, int]:
    """Counts per kind: what an audit row may hold (never an excerpt)."""
    return dict(Counter(f.kind for f in findings))


OVERRIDE_EVENT = "kb.patient_data_override"
PLAIN_TEXT_NOTICE = ("The knowledge base is not encrypted, and `chartside kb export` bundles copy it to other "
                     "desktops: add clinic reference documents (protocols, leaflets), never patient records.")


def audit_override(vault, summary: dict[str, dict[str, int]]) -> None:
    """Record in the vault's audit log that documents with patient-data findings were added
    anyway: file names and counts per kind only (no line, excerpt or path)."""
    vault.audit(OVERRIDE_EVENT, None, {"files": summary,
                                       "findings": sum(sum(counts.values()) for counts in summary.values())})
