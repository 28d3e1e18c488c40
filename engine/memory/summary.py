"""Compact, deterministic rendering of a profile for the prompt, allergies always first.

English or Korean labels (the prompt language). Item names stay as stored (English
canonical where the extractor linked a concept); in Korean, a Korean span as the
patient wrote it is shown first with the canonical name in brackets.
"""

from __future__ import annotations

from engine.clinical.slot_model import MEASUREMENT_SLOTS, SUMMARY_DENIED_SLOTS, SUMMARY_SLOTS
from engine.text import HANGUL

PENDING = "pending-confirmation"
SYMPTOM_MIN_WEIGHT = 0.1  # a symptom below this weight (~115 h old) has decayed out

LABELS = {
    "en": {
        "allergies": "Allergies",
        "none": "none recorded",
        "contraindications": "Contraindications",
        "patient": "Patient",
        "conditions": "Conditions",
        "medications": "Medications",
        "symptoms": "Symptoms",
        "vitals": "Vitals",
        "labs": "Labs",
        "denies": "Denies",
        "unconfirmed": "unconfirmed",
        "abnormal": "abnormal",
        "pregnant": "pregnant",
        "male": "male",
        "female": "female",
        "infant": "infant",
        "child": "child",
        "adolescent": "adolescent",
        "older_adult": "older adult",
    },
    "ko": {
        "allergies": "알레르기",
        "none": "기록 없음",
        "contraindications": "금기",
        "patient": "환자",
        "conditions": "질환",
        "medications": "복용약",
        "symptoms": "증상",
        "vitals": "활력징후",
        "labs": "검사",
        "denies": "부인",
        "unconfirmed": "미확인",
        "abnormal": "이상",
        "pregnant": "임신 중",
        "male": "남성",
        "female": "여성",
        "infant": "영아",
        "child": "소아",
        "adolescent": "청소년",
        "older_adult": "노인",
    },
}

MEASUREMENT_LABELS = {
    "en": {
        "blood_pressure": "BP",
        "heart_rate": "HR",
        "respiratory_rate": "RR",
        "temperature": "Temp",
        "spo2": "SpO2",
        "weight": "Weight",
        "height": "Height",
        "glucose": "Glucose",
        "hba1c": "HbA1c",
        "ldl": "LDL",
        "egfr": "eGFR",
        "tsh": "TSH",
        "inr": "INR",
        "crp": "CRP",
        "psa": "PSA",
        "ast": "AST",
        "alt": "ALT",
        "ggt": "GGT",
        "alp": "ALP",
        "bun": "BUN",
    },
    "ko": {
        "blood_pressure": "혈압",
        "heart_rate": "맥박",
        "respiratory_rate": "호흡수",
        "temperature": "체온",
        "spo2": "산소포화도",
        "weight": "체중",
        "height": "키",
        "glucose": "혈당",
        "hba1c": "당화혈색소(HbA1c)",
        "ldl": "LDL 콜레스테롤",
        "egfr": "사구체여과율(eGFR)",
        "tsh": "갑상선자극호르몬(TSH)",
        # A lab's own name: in a profile line "potassium" would otherwise read as the medicine (염화칼륨).
        "bmi": "체질량지수(BMI)",
        "hdl": "HDL 콜레스테롤",
        "triglycerides": "중성지방",
        "total_cholesterol": "총콜레스테롤",
        "creatinine": "크레아티닌",
        "bun": "혈중요소질소(BUN)",
        "free_t4": "유리 T4",
        "hemoglobin": "혈색소",
        "hematocrit": "적혈구용적률",
        "wbc": "백혈구 수",
        "platelets": "혈소판 수",
        "uric_acid": "요산",
        "potassium": "칼륨",
        "inr": "INR",
        "crp": "CRP",
        "psa": "전립선특이항원(PSA)",
        "ast": "AST",
        "alt": "ALT",
        "ggt": "GGT",
        "alp": "ALP",
        "sodium": "나트륨",
        "albumin": "알부민",
        "vitamin_d": "비타민 D",
        "ferritin": "페리틴",
        "urine_albumin": "소변 알부민",
    },
}


def render_summary(profile: dict, language: str = "en") -> str:
    labels = LABELS.get(language, LABELS["en"])
    lines = []
    allergies = [e for e in profile.get("allergies", []) if not e["negated"]]
    allergy_text = ", ".join(describe(e, "allergies", language) for e in allergies)
    lines.append(f"{labels['allergies']}: {allergy_text or labels['none']}")
    contraindications = [e for e in profile.get("contraindications", []) if not e["negated"]]
    if contraindications:
        text = ", ".join(describe(e, "contraindications", language) for e in contraindications)
        lines.append(f"{labels['contraindications']}: {text}")
    patient = demographics_line(profile.get("demographics", {}), language)
    if patient:
        lines.append(f"{labels['patient']}: {patient}")
    for slot in SUMMARY_SLOTS:
        if slot == "allergies":
            continue  # written first, even when there are none
        if slot in MEASUREMENT_SLOTS:
            items = _latest_per_type(profile.get(slot, []))
        else:
            items = [e for e in profile.get(slot, []) if not e["negated"]]
        if slot == "symptoms":
            items = [e for e in items if e["weight"] >= SYMPTOM_MIN_WEIGHT][:5]
        if items:
            lines.append(f"{labels[slot]}: " + ", ".join(describe(e, slot, language) for e in items))
    denied = [
        e
        for slot in SUMMARY_DENIED_SLOTS
        for e in profile.get(slot, [])
        if e["negated"] and e["status"] != PENDING
    ]
    if denied:
        lines.append(f"{labels['denies']}: " + ", ".join(_display_name(e, language) for e in denied))
    return "\n".join(lines)


def describe(entry: dict, slot: str, language: str = "en") -> str:
    """One item as a short phrase, e.g. "metformin 500 mg twice daily" or "BP 140/90 mmHg"."""
    labels = LABELS.get(language, LABELS["en"])
    if slot in MEASUREMENT_SLOTS:
        text = _measurement(entry, language)
        if slot == "labs" and entry.get("abnormal"):
            text += f" ({labels['abnormal']})"
    else:
        parts = [_display_name(entry, language)]
        if slot == "medications":
            parts += [str(entry[k]) for k in ("dose", "frequency") if entry.get(k)]
        text = " ".join(parts)
    if entry.get("status") == PENDING:
        text += f" ({labels['unconfirmed']})"
    return text


def _display_name(entry: dict, language: str) -> str:
    name, span = entry.get("name", ""), entry.get("text")
    if language == "ko" and span and HANGUL.search(span) and span != name:
        return f"{span} ({name})"
    return name


def _measurement(entry: dict, language: str) -> str:
    kind = entry.get("type", "")
    label = MEASUREMENT_LABELS.get(language, MEASUREMENT_LABELS["en"]).get(kind, kind.replace("_", " "))
    unit = entry.get("unit") or ""
    if kind == "blood_pressure":
        value = f"{format_number(entry.get('systolic'))}/{format_number(entry.get('diastolic'))}"
    else:
        value = format_number(entry.get("value"))
    return " ".join(part for part in (label, value, unit) if part)


def format_number(value) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "" if value is None else str(value)


def _latest_per_type(entries: list[dict]) -> list[dict]:
    """Entries arrive newest first; keep the first of each type."""
    seen, latest = set(), []
    for entry in entries:
        if entry.get("type") not in seen:
            seen.add(entry.get("type"))
            latest.append(entry)
    return latest


def demographics_line(demo: dict, language: str) -> str:
    """Age (or age group), sex and pregnancy in words of `language` ("소아 남성, 임신 중")."""
    labels = LABELS.get(language, LABELS["en"])
    age, group, gender = demo.get("age"), demo.get("age_group"), demo.get("gender")
    group = labels.get(group, group) if group else group
    parts = []
    gender_word = labels.get(gender, gender) if gender else None
    if language == "ko":
        head = " ".join(p for p in (f"{age}세" if age is not None else group, gender_word) if p)
    else:
        head = " ".join(p for p in (f"{age}-year-old" if age is not None else group, gender_word) if p)
    if head:
        parts.append(head)
    if demo.get("pregnant"):
        parts.append(labels["pregnant"])
    return ", ".join(parts)
