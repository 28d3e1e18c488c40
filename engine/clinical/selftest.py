"""`chartside selftest` check for clinical understanding (pack, extraction, triage)."""

from __future__ import annotations

from engine.clinical.slots import extract, get_pack
from engine.clinical.red_flags import triage
from engine.settings import Settings


def check(settings: Settings) -> str:
    pack = get_pack()
    korean = extract("고혈압이 있고 열은 없어요. 메트포르민 500mg 하루 두 번", pack)
    english = extract("65-year-old man with diabetes, no chest pain, BP 150/95", pack)
    names = {item["name"] for item in korean["conditions"]}
    if "hypertension" not in names or not any(s["negated"] for s in korean["symptoms"]):
        raise AssertionError(f"Korean extraction failed: {korean}")
    if not korean["medications"] or korean["medications"][0].get("frequency") != "twice daily":
        raise AssertionError(f"Korean medication details failed: {korean['medications']}")
    if english["demographics"]["age"] != 65 or not english["vitals"]:
        raise AssertionError(f"English extraction failed: {english}")
    flagged = triage("가슴이 조이듯 아프고 왼팔로 통증이 퍼져요")
    if not flagged["emergency"] or flagged["category"] != "chest_pain":
        raise AssertionError(f"triage missed a red flag: {flagged}")
    return f"clinical pack ok ({pack.manifest.get('concepts')} concepts, loaded in {pack.load_seconds:.2f} s)"
