"""The patient-data detectors: what a clinic document may not carry into the knowledge base.

Positive and negative cases in Korean and English; the negatives are the kind of text a
clinic protocol or a MedQuAD answer really holds (years, doses, lab ranges, guideline
citations, toll-free numbers, product barcodes). Property tests embed generated
identifiers in reference text and check that each is found and never echoed."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from engine.knowledge.patient_data import scan_text, summarise

POSITIVE = [
    # Korean resident registration numbers
    ("주민등록번호: 800101-1234567", "resident_registration_number"),
    ("환자 주민번호 9512312345678 확인 바람", "resident_registration_number"),
    ("RRN 020229-4123456 (foreign-born mother)", "resident_registration_number"),
    ("접수: 751225-2******", "resident_registration_number"),
    ("외국인 850615-5123456", "resident_registration_number"),
    # phone numbers
    ("보호자 연락처 010-1234-5678", "phone_number"),
    ("문자 회신: 01098765432", "phone_number"),
    ("Call back on +82 10-2345-6789 after 6pm", "phone_number"),
    ("Phone: (555) 123-4567", "phone_number"),
    ("Tel. 02-3410-1234 (home)", "phone_number"),
    ("휴대폰: 011 234 5678", "phone_number"),
    ("mobile 07700 900123", "phone_number"),
    # chart / record numbers
    ("MRN: 00482913", "chart_number"),
    ("Medical record number 7734-2201", "chart_number"),
    ("Chart #A-104233 reviewed", "chart_number"),
    ("Patient ID: KR55012", "chart_number"),
    ("차트번호 12345 환자 내원", "chart_number"),
    ("병록번호: 2023-00417", "chart_number"),
    ("등록번호 20000123", "chart_number"),
    # birth dates, with or without a name beside them
    ("DOB: 03/14/1962", "birth_date"),
    ("D.O.B. 1962-03-14", "birth_date"),
    ("Date of birth 14 March 1962", "birth_date"),
    ("born on Mar. 14, 1962 in Busan", "birth_date"),
    ("생년월일: 1962년 3월 14일", "birth_date"),
    ("홍길동 (1962.03.14생) 고혈압 추적", "birth_date"),
    ("김영희 620314생 여", "birth_date"),
    # names beside dates
    ("Name: John Smith, seen 2024-05-02 for chest pain", "name_and_date"),
    ("Mrs. Park attended on 05/02/2024 with her daughter", "name_and_date"),
    ("Patient: Jane Doe  DOB 1/2/1950", "name_and_date"),
    ("성명: 김철수 / 내원일 2024.05.02", "name_and_date"),
    ("이영희님 2024년 5월 2일 재진 예약", "name_and_date"),
    ("환자: 박민준, 2023-11-30 입원", "name_and_date"),
    ("최지우 씨 2021. 3. 9. 검사 결과 설명함", "name_and_date"),
]

NEGATIVE = [
    # years, guidelines and citations
    "Follow the 2019 ACC/AHA guidelines for primary prevention.",
    "According to Smith et al. (2019), metformin remains first line.",
    "2017년 대한당뇨병학회 진료지침에 따라 메트포르민을 우선 사용한다.",
    "Updated 2021; reviewed by the clinic committee in 2023.",
    "The study ran from 2015-2019 and enrolled 1,204 adults.",
    "ICD-10 code E11.9; KCD 2021 revision.",
    # doses, ranges and lab values
    "Amoxicillin 500 mg three times daily for 5-7 days (max 4,000 mg/day).",
    "Give 0.15 mg/kg every 6-8 hours; pediatric dose 10-15 mg/kg/dose.",
    "Target HbA1c below 7.0%; LDL under 100 mg/dL; BP 130/80 mmHg.",
    "아목시실린 500mg 1일 3회, 5-7일간 복용. 소아 용량 20-40 mg/kg/일.",
    "정상 범위: 공복 혈당 70-99 mg/dL, eGFR 90 mL/min/1.73m² 이상.",
    "pH 7.35-7.45, PaCO2 35-45 mmHg, HCO3- 22-26 mEq/L.",
    "Insulin glargine 10 units at 22:00; recheck on day 3.",
    # dates without a person
    "The clinic is closed on 2024-12-25 and 2025-01-01.",
    "독감 예방접종은 2024년 10월 2일부터 시작합니다.",
    "Version 3.2, effective 01/07/2024.",
    # organisations' numbers and labels without numbers
    "For poisoning call 1-800-222-1222 (Poison Control).",
    "Call the NIH at 301-496-4000 for information.",
    "질병관리청 콜센터 1339, 건강보험 고객센터 1577-1000.",
    "수신자부담 080-123-4567 으로 문의하세요.",
    "Record the MRN and date of birth on every specimen label.",
    "차트번호와 생년월일을 두 번 확인한 뒤 투약한다.",
    "사업자등록번호 123-45-67890",
    "Patient ID wristbands are checked before every transfusion.",
    # barcodes, honorific words, names of things
    "바코드 8801234567890 (EAN-13)",
    "선생님 2024.05.02 교육 자료 배포",
    "고객님께서는 2024년 5월 2일까지 신청하세요.",
    "Brand name: Glucophage (approved 1995-03-03).",
    "Dr. Lee presented the protocol on 2024-05-02.",
    "Patients born in 1960 or earlier are eligible for the shingles vaccine.",
    "Babies born at 32 weeks need a hearing screen before discharge.",
    "출생 후 24시간 이내 B형간염 예방접종.",
]


@pytest.mark.parametrize("text, kind", POSITIVE)
def test_patient_data_is_found(text, kind):
    findings = scan_text(f"Clinic note\n{text}\nEnd.")
    assert kind in {f.kind for f in findings}, findings
    assert all(f.line == 2 for f in findings)


@pytest.mark.parametrize("text", NEGATIVE)
def test_reference_text_is_not_flagged(text):
    assert scan_text(text) == []


def test_excerpt_is_masked_and_numbered():
    text = "고혈압 관리 지침\n\n홍길동 주민등록번호 800101-1234567, 연락처 010-9876-5432\n"
    findings = scan_text(text)
    assert {f.kind for f in findings} == {"resident_registration_number", "phone_number"}
    for finding in findings:
        assert finding.line == 3
        assert "800101" not in finding.excerpt and "1234567" not in finding.excerpt
        assert "9876" not in finding.excerpt and "5432" not in finding.excerpt
        assert "######-#######" in finding.excerpt
        assert str(finding).startswith("line 3: ")
    assert summarise(findings) == {"resident_registration_number": 1, "phone_number": 1}


def test_names_are_masked_to_their_first_letter():
    (finding,) = scan_text("Name: Johnathan Smithers, seen 2024-05-02")
    assert finding.kind == "name_and_date"
    assert "Johnathan" not in finding.excerpt and "Smithers" not in finding.excerpt
    assert "J******** S*******" in finding.excerpt and "####-##-##" in finding.excerpt


def test_a_long_document_reports_every_line():
    lines = ["Hypertension protocol: recheck BP in 2 weeks (2019 guideline)."] * 200
    lines[17] = "MRN 55231190"
    lines[150] = "010-2222-3333 으로 결과 통보"
    assert [(f.line, f.kind) for f in scan_text("\n".join(lines))] == [(18, "chart_number"), (151, "phone_number")]


# -- properties --------------------------------------------------------------------------------
REFERENCE_LINES = st.sampled_from([line for line in NEGATIVE])
MONTH_DAY = st.tuples(st.integers(1, 12), st.integers(1, 28))


@st.composite
def rrns(draw) -> str:
    year = draw(st.integers(0, 99))
    month, day = draw(MONTH_DAY)
    gender = draw(st.integers(1, 8))
    rest = draw(st.integers(0, 999_999))
    return f"{year:02d}{month:02d}{day:02d}-{gender}{rest:06d}"


@st.composite
def mobiles(draw) -> str:
    prefix = draw(st.sampled_from(["010", "011", "016", "017", "019"]))
    middle = draw(st.integers(0, 9999) if prefix == "010" else st.integers(100, 9999))
    last = draw(st.integers(0, 9999))
    sep = draw(st.sampled_from(["-", " ", ".", ""]))
    return f"{prefix}{sep}{middle:0{4 if prefix == '010' else 3}d}{sep}{last:04d}"


@settings(max_examples=150, deadline=None)
@given(before=REFERENCE_LINES, after=REFERENCE_LINES, rrn=rrns())
def test_any_resident_registration_number_in_reference_text_is_found_and_masked(before, after, rrn):
    findings = scan_text(f"{before}\n보호자 주민등록번호 {rrn} 확인\n{after}")
    hits = [f for f in findings if f.kind == "resident_registration_number"]
    assert [f.line for f in hits] == [2]
    assert not re.search(r"\d", hits[0].excerpt)


@settings(max_examples=150, deadline=None)
@given(before=REFERENCE_LINES, phone=mobiles())
def test_any_korean_mobile_number_is_found_and_masked(before, phone):
    findings = scan_text(f"{before} 문의 {phone} 로 연락")
    assert "phone_number" in {f.kind for f in findings}
    assert all(phone not in f.excerpt for f in findings)


@settings(max_examples=200, deadline=None)
@given(year=st.integers(1990, 2030), dose=st.integers(1, 2000), low=st.integers(1, 99), high=st.integers(1, 999),
       unit=st.sampled_from(["mg", "mg/kg", "mg/kg/day", "mL", "units", "mcg", "mmHg", "mg/dL", "%", "mmol/L"]))
def test_years_doses_and_ranges_never_trigger(year, dose, low, high, unit):
    text = (f"{year} guidelines: give {dose} {unit} daily, then {low}-{high} {unit} as needed.\n"
            f"{year}년 지침: {dose}{unit} 1일 1회, 이후 {low}~{high}{unit}. 목표 {low}/{high}.\n"
            f"See the {year} update (Kim et al., {year}), table {low}.{high}.")
    assert scan_text(text) == []


SURNAMES = "김이박최정강조윤장임한오서신권황"
GIVEN = "민준서연지우하은도윤수아예준시우지호유진"
DATE_FORMATS = ("{y}-{m:02d}-{d:02d}", "{y}.{m}.{d}", "{y}년 {m}월 {d}일", "{m:02d}/{d:02d}/{y}", "{d} March {y}")


@st.composite
def dates(draw) -> str:
    year, (month, day) = draw(st.integers(1930, 2024)), draw(MONTH_DAY)
    return draw(st.sampled_from(DATE_FORMATS)).format(y=year, m=month, d=day)


@settings(max_examples=150, deadline=None)
@given(surname=st.sampled_from(SURNAMES), given_name=st.text(GIVEN, min_size=2, max_size=2), date=dates(),
       before=REFERENCE_LINES, template=st.sampled_from(["{name}님 {date} 내원", "성명: {name} 생년월일 {date}",
                                                         "환자: {name}, {date} 입원"]))
def test_a_korean_name_beside_a_date_is_found_and_masked(surname, given_name, date, before, template):
    name = surname + given_name
    findings = scan_text(f"{before}\n{template.format(name=name, date=date)}")
    assert {f.kind for f in findings} & {"name_and_date", "birth_date"}
    assert all(f.line == 2 and name not in f.excerpt for f in findings)


@settings(max_examples=150, deadline=None)
@given(first=st.sampled_from(["John", "Mary", "Robert", "Linda", "James", "Susan"]),
       last=st.sampled_from(["Smith", "Johnson", "Williams", "Brown", "Garcia", "Miller"]), date=dates(),
       template=st.sampled_from(["Name: {first} {last}, DOB {date}", "Patient: {first} {last} seen {date}",
                                 "Mrs. {last} attended on {date}", "DOB: {date} ({first} {last})"]))
def test_an_english_name_beside_a_date_is_found_and_masked(first, last, date, template):
    findings = scan_text(template.format(first=first, last=last, date=date))
    assert {f.kind for f in findings} & {"name_and_date", "birth_date"}
    assert all(last not in f.excerpt and not re.search(r"\d", f.excerpt) for f in findings)
