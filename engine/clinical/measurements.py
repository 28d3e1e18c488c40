"""Vitals and labs from free text: names from resources/clinical/measurements.tsv, numbers
and units by regular expressions, each value checked against a plausible range.

"혈압 140/90", "BP 150 over 95", "체온 38.5도", "HbA1c 7.2%", "LDL이 160", "eGFR 45",
"70kg", "5'10\"" all become items `{"type", "value" (or "systolic"/"diastolic"), "unit",
"text", "start", "end"}`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from engine.clinical.lexicon import lexicon_dir, read_rows
from engine.text import HANGUL_SYLLABLE, has_hangul

_H = HANGUL_SYLLABLE
NUMBER = r"(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)"

# unit family -> [(written-unit regex, normalised unit, factor to the family's default)]
UNITS: dict[str, list[tuple[str, str, float | None]]] = {
    "mg_dl": [(r"mg\s*/\s*dl|mg%", "mg/dL", 1.0), (r"mmol\s*/\s*l", "mmol/L", None), (r"[μµu]mol\s*/\s*l", "µmol/L", None)],
    "percent": [(r"%|퍼센트|프로|percent", "%", 1.0)],
    "mmhg": [(r"mm\s*hg", "mmHg", 1.0)],
    "bpm": [(r"bpm|beats?\s*(?:per|/)\s*min(?:ute)?|회\s*/\s*분|/\s*min|회", "bpm", 1.0)],
    "per_min": [(r"breaths?\s*(?:per|/)\s*min(?:ute)?|회\s*/\s*분|/\s*min|회", "/min", 1.0)],
    "celsius": [(r"°\s*f|℉|degrees?\s*f(?:ahrenheit)?\b|f\b|fahrenheit", "°F", None),
                (r"°\s*c|℃|도씨|도|degrees?\s*c(?:elsius)?\b|degrees?|c\b|celsius", "°C", 1.0)],
    "kg": [(r"kg|kgs|킬로그램|킬로|키로|kilos?|kilograms?", "kg", 1.0),
           (r"lbs?\b|pounds?|파운드", "lb", 0.4536)],
    "cm": [(r"cm|센티미터|센티|센치|centimeters?", "cm", 1.0), (r"m\b|미터|meters?", "m", 100.0),
           (r"inches|inch|in\b", "in", 2.54)],
    "kg_m2": [(r"kg\s*/\s*m\s*(?:2|²|\^2)", "kg/m2", 1.0)],
    "ml_min": [(r"m[lL]\s*/\s*min(?:\s*/\s*1\.73\s*m\s*(?:2|²|\^2))?", "mL/min/1.73m2", 1.0)],
    "miu_l": [(r"m[iI]?U\s*/\s*L|[μµu]I?U\s*/\s*m[lL]|mU\s*/\s*L", "mIU/L", 1.0)],
    "ng_dl": [(r"ng\s*/\s*dl", "ng/dL", 1.0), (r"pmol\s*/\s*l", "pmol/L", None)],
    "ng_ml": [(r"ng\s*/\s*ml", "ng/mL", 1.0), (r"nmol\s*/\s*l", "nmol/L", None)],
    "u_l": [(r"i?u\s*/\s*l", "U/L", 1.0)],
    "g_dl": [(r"g\s*/\s*dl", "g/dL", 1.0), (r"g\s*/\s*l", "g/L", None)],
    "per_ul": [(r"(?:x|×)\s*10\s*(?:\^|\*\*)?\s*(?:3|³)\s*/\s*[μµu]l|k\s*/\s*[μµu]l|/\s*[μµu]l|/\s*mm3|/\s*mm³", "/µL", 1.0)],
    "mg_l": [(r"mg\s*/\s*l", "mg/L", 1.0), (r"mg\s*/\s*dl", "mg/dL", 10.0)],
    "meq_l": [(r"meq\s*/\s*l|mmol\s*/\s*l", "mmol/L", 1.0)],
    "mg_g": [(r"mg\s*/\s*g", "mg/g", 1.0)],
    "none": [],
}
DEFAULT_UNIT = {
    "mg_dl": "mg/dL", "percent": "%", "mmhg": "mmHg", "bpm": "bpm", "per_min": "/min", "celsius": "°C",
    "kg": "kg", "cm": "cm", "kg_m2": "kg/m2", "ml_min": "mL/min/1.73m2", "miu_l": "mIU/L", "ng_dl": "ng/dL",
    "ng_ml": "ng/mL", "u_l": "U/L", "g_dl": "g/dL", "per_ul": "/µL", "mg_l": "mg/L", "meq_l": "mmol/L",
    "mg_g": "mg/g", "none": None,
}
# Words allowed between a measurement's name and its number.
_GAP = (
    rf"(?:[\s:=(]|이|가|은|는|도|의|을|를|수치|수치가|수치는|레벨|검사|결과|결과가|에서|로|으로|이었|였|측정|"
    rf"재보니|재니|쟀더니|쟀는데|재면|잴|잰|나왔|나오|나온|약|대략|정도|까지|가량|하고|"
    rf"아침|아침에|공복|공복에|공복으로|식전|식전에|식후|식후에|저녁|저녁에|밤|밤에|오늘|어제|어제는|오늘은|아까|방금|최근|지난번|"
    rf"집에서|병원에서|검진에서|건강검진|건강검진에서|피검사|피검사에서|혈액검사|혈액검사에서|"
    rf"is|was|are|were|of|at|around|about|approximately|approx|reading|readings|level|levels|count|"
    rf"measured|came\s+back|came|back|been|has|have|running|reads|read|went\s+up\s+to|up\s+to|over|"
    rf"my|the|today|this\s+morning|last|checked|test|result|results|showed|shows|~|-)*?"
)
_ENGLISH_EDGE_BEFORE = r"(?<![A-Za-z0-9])"
# A number followed by a count or a time unit is not a measurement ("체중이 3달 만에", "for 2 weeks").
_NOT_A_COUNT = (
    r"(?!\s*(?:(?:달|개월|주|일|년|시간|분|살|세|층|명|개|잔|알|배)(?:째|간|동안|만에|이|가|을|를|은|는|도|만|에|씩|이나|나|전|후|부터|까지|마다|사이)?(?![가-힣])|"
    r"(?:days?|weeks?|months?|years?|hours?|hrs?|minutes?|mins?|times|pills?|tablets?|flights?|floors?)(?![A-Za-z])))"
)
# Weight changes are symptoms, not a weight ("5kg 빠졌어요", "lost 10 pounds").
_WEIGHT_CHANGE_AFTER = re.compile(r"^\s*(?:이|가|정도|가량|쯤|나|이나)?\s*(?:빠|줄|늘|쪘|찌|감량|증가|감소|넘게\s*(?:빠|줄|늘))")
_WEIGHT_CHANGE_BEFORE = re.compile(r"(?:lost|lose|losing|gained|gain|gaining|dropped|put\s+on|down|up)\s+(?:about\s+|around\s+|almost\s+|over\s+)?$", re.IGNORECASE | re.ASCII)
_NAME_EDGE_AFTER = r"(?![A-Za-z])"


@dataclass(frozen=True)
class MeasurementSpec:
    type: str
    name: str
    kind: str
    family: str
    minimum: float
    maximum: float
    names: tuple[str, ...]


@dataclass
class Measurement:
    kind: str
    item: dict
    start: int
    end: int


@lru_cache(maxsize=2)
def load_specs(directory: Path | None = None) -> tuple[MeasurementSpec, ...]:
    rows = read_rows((directory or lexicon_dir()) / "measurements.tsv", 7)
    return tuple(
        MeasurementSpec(row[0], row[1], row[2], row[3], float(row[4]), float(row[5]), tuple(row[6].split("|")))
        for row in rows
    )


def _name_pattern(names: tuple[str, ...]) -> str:
    """Alternatives, longest first. Short all-capital abbreviations (HR, K, Na) must be
    written in capitals; other English names match in any case."""
    parts = []
    for name in sorted(names, key=len, reverse=True):
        plain = name.replace("\\", "")
        if re.fullmatch(r"[A-Z][A-Za-z0-9+]{0,2}", plain):
            parts.append(f"(?-i:{name})")
        elif re.search(f"[{_H}]", name):
            parts.append(name.replace(" ", r"\s*"))
        else:
            parts.append(name.replace(" ", r"\s+"))
    return "|".join(parts)


def _plain(name: str) -> str:
    return re.sub(r"\s+", " ", name.replace("\\", "")).strip().lower()


@dataclass(frozen=True)
class _Compiled:
    names: re.Pattern
    value: re.Pattern
    units: dict[str, re.Pattern]
    by_name: dict[str, MeasurementSpec]


@lru_cache(maxsize=2)
def _compiled(directory: Path | None = None) -> _Compiled:
    """One alternation for every name, then one shared value pattern: a few regular
    expressions instead of one large one per measurement type (compiling those took
    a third of a second)."""
    specs = load_specs(directory)
    by_name: dict[str, MeasurementSpec] = {}
    for spec in specs:
        for name in spec.names:
            by_name.setdefault(_plain(name), spec)
    all_names = tuple(name for spec in specs for name in spec.names)
    names = re.compile(rf"{_ENGLISH_EDGE_BEFORE}(?:{_name_pattern(all_names)}){_NAME_EDGE_AFTER}", re.IGNORECASE | re.ASCII)
    value = re.compile(rf"(?P<gap>{_GAP})(?P<num>{NUMBER[1:-1]})(?![\d.]*\d){_NOT_A_COUNT}", re.IGNORECASE | re.ASCII)
    units = {
        family: re.compile(rf"\s*(?P<unit>{'|'.join(f'(?:{regex})' for regex, _u, _f in options)})", re.IGNORECASE | re.ASCII)
        for family, options in UNITS.items() if options
    }
    return _Compiled(names, value, units, by_name)


_BP_NAMES = r"혈압|(?-i:BP)|(?-i:B/P)|blood\s+pressure|bp"
_BP = re.compile(
    rf"(?:(?P<name>{_BP_NAMES}){_NAME_EDGE_AFTER}(?P<gap>{_GAP}))?"
    rf"(?<![\d/.])(?P<sys>\d{{2,3}})\s*(?:/|over|에|-|에서)\s*(?P<dia>\d{{2,3}})(?![\d/])(?:\s*(?P<unit>mm\s*hg))?",
    re.IGNORECASE | re.ASCII,
)
_BP_SPLIT = re.compile(
    r"(?:수축기(?:\s*혈압)?|systolic(?:\s+bp|\s+pressure)?)\s*(?:이|은|는|:|of|was|is)?\s*(?P<sys>\d{2,3})"
    r"[^\d.!?]{0,25}?(?:이완기(?:\s*혈압)?|diastolic(?:\s+bp|\s+pressure)?)\s*(?:이|은|는|:|of|was|is)?\s*(?P<dia>\d{2,3})",
    re.IGNORECASE | re.ASCII,
)
_BARE_TEMPERATURE = re.compile(
    r"(?<![\d.])(?P<num>\d{2,3}(?:\.\d)?)\s*(?P<unit>°\s*[CF]|℃|℉|도씨|도(?![가-힣])|도[가-힣]|degrees?\s*(?:[CF]\b|celsius|fahrenheit)?)",
    re.IGNORECASE | re.ASCII,
)
_BARE = [
    ("weight", re.compile(r"(?<![\d.])(?P<num>\d{1,3}(?:\.\d+)?)\s*(?P<unit>kg|kgs|킬로그램|킬로|키로|kilos?|kilograms?|lbs?|pounds?)(?![a-zA-Z/])", re.IGNORECASE | re.ASCII)),
    ("height", re.compile(r"(?<![\d.])(?P<num>\d{2,3}(?:\.\d+)?)\s*(?P<unit>cm|센티미터|센티|센치)(?![a-zA-Z/])", re.IGNORECASE | re.ASCII)),
    ("heart_rate", re.compile(r"(?<![\d.])(?P<num>\d{2,3})\s*(?P<unit>bpm|beats?\s*(?:per|/)\s*min(?:ute)?)", re.IGNORECASE | re.ASCII)),
    ("heart_rate", re.compile(r"분당\s*(?P<num>\d{2,3})\s*(?P<unit>회|번)")),
]
_FEET_INCHES = re.compile(
    r"(?<![\d.])(?P<ft>[3-7])\s*(?:'|′|ft|feet|foot)\s*(?P<inch>\d{1,2})?\s*(?:\"|″|''|in\b|inches)?",
    re.IGNORECASE | re.ASCII,
)


def find_measurements(text: str, directory: Path | None = None) -> list[Measurement]:
    """Every vital and lab value in `text`, non-overlapping, in reading order."""
    taken: list[Measurement] = []
    _add_all(taken, _blood_pressures(text))
    specs = {spec.type: spec for spec in load_specs(directory)}
    _add_all(taken, _named_values(text, _compiled(directory)))
    _add_all(taken, _bare_temperatures(text, specs["temperature"]))
    _add_all(taken, _feet_inches(text))
    for type_name, pattern in _BARE:
        spec = specs[type_name]
        _add_all(taken, (m for match in pattern.finditer(text)
                         if (m := _valued(spec, match["num"], match["unit"], text, match.start(), match.end()))))
    return sorted(taken, key=lambda m: m.start)


def _add_all(taken: list[Measurement], found) -> None:
    for measurement in found:
        if all(measurement.end <= other.start or measurement.start >= other.end for other in taken):
            taken.append(measurement)


@lru_cache(maxsize=1)
def _display_names() -> dict[str, str]:
    return {"blood_pressure": "blood pressure", **{spec.type: spec.name for spec in load_specs()}}


def _item(spec_type: str, text: str, start: int, end: int, **values) -> dict:
    return {"type": spec_type, "name": _display_names().get(spec_type, spec_type.replace("_", " ")), **values,
            "text": text[start:end], "start": start, "end": end}


def _blood_pressures(text: str):
    for match in _BP_SPLIT.finditer(text):
        systolic, diastolic = int(match["sys"]), int(match["dia"])
        if 60 <= systolic <= 300 and 30 <= diastolic <= 200 and systolic > diastolic:
            yield Measurement("vital", _item("blood_pressure", text, match.start(), match.end(),
                                             systolic=systolic, diastolic=diastolic, unit="mmHg"), match.start(), match.end())
    for match in _BP.finditer(text):
        systolic, diastolic = int(match["sys"]), int(match["dia"])
        named = match["name"] is not None
        if not (60 <= systolic <= 300 and 30 <= diastolic <= 200 and systolic > diastolic):
            continue
        if not named and not match["unit"] and not (80 <= systolic <= 250 and 40 <= diastolic <= 150):
            continue
        if not named and not match["unit"] and _looks_like_date_or_ratio(text, match.start(), match.end()):
            continue
        start = match.start("name") if named else match.start("sys")
        yield Measurement("vital", _item("blood_pressure", text, start, match.end(),
                                         systolic=systolic, diastolic=diastolic, unit="mmHg"), start, match.end())


def _looks_like_date_or_ratio(text: str, start: int, end: int) -> bool:
    around = text[max(0, start - 12): end + 12].lower()
    return bool(re.search(r"날짜|월|일\b|date|ratio|비율|score|점수|/\d{2,4}/", around))


@dataclass(frozen=True)
class LabName:
    """A lab test named in a text, with or without a value: "당화혈색소 정상 수치가 얼마예요?"."""

    spec: MeasurementSpec
    text: str
    start: int
    end: int

    @property
    def english(self) -> list[str]:
        """The test's English names a knowledge base can be searched by, its own name first.
        Names of two letters or fewer ("K", "Cr") and a bare "sugar" name too much else."""
        names = [self.spec.name, *(_plain(n) for n in self.spec.names)]
        return [n for n in dict.fromkeys(names) if n.isascii() and not _ambiguous_lab_name(n)]


_AMBIGUOUS_LAB_NAMES = {"sugar", "sugars", "urea", "creat", "cre"}


def _ambiguous_lab_name(name: str) -> bool:
    """An English name that names too much else to stand for the test: two letters or fewer, or a bare "sugar"."""
    return name.isascii() and (len(name) <= 2 or name.lower() in _AMBIGUOUS_LAB_NAMES)


@lru_cache(maxsize=1)
def korean_lab_names() -> dict[str, str]:
    """A lab test's English name (lower case) -> its first Korean name ("hba1c" -> "당화혈색소")."""
    return {spec.name.lower(): next(n for n in spec.names if has_hangul(n))
            for spec in load_specs() if spec.kind == "lab" and any(has_hangul(n) for n in spec.names)}


def lab_names(text: str, directory: Path | None = None) -> list[LabName]:
    """Every lab test named in `text` (vitals are left out), in reading order."""
    compiled = _compiled(directory)
    found = []
    for match in compiled.names.finditer(text):
        spec = compiled.by_name.get(_plain(match.group(0)))
        written = match.group(0)
        if spec is None or spec.kind != "lab":
            continue
        if _ambiguous_lab_name(written):
            continue
        found.append(LabName(spec, written, match.start(), match.end()))
    return found


def _number(raw: str) -> float:
    value = float(raw.replace(",", ""))
    return int(value) if value.is_integer() and "." not in raw else value


def _named_values(text: str, compiled: _Compiled):
    for name in compiled.names.finditer(text):
        spec = compiled.by_name.get(_plain(name.group(0)))
        value = compiled.value.match(text, name.end()) if spec else None
        if spec is None or value is None:
            continue
        unit_pattern = compiled.units.get(spec.family)
        unit = unit_pattern.match(text, value.end()) if unit_pattern else None
        if unit and unit.group("unit")[-1:].isascii() and unit.group("unit")[-1:].isalpha() \
                and re.match(r"[A-Za-z]", text[unit.end(): unit.end() + 1]):
            unit = None
        end = unit.end() if unit else value.end()
        measured = _valued(spec, value["num"], unit["unit"] if unit else None, text, name.start(), end,
                           _glucose_qualifier(spec, name.group(0)))
        if measured is not None:
            yield measured


def _glucose_qualifier(spec: MeasurementSpec, name: str) -> dict:
    if spec.type != "glucose":
        return {}
    lowered = name.lower()
    if "공복" in name or "fasting" in lowered or lowered in {"fbs", "fpg"}:
        return {"fasting": True}
    if "식후" in name or "post" in lowered:
        return {"postprandial": True}
    return {}


def _valued(spec: MeasurementSpec, raw: str, written: str | None, text: str, start: int, end: int,
            qualifier: dict | None = None) -> Measurement | None:
    if spec.type == "weight" and (_WEIGHT_CHANGE_AFTER.match(text[end:]) or _WEIGHT_CHANGE_BEFORE.search(text[max(0, start - 20): start])):
        return None
    value = _number(raw)
    unit, factor = _normalise_unit(spec, written)
    if spec.type == "temperature" and written is None and value > 45:
        unit, factor = "°F", None
    if factor is not None:
        comparable = value * factor
        if not spec.minimum <= comparable <= spec.maximum:
            return None
    elif unit == "°F" and not 93 <= value <= 110:
        return None
    item = _item(spec.type, text, start, end, value=value, unit=unit, **(qualifier or {}))
    return Measurement(spec.kind, item, start, end)


def _normalise_unit(spec: MeasurementSpec, written: str | None) -> tuple[str | None, float | None]:
    if written:
        for regex, unit, factor in UNITS[spec.family]:
            if re.fullmatch(regex, written.strip(), re.IGNORECASE | re.ASCII):
                return unit, factor
    return DEFAULT_UNIT[spec.family], 1.0


def _bare_temperatures(text: str, spec: MeasurementSpec):
    for match in _BARE_TEMPERATURE.finditer(text):
        value = _number(match["num"])
        unit_text = match["unit"].lower()
        fahrenheit = "f" in unit_text or "℉" in unit_text
        if fahrenheit and 93 <= value <= 110 or not fahrenheit and 34 <= value <= 43:
            end = match.end() - (1 if unit_text.startswith("도") and len(unit_text) == 2 else 0)
            yield Measurement("vital", _item("temperature", text, match.start(), end, value=value,
                                             unit="°F" if fahrenheit else "°C"), match.start(), end)


def _feet_inches(text: str):
    for match in _FEET_INCHES.finditer(text):
        if match["inch"] is None and not re.search(r"ft|feet|foot|'", match.group(0), re.IGNORECASE | re.ASCII):
            continue
        context = text[max(0, match.start() - 20): match.start()].lower()
        if match["inch"] is None and not re.search(r"tall|height|키", context + text[match.end(): match.end() + 8]):
            continue
        inches = int(match["ft"]) * 12 + int(match["inch"] or 0)
        yield Measurement("vital", _item("height", text, match.start(), match.end(), value=inches, unit="in"),
                          match.start(), match.end())


# Measured values that name a condition, for the rules that read conditions (drug cautions, "when to get help
# now"): a blood pressure of 140/90 or more, an eGFR under 60, an INR above every usual warfarin target range
# (2-3, or 2.5-3.5 for some valves), hyperkalemia, and a blood glucose at which the usual advice is to check for
# ketones (above 240 mg/dL).
HIGH_INR = 4.0
HIGH_POTASSIUM = 5.5  # mmol/L
HIGH_GLUCOSE_MG_DL = 250
HIGH_GLUCOSE_MMOL_L = 13.9


def measured_conditions(source: dict) -> list[tuple[str, str]]:
    """(condition, what was measured) for each vital or lab of `source` (slots or a profile) that names a
    condition: ("hypertension", "blood pressure 150/95"), ("chronic kidney disease", "eGFR 35"), ("high inr",
    "INR 4.5"), ("hyperkalemia", "potassium 6.1"), ("hyperglycemia", "blood glucose 300")."""
    found = []
    for vital in (source or {}).get("vitals", []) or []:
        if isinstance(vital, dict) and vital.get("type") == "blood_pressure" and (
                (vital.get("systolic") or 0) >= 140 or (vital.get("diastolic") or 0) >= 90):
            found.append(("hypertension", f"blood pressure {vital.get('systolic')}/{vital.get('diastolic')}"))
    for lab in (source or {}).get("labs", []) or []:
        value = lab.get("value") if isinstance(lab, dict) else None
        if not isinstance(value, (int, float)):
            continue
        kind = lab.get("type")
        if kind == "egfr" and value < 60:
            found.append(("chronic kidney disease", f"eGFR {value}"))
        elif kind == "inr" and value >= HIGH_INR:
            found.append(("high inr", f"INR {value:g}"))
        elif kind == "potassium" and value >= HIGH_POTASSIUM:
            found.append(("hyperkalemia", f"potassium {value:g}"))
        elif kind == "glucose" and value >= (HIGH_GLUCOSE_MMOL_L if str(lab.get("unit") or "").lower() == "mmol/l"
                                             else HIGH_GLUCOSE_MG_DL):
            found.append(("hyperglycemia", f"blood glucose {value:g}"))
    return found
