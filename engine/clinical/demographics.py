"""Age, age group, gender and pregnancy from Korean, English and mixed text."""

from __future__ import annotations

import re

from engine.text import HANGUL_SYLLABLE

_H = HANGUL_SYLLABLE
_NOT_H_BEFORE = rf"(?<![{_H}0-9A-Za-z])"
# A particle, or the plural 들 ("아이들이", "애들"), may follow the word.
_PARTICLE_AFTER = rf"(?=(?:이|가|은|는|을|를|도|에|의|와|과|랑|한테|께|만|예|입|인|고|로|으로|분|님|신|세|셔|요|였|처럼|들)|(?![{_H}]))"

_NATIVE_TENS = {"열": 10, "스무": 20, "스물": 20, "서른": 30, "마흔": 40, "쉰": 50, "예순": 60, "일흔": 70, "여든": 80, "아흔": 90}
_NATIVE_UNITS = {"한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9}
_KOREAN_COUNT = {"한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9, "열": 10}
_ENGLISH_NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12,
}

_AGE_PATTERNS = [
    re.compile(r"(?:만\s*)?(?<![\d.])(?P<age>\d{1,3})\s*(?:세|살)(?!\s*(?:이하|이상|미만|부터|까지|이후|전후|이전))"),
    re.compile(r"(?<![\d.])(?P<age>\d{1,3})\s*(?:-|\s)?(?:year|yr)s?(?:\s*|-)old", re.IGNORECASE | re.ASCII),
    re.compile(r"(?<![\d.])(?P<age>\d{1,3})\s*(?:y/o|y\.o\.|yo|yr\s+old|yrs\s+old)\b", re.IGNORECASE | re.ASCII),
    re.compile(r"\b(?:aged?|age\s+of|age:)\s*(?P<age>\d{1,3})\b", re.IGNORECASE | re.ASCII),
    re.compile(r"나이(?:는|가)?\s*(?P<age>\d{1,3})"),
    re.compile(
        r"\b(?:i\s+am|i'?m|he\s+is|he'?s|she\s+is|she'?s|(?:son|daughter|husband|wife|father|mother|dad|mom|mum|child|kid|"
        r"brother|sister|grandmother|grandfather|grandma|grandpa|patient|boy|girl)(?:\s+is|\s*,)|turned|turning)\s+(?P<age>\d{1,3})"
        r"(?![\d.]|\s*(?:%|mg|mcg|kg|lbs?|pounds|cm|weeks|months|days|times|hours|minutes|years\s+ago|units|/|°|degrees|weeks?\s+pregnant))\b",
        re.IGNORECASE | re.ASCII,
    ),
    re.compile(r"(?<![\dA-Za-z.])(?P<age>\d{1,2})(?:\s*/\s*)?(?P<sex>[MF])\b(?![°])", re.ASCII),
    re.compile(r"\b(?P<sex>[MF])\s*/\s*(?P<age>\d{1,3})\b", re.ASCII),
    re.compile(r"(?:남|여)\s*/?\s*(?P<age>\d{1,3})(?:세|살)?(?![\d가-힣])"),
]
_INFANT_AGE = [
    (re.compile(r"(?:생후\s*)?(?<![\d.])(?P<n>\d{1,2})\s*개월"), "months"),
    (re.compile(r"(?<![\d.])(?P<n>\d{1,2})\s*(?:-|\s)?months?(?:\s*|-)old", re.IGNORECASE | re.ASCII), "months"),
    (re.compile(r"(?:생후\s*)?(?<![\d.])(?P<n>\d{1,2})\s*주\s*(?:된|째\s*된|차\s*된)\s*(?:아기|아이|신생아|애기)"), "weeks"),
    (re.compile(r"(?<![\d.])(?P<n>\d{1,2})\s*(?:-|\s)?weeks?(?:\s*|-)old", re.IGNORECASE | re.ASCII), "weeks"),
    (re.compile(r"(?<![\d.])(?P<n>\d{1,2})\s*(?:-|\s)?days?(?:\s*|-)old|생후\s*(?P<n2>\d{1,2})\s*일", re.IGNORECASE | re.ASCII), "days"),
    (re.compile(r"태어난\s*지\s*(?P<n>\d{1,2})\s*(?:개월|달)|(?<![\d.])(?P<n2>\d{1,2})\s*달\s*(?:된|째)"), "months"),
    (re.compile(r"태어난\s*지\s*(?P<n>\d{1,2})\s*주"), "weeks"),
    (re.compile(r"태어난\s*지\s*(?P<n>\d{1,2})\s*일|(?<![\d.])(?P<n2>\d{1,3})\s*일\s*(?:된|째\s*된)\s*(?:아기|아이|신생아|애기)"), "days"),
]
# "태어난 지 한 달 된 아기", "두 달 된 아기": months in native Korean numbers.
_KOREAN_MONTHS = re.compile(r"(?:생후|태어난\s*지)?\s*(?P<word>한|두|세|네|다섯|여섯|일곱|여덟|아홉|열|열한)\s*달\s*(?:된|째|밖에\s*안\s*된)")
_KOREAN_NUMBERS = {"한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9, "열": 10, "열한": 11}
_NATIVE_AGE = re.compile(
    rf"{_NOT_H_BEFORE}(?P<tens>열|스무|스물|서른|마흔|쉰|예순|일흔|여든|아흔)?\s*(?P<units>한|두|세|네|다섯|여섯|일곱|여덟|아홉)?\s*살(?![{_H}]*(?:이하|이상|미만))"
)
_ENGLISH_WORD_AGE = re.compile(
    r"\b(?P<word>one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)[\s-]+(?P<what>year|month|week)s?[\s-]+old\b",
    re.IGNORECASE | re.ASCII,
)
_DECADE = [
    re.compile(r"(?<![\d.])(?P<d>[1-9])0\s*대"),
    re.compile(r"\b(?:his|her|their|my)\s+(?:early|mid|late)?[\s-]*(?P<d>[1-9])0'?s\b", re.IGNORECASE | re.ASCII),
]
_DECADE_WORDS = re.compile(
    r"\b(?:in\s+)?(?:his|her|my|their)\s+(?:early\s+|mid\s+|late\s+)?(?P<w>twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties)\b",
    re.IGNORECASE | re.ASCII,
)
_DECADE_WORD_VALUES = {"twenties": 2, "thirties": 3, "forties": 4, "fifties": 5, "sixties": 6, "seventies": 7, "eighties": 8, "nineties": 9}
_AGE_GROUP_WORDS = [
    (re.compile(rf"신생아|갓난\s*아기|newborn|neonate"), "infant"),
    (re.compile(rf"{_NOT_H_BEFORE}(?:영아|아기|애기|아가|젖먹이){_PARTICLE_AFTER}|\b(?:infants?|baby|babies)\b", re.IGNORECASE | re.ASCII), "infant"),
    (re.compile(rf"{_NOT_H_BEFORE}(?:유아|어린이|아이|애|아들|딸|초등학생|미취학){_PARTICLE_AFTER}|\b(?:toddlers?|child|children|kids?|preschoolers?)\b", re.IGNORECASE | re.ASCII), "child"),
    (re.compile(rf"{_NOT_H_BEFORE}(?:청소년|중학생|고등학생|사춘기){_PARTICLE_AFTER}|\b(?:teens?|teenagers?|adolescents?)\b", re.IGNORECASE | re.ASCII), "adolescent"),
    (re.compile(rf"{_NOT_H_BEFORE}(?:노인|어르신|고령자|할머니|할아버지){_PARTICLE_AFTER}|\b(?:elderly|older adults?|seniors?|grandmother|grandfather|grandma|grandpa)\b", re.IGNORECASE | re.ASCII), "older_adult"),
]

_MALE = re.compile(
    rf"{_NOT_H_BEFORE}(?:남자|남성|남아|남편|아들|할아버지|아버지|아빠|소년|남동생|오빠|형|시아버지|장인어른|신랑){_PARTICLE_AFTER}"
    r"|\b(?:male|man|boy|gentleman|husband|son|father|dad|grandfather|grandpa|brother|he|him|his|mr)\b",
    re.IGNORECASE | re.ASCII,
)
_FEMALE = re.compile(
    rf"{_NOT_H_BEFORE}(?:여자|여성|여아|아내|와이프|부인|딸|할머니|어머니|엄마|소녀|여동생|언니|누나|시어머니|장모님|임산부|임신부|산모){_PARTICLE_AFTER}"
    r"|\b(?:female|woman|women|girl|lady|wife|daughter|mother|mom|mum|grandmother|grandma|sister|she|her|hers|mrs)\b",
    re.IGNORECASE | re.ASCII,
)
_SEX_WITH_AGE = re.compile(r"(?:\d\s*(?:세|살)\s*(?P<a>남|여)(?![가-힣]))|(?:(?P<b>남|여)\s*/?\s*\d{1,3}\s*(?:세|살)?(?![\d가-힣]))")

_PREGNANT = re.compile(
    r"임신|임산부|임신부|임부|산모|pregnan|expecting\s+a\s+baby|with\s+child|\d+\s*weeks?\s+(?:pregnant|gestation)|(?-i:\bG[1-9]\d?(?:\s*P\d+)?\b)",
    re.IGNORECASE | re.ASCII,
)
_NOT_PREGNANT = re.compile(
    r"임신(?:은|을|이)?\s*(?:아니|안\s*했|안\s*했|하지\s*않|아닌|안\s*됐|가능성(?:은|이)?\s*없|중이\s*아니)|임신\s*(?:계획|준비|하려고|하고\s*싶|시도)"
    r"|not\s+pregnant|no\s+(?:chance\s+of\s+)?pregnancy|isn't\s+pregnant|am\s+not\s+pregnant|trying\s+to\s+(?:get|become)\s+pregnant|planning\s+(?:a\s+)?pregnancy|planning\s+to\s+(?:get|become)\s+pregnant|could\s+i\s+be\s+pregnant",
    re.IGNORECASE | re.ASCII,
)
_PREGNANCY_WEEKS = re.compile(
    r"임신\s*(?P<a>\d{1,2})\s*주|(?P<b>\d{1,2})\s*주\s*(?:차|째)|(?P<c>\d{1,2})\s*(?:weeks?|wks?)\s*(?:pregnant|gestation|along)|(?:pregnant|gestation)[^.]{0,20}?(?P<d>\d{1,2})\s*weeks?",
    re.IGNORECASE | re.ASCII,
)
_BREASTFEEDING = re.compile(r"모유\s*수유|수유\s*중|수유하|breast\s*-?feeding|nursing\s+(?:a|my)\s+baby|lactating", re.IGNORECASE | re.ASCII)


def find_demographics(text: str) -> dict:
    age, age_group = _age(text)
    pregnant, weeks = _pregnancy(text)
    gender = _gender(text)
    if pregnant:
        gender = "female"
    result = {"age": age, "age_group": age_group, "gender": gender, "pregnant": pregnant}
    if weeks is not None:
        result["pregnancy_weeks"] = weeks
    if _BREASTFEEDING.search(text):
        result["breastfeeding"] = True
    return result


def group_for_age(age: int | None, months: float | None = None) -> str | None:
    """"infant" under 1, "child" to 12, "adolescent" to 19, then the decade ("60s")."""
    if months is not None and months < 12:
        return "infant"
    if age is None:
        return None
    if age < 1:
        return "infant"
    if age < 13:
        return "child"
    if age < 20:
        return "adolescent"
    return f"{min(age // 10 * 10, 100)}s"


def infant_age_in_months(text: str) -> float | None:
    """The age in months when the text gives it in days, weeks or months, else None."""
    for pattern, unit in _INFANT_AGE:
        match = pattern.search(text)
        if match:
            value = int(match.group("n") or match.groupdict().get("n2") or 0)
            return {"months": value, "weeks": value / 4.345, "days": value / 30.4}[unit]
    native = _KOREAN_MONTHS.search(text)
    if native:
        return float(_KOREAN_NUMBERS[native["word"]])
    word = _ENGLISH_WORD_AGE.search(text)
    if word and word["what"].lower() in {"month", "week"}:
        value = _ENGLISH_NUMBER_WORDS[word["word"].lower()]
        return value if word["what"].lower() == "month" else value / 4.345
    return None


def _age(text: str) -> tuple[int | None, str | None]:
    for pattern in _AGE_PATTERNS:
        match = pattern.search(text)
        if match and 0 <= int(match["age"]) <= 120:
            age = int(match["age"])
            return age, group_for_age(age)
    months = infant_age_in_months(text)
    if months is not None:
        return (int(months // 12), group_for_age(int(months // 12), months))
    native = _NATIVE_AGE.search(text)
    if native and (native["tens"] or native["units"]):
        age = _NATIVE_TENS.get(native["tens"] or "", 0) + _NATIVE_UNITS.get(native["units"] or "", 0)
        return age, group_for_age(age)
    word = _ENGLISH_WORD_AGE.search(text)
    if word and word["what"].lower() == "year":
        age = _ENGLISH_NUMBER_WORDS[word["word"].lower()]
        return age, group_for_age(age)
    for pattern in _DECADE:
        match = pattern.search(text)
        if match:
            return None, f"{match['d']}0s"
    words = _DECADE_WORDS.search(text)
    if words:
        return None, f"{_DECADE_WORD_VALUES[words['w'].lower()]}0s"
    for pattern, group in _AGE_GROUP_WORDS:
        if pattern.search(text):
            return None, group
    return None, None


def _gender(text: str) -> str | None:
    explicit = _SEX_WITH_AGE.search(text)
    if explicit:
        return "male" if (explicit["a"] or explicit["b"]) == "남" else "female"
    for pattern in (p for p in _AGE_PATTERNS if "sex" in p.groupindex):
        match = pattern.search(text)
        if match and 0 <= int(match["age"]) <= 120:
            return "male" if match["sex"] == "M" else "female"
    male, female = _MALE.search(text), _FEMALE.search(text)
    if male and female:
        return "male" if male.start() < female.start() else "female"
    if male:
        return "male"
    if female:
        return "female"
    return None


def _pregnancy(text: str) -> tuple[bool | None, int | None]:
    if _NOT_PREGNANT.search(text):
        return (False if re.search(r"아니|않|not|no\s|isn't|없", _NOT_PREGNANT.search(text).group(0), re.IGNORECASE | re.ASCII) else None), None
    if not _PREGNANT.search(text):
        return None, None
    weeks_match = _PREGNANCY_WEEKS.search(text)
    weeks = None
    if weeks_match:
        raw = next(group for group in weeks_match.groups() if group)
        weeks = int(raw) if 1 <= int(raw) <= 42 else None
    return True, weeks
