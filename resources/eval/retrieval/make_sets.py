"""Writes korean_questions.jsonl and clinical_messages.jsonl from the questions below.

The questions (Korean and their English twins) were written by hand before any retrieval
code for them existed; this script only looks up the gold document ids in the shared
MedQuAD data (focus + qtype), so the committed files carry ids and our own text, never
the data's text. Run: python resources/eval/retrieval/make_sets.py [SHARED_DATA_DIR]
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent

# (focus as MedQuAD names it, MedQuAD qtype, Korean question, English question)
QUESTIONS = [
    ("Hypothyroidism", "symptoms", "갑상선 기능저하증이면 어떤 증상이 나타나요?", "What symptoms does hypothyroidism cause?"),
    ("Hypothyroidism", "causes", "갑상선저하증은 왜 생기는 거에요", "Why does hypothyroidism happen?"),
    ("Hypothyroidism", "treatment", "갑상선 저하 치료는 평생 약 먹어야 하나요?", "Is hypothyroidism treated with pills for life?"),
    ("Hypothyroidism", "exams and tests", "갑상선 기능 저하증 진단은 무슨 검사로 해요?", "Which test diagnoses an underactive thyroid?"),
    ("Hypothyroidism", "considerations", "갑상선기능저하증 있으면 음식은 어떻게 먹어야 돼요", "What should I eat if I have hypothyroidism?"),
    ("High Blood Pressure", "symptoms", "고혈압도 증상이 있나요? 머리가 아프면 혈압 높은건가요", "Does high blood pressure have symptoms, like headaches?"),
    ("High Blood Pressure", "causes", "혈압이 높아지는 원인이 뭐에요?", "What causes blood pressure to go up?"),
    ("High Blood Pressure", "treatment", "고혈압 치료 방법 알려주세요 혈압약 꼭 먹어야되요?", "How is high blood pressure treated, do I need pills?"),
    ("High Blood Pressure", "prevention", "고혈압 예방하려면 어떻게 해야 하나요", "How can I prevent high blood pressure?"),
    ("High Blood Pressure", "exams and tests", "고혈압 진단은 어떻게 내리나요? 몇번 재야돼요?", "How is high blood pressure diagnosed?"),
    ("High Blood Pressure", "susceptibility", "고혈압 잘 걸리는 사람은 누구에요", "Who is likely to get high blood pressure?"),
    ("Diabetes", "symptoms", "당뇨 초기증상 뭐가 있어요? 물을 자꾸 마셔요", "What are early signs of diabetes? I drink a lot of water"),
    ("Diabetes", "causes", "당뇨병은 왜 걸리나요", "Why do people get diabetes?"),
    ("Diabetes", "treatment", "당뇨 치료는 어떻게 하나요 인슐린 맞아야 하나요", "How is diabetes treated, do I need insulin?"),
    ("Diabetes", "prevention", "당뇨 예방법 좀 알려주세요 엄마가 당뇨에요", "How do I prevent diabetes? My mother has it"),
    ("Diabetes", "susceptibility", "어떤 사람이 당뇨에 잘 걸려요?", "Who is at risk of diabetes?"),
    ("Gout", "symptoms", "통풍 증상이 어떤가요 엄지발가락이 퉁퉁 부었어요", "What does gout feel like? My big toe is swollen"),
    ("Gout", "causes", "통풍 원인이 뭔가요? 맥주 때문인가요", "What causes gout, is it beer?"),
    ("Gout", "treatment", "통풍 치료 어떻게 해요", "How do you treat gout?"),
    ("Gout", "exams and tests", "통풍인지 어떻게 알아요 검사 해야되나요", "How do doctors test for gout?"),
    ("Gout", "susceptibility", "통풍 잘걸리는 사람", "Who tends to get gout?"),
    ("Asthma", "symptoms", "천식 증상 뭐에요? 밤마다 쌕쌕거리고 숨이 차요", "What are asthma symptoms? I wheeze at night and get short of breath"),
    ("Asthma", "causes", "천식은 왜 생겨요?", "What causes asthma?"),
    ("Asthma", "treatment", "천식치료는 흡입기 말고 또 뭐 있어요", "How is asthma treated besides inhalers?"),
    ("Asthma", "prevention", "천식 발작 안 오게 예방하는 법", "How can I prevent asthma attacks?"),
    ("Asthma", "exams and tests", "천식 진단 검사 어떻게 하나요", "How is asthma diagnosed?"),
    ("COPD", "symptoms", "COPD 증상이 어떻게 되나요? 기침이 오래가요", "What are the symptoms of COPD? My cough lasts long"),
    ("COPD", "causes", "만성폐쇄성폐질환 원인이 담배인가요", "Is smoking the cause of COPD?"),
    ("COPD", "treatment", "만성 폐쇄성 폐질환 치료법", "Treatment for chronic obstructive pulmonary disease"),
    ("COPD", "prevention", "copd 예방할수 있나요", "Can COPD be prevented?"),
    ("Osteoporosis", "symptoms", "골다공증은 증상이 있나요?", "Does osteoporosis have symptoms?"),
    ("Osteoporosis", "treatment", "골다공증 치료 주사랑 약 뭐가 있나요", "What shots and pills treat osteoporosis?"),
    ("Osteoporosis", "prevention", "뼈가 약해지는거 예방 하려면 뭘 해야돼요 골다공증", "How can I keep my bones from thinning, osteoporosis prevention?"),
    ("Osteoporosis", "exams and tests", "골다공증 검사는 어떻게 해요 골밀도?", "How is osteoporosis tested, bone density?"),
    ("Osteoporosis", "susceptibility", "골다공증 위험이 큰 사람은", "Who is at high risk for osteoporosis?"),
    ("Shingles", "symptoms", "대상포진 증상 어떤가요 옆구리가 따끔거려요", "What are shingles symptoms? My side is tingling"),
    ("Shingles", "causes", "대상포진 왜 걸려요? 피곤해서 그런가요", "Why do people get shingles, is it tiredness?"),
    ("Shingles", "treatment", "대상 포진 치료 어떻게 하나요", "How is shingles treated?"),
    ("Shingles", "prevention", "대상포진 예방접종 맞으면 예방되나요", "Does the vaccine prevent shingles?"),
    ("Shingles", "complications", "대상포진 합병증 뭐가 있어요 신경통 남나요", "What complications can shingles leave, nerve pain?"),
    ("Shingles", "outlook", "대상포진 얼마나 가요? 다 낫나요", "How long does shingles last, does it go away?"),
    ("Glaucoma", "symptoms", "녹내장 증상은 뭐예요", "What are the symptoms of glaucoma?"),
    ("Glaucoma", "treatment", "녹내장 치료는 안약으로 하나요", "Is glaucoma treated with eye drops?"),
    ("Glaucoma", "causes", "녹내장 원인", "What causes glaucoma?"),
    ("Glaucoma", "susceptibility", "녹내장은 누가 잘 걸리나요", "Who gets glaucoma?"),
    ("Stroke", "symptoms", "뇌졸증 전조증상 어떤거 있나요", "What are the warning signs of a stroke?"),
    ("Stroke", "causes", "중풍은 왜 오나요", "What causes a stroke?"),
    ("Stroke", "treatment", "뇌졸중 치료 방법이 뭐에요", "How is a stroke treated?"),
    ("Stroke", "prevention", "뇌졸중 예방하려면 뭘 조심해야 되요?", "How can I prevent a stroke?"),
    ("Stroke", "outlook", "뇌졸중 오면 회복 가능해요? 예후가 궁금해요", "Can people recover after a stroke?"),
    ("Heart Failure", "symptoms", "심부전 증상이 어떤가요 다리가 붓고 숨이 차요", "What are heart failure symptoms? My legs swell and I get breathless"),
    ("Heart Failure", "causes", "심부전 원인이 뭐예요", "What causes heart failure?"),
    ("Heart Failure", "treatment", "심부전치료 어떻게 해요", "How is heart failure treated?"),
    ("Heart Failure", "exams and tests", "심부전인지 검사하는 방법", "How do doctors test for heart failure?"),
    ("Parkinson's Disease", "symptoms", "파킨슨병 초기 증상이 뭔가요? 손이 떨려요", "What are early signs of Parkinson's disease? My hand shakes"),
    ("Parkinson's Disease", "treatment", "파킨슨 치료 약 있나요", "Is there medicine to treat Parkinson's?"),
    ("Parkinson's Disease", "causes", "파킨슨병은 왜 생기는 건가요", "What causes Parkinson's disease?"),
    ("Parkinson's Disease", "outlook", "파킨슨병 진행되면 어떻게 돼요", "What happens as Parkinson's disease progresses?"),
    ("Alzheimer's Disease", "symptoms", "치매 알츠하이머 초기증상 알려주세요", "What are the first signs of Alzheimer's?"),
    ("Alzheimer's Disease", "causes", "알츠하이머병 원인은 뭔가요", "What causes Alzheimer's disease?"),
    ("Alzheimer's Disease", "treatment", "알츠하이머 치료약 있어요?", "Are there drugs to treat Alzheimer's?"),
    ("Alzheimer's Disease", "prevention", "알츠하이머 예방 할 수 있나요", "Can Alzheimer's disease be prevented?"),
    ("Alzheimer's Disease", "exams and tests", "알츠하이머 진단은 어떻게 하나요", "How is Alzheimer's disease diagnosed?"),
    ("Osteoarthritis", "symptoms", "퇴행성 관절염 증상이 어떻게 돼요? 무릎이 시큰거려요", "What are osteoarthritis symptoms? My knee aches"),
    ("Osteoarthritis", "causes", "퇴행성관절염 원인", "What causes osteoarthritis?"),
    ("Osteoarthritis", "treatment", "무릎 퇴행성 관절염 치료 어떻게 해요", "How is knee osteoarthritis treated?"),
    ("Rheumatoid Arthritis", "symptoms", "류마티스 관절염 증상 뭐가 있나요 아침에 손가락이 뻣뻣해요", "What are rheumatoid arthritis symptoms? My fingers are stiff in the morning"),
    ("Rheumatoid Arthritis", "treatment", "류마티스관절염 치료방법", "How is rheumatoid arthritis treated?"),
    ("Rheumatoid Arthritis", "inheritance", "류마티스 관절염 유전되나요? 엄마가 있어요", "Is rheumatoid arthritis inherited? My mother has it"),
    ("Rheumatoid Arthritis", "causes", "류마티스 관절염은 왜 생겨요", "What causes rheumatoid arthritis?"),
    ("Breast Cancer", "symptoms", "유방암 증상 어떤게 있어요 멍울이 만져져요", "What are breast cancer symptoms? I feel a lump"),
    ("Breast Cancer", "inheritance", "유방암 유전 되나요? 이모가 유방암이었어요", "Is breast cancer inherited? My aunt had it"),
    ("Breast Cancer", "treatment", "유방암 치료 방법 뭐가 있나요", "What are the treatments for breast cancer?"),
    ("Breast Cancer", "prevention", "유방암 예방 하는법", "How can breast cancer be prevented?"),
    ("Breast Cancer", "exams and tests", "유방암 검사 어떻게 해요 맘모그램?", "How is breast cancer checked, mammogram?"),
    ("Prostate Cancer", "symptoms", "전립선암 증상은 어떤가요? 소변 보기가 힘들어요", "What are prostate cancer symptoms? It is hard to urinate"),
    ("Prostate Cancer", "treatment", "전립선암 치료", "Prostate cancer treatment"),
    ("Prostate Cancer", "outlook", "전립선암 완치 되나요 생존율이 궁금해요", "Can prostate cancer be cured, what is the survival rate?"),
    ("Prostate Cancer", "exams and tests", "전립선암 진단 검사 PSA", "Prostate cancer diagnosis, PSA test"),
    ("Lung Cancer", "symptoms", "폐암 증상 뭐예요 기침에 피가 나와요", "What are lung cancer symptoms? I cough blood"),
    ("Lung Cancer", "causes", "폐암 원인이 담배 말고 또 있나요", "What causes lung cancer besides smoking?"),
    ("Lung Cancer", "treatment", "폐암 치료 어떻게 해요", "How is lung cancer treated?"),
    ("Lung Cancer", "prevention", "폐암 예방", "Lung cancer prevention"),
    ("Colorectal Cancer", "symptoms", "대장암 증상이 어떤가요 변에 피가 묻어나와요", "What are colorectal cancer symptoms? There is blood in my stool"),
    ("Colorectal Cancer", "prevention", "대장암 예방하려면", "How do I prevent colorectal cancer?"),
    ("Colorectal Cancer", "treatment", "대장암 치료법이 뭐가 있어요", "What treatments are there for colorectal cancer?"),
    ("Celiac Disease", "symptoms", "셀리악병 증상이 뭐에요 밀가루 먹으면 배가 살살 아파요", "What are the symptoms of celiac disease? My belly hurts after wheat"),
    ("Celiac Disease", "treatment", "셀리악병 치료는 글루텐 끊는거 말고 없나요", "Is there any celiac disease treatment besides avoiding gluten?"),
    ("Celiac Disease", "exams and tests", "셀리악 병 진단 어떻게해요", "How is celiac disease diagnosed?"),
    ("Celiac Disease", "inheritance", "셀리악병 유전돼요?", "Is celiac disease inherited?"),
    ("Hemorrhoids", "symptoms", "치질 증상 어떤가요 변볼때 피나요", "What are hemorrhoid symptoms? I bleed when I go"),
    ("Hemorrhoids", "causes", "치질은 왜 생겨요", "What causes hemorrhoids?"),
    ("Hemorrhoids", "treatment", "치질 치료 수술 해야 하나요", "How are hemorrhoids treated, is surgery needed?"),
    ("Hemorrhoids", "considerations", "치질있으면 뭘 먹어야돼요", "What should I eat if I have hemorrhoids?"),
    ("Gallstones", "symptoms", "담석증 증상 뭐가 있나요 오른쪽 윗배가 아파요", "What are gallstone symptoms? My upper right belly hurts"),
    ("Gallstones", "causes", "담석 원인이 뭐에요", "What causes gallstones?"),
    ("Gallstones", "treatment", "담석 치료 어떻게 하나요 쓸개 떼야되요?", "How are gallstones treated, must the gallbladder come out?"),
    ("Cirrhosis", "symptoms", "간경화 증상 어떤게 있어요", "What are the symptoms of cirrhosis?"),
    ("Cirrhosis", "causes", "간경변 원인이 술인가요", "Is alcohol the cause of cirrhosis?"),
    ("Cirrhosis", "treatment", "간경화 치료 방법", "How is cirrhosis treated?"),
    ("Cirrhosis", "complications", "간경화 합병증 뭐가 있나요", "What complications does cirrhosis cause?"),
    ("Insomnia", "symptoms", "불면증 증상", "Insomnia symptoms"),
    ("Insomnia", "causes", "잠이 안와요 불면증 원인이 뭘까요", "I can't sleep, what causes insomnia?"),
    ("Insomnia", "treatment", "불면증 치료 수면제 말고 방법 있어요?", "How is insomnia treated without sleeping pills?"),
    ("Depression", "symptoms", "우울증 증상이 어떤가요 요즘 아무것도 하기 싫어요", "What are the symptoms of depression? I don't want to do anything lately"),
    ("Depression", "treatment", "우울증 치료 어떻게 받아요", "How is depression treated?"),
    ("Depression", "causes", "우울증 원인은 뭔가요", "What causes depression?"),
    ("High Blood Cholesterol", "symptoms", "고지혈증 증상 있어요? 콜레스테롤 높으면 어디가 아파요", "Does high cholesterol cause symptoms?"),
    ("High Blood Cholesterol", "treatment", "콜레스테롤 수치 높을때 치료 어떻게 해요 스타틴?", "How is high cholesterol treated, statins?"),
    ("High Blood Cholesterol", "causes", "콜레스테롤 높아지는 원인", "What causes high cholesterol?"),
    ("Atrial Fibrillation", "symptoms", "심방세동 증상 가슴이 두근두근해요", "What are atrial fibrillation symptoms? My heart flutters"),
    ("Atrial Fibrillation", "treatment", "심방 세동 치료는 어떻게 하나요", "How is atrial fibrillation treated?"),
    ("Atrial Fibrillation", "causes", "심방세동 원인", "What causes atrial fibrillation?"),
    ("Heart Attack", "symptoms", "심근경색 증상은요? 가슴이 쥐어짜듯 아프면 그건가요", "What are heart attack symptoms? Is a squeezing chest pain one?"),
    ("Heart Attack", "prevention", "심장마비 예방 어떻게 해요", "How can I prevent a heart attack?"),
    ("Heart Attack", "treatment", "심근경색 치료", "Heart attack treatment"),
    ("Pneumonia", "symptoms", "폐렴 증상이 어떻게 되요 열나고 기침해요", "What are pneumonia symptoms? I have fever and a cough"),
    ("Pneumonia", "prevention", "폐렴 예방주사 맞으면 예방 되나요", "Does the vaccine prevent pneumonia?"),
    ("Pneumonia", "treatment", "폐렴 치료는 항생제 먹나요", "Is pneumonia treated with antibiotics?"),
    ("Urinary Tract Infections", "symptoms", "방광염 증상 소변볼때 따가워요", "What are bladder infection symptoms? It burns when I pee"),
    ("Urinary Tract Infections", "prevention", "요로감염 예방법 있나요 자꾸 재발해요", "How do I prevent urinary tract infections? They keep coming back"),
    ("Urinary Tract Infections", "treatment", "요로 감염 치료 어떻게 하나요", "How are urinary tract infections treated?"),
    ("Hypoglycemia", "symptoms", "저혈당 증상이 뭐에요 식은땀 나고 손떨려요", "What are low blood sugar symptoms? I sweat and shake"),
    ("Hypoglycemia", "treatment", "당 떨어졌을때 어떻게 해야되요? 저혈당 대처법", "What do I do when my blood sugar drops?"),
    ("Hypoglycemia", "prevention", "저혈당 예방 하는법", "How can I prevent low blood sugar?"),
    ("Iron-Deficiency Anemia", "symptoms", "철결핍성 빈혈 증상 어지럽고 피곤해요", "What are iron deficiency anemia symptoms? I feel dizzy and tired"),
    ("Iron-Deficiency Anemia", "treatment", "철분 부족 빈혈 치료 철분제 먹으면 되나요", "Is iron-deficiency anemia treated with iron pills?"),
    ("Deep Vein Thrombosis", "symptoms", "심부정맥혈전증 증상 종아리가 붓고 아파요", "What are DVT symptoms? My calf is swollen and sore"),
    ("Deep Vein Thrombosis", "prevention", "다리 혈전 예방하려면 비행기 오래 탈 때", "How do I prevent leg blood clots on long flights?"),
    ("Varicose Veins", "treatment", "하지정맥류 치료 어떻게 해요", "How are varicose veins treated?"),
    ("Varicose Veins", "causes", "하지 정맥류는 왜 생기나요", "What causes varicose veins?"),
    ("Sleep Apnea", "symptoms", "수면무호흡 증상 코골다가 숨을 멈춰요", "What are sleep apnea symptoms? I stop breathing when I snore"),
    ("Sleep Apnea", "treatment", "수면 무호흡증 치료 양압기 써야되요?", "Is sleep apnea treated with a CPAP machine?"),
    ("Psoriasis", "symptoms", "건선 증상이 어떤가요 팔꿈치에 하얀 각질이 생겨요", "What are psoriasis symptoms? I have white scales on my elbows"),
    ("Psoriasis", "treatment", "건선 치료방법", "How is psoriasis treated?"),
    ("Cataract", "symptoms", "백내장 증상 눈이 뿌옇게 보여요", "What are cataract symptoms? My vision is cloudy"),
    ("Cataract", "treatment", "백내장 수술 꼭 해야되나요 치료", "Must cataracts be treated with surgery?"),
    ("Hearing Loss", "causes", "난청 원인이 뭔가요 귀가 잘 안들려요", "What causes hearing loss? I can't hear well"),
    ("Hearing Loss", "prevention", "난청 예방", "Hearing loss prevention"),
    ("Dry Eye", "symptoms", "안구건조증 증상 눈이 뻑뻑해요", "What are dry eye symptoms? My eyes feel gritty"),
    ("Dry Eye", "treatment", "안구 건조증 치료 인공눈물 말고", "How is dry eye treated besides artificial tears?"),
    ("Diarrhea", "causes", "설사 원인이 뭐예요 계속 배가 살살 아프고 설사해요", "What causes diarrhea? My belly keeps aching and I have diarrhea"),
    ("Diarrhea", "considerations", "설사할때 뭘 먹어야 되나요", "What should I eat when I have diarrhea?"),
    ("Anxiety Disorders", "symptoms", "불안장애 증상이 어떤가요", "What are the symptoms of anxiety disorders?"),
    ("Anxiety Disorders", "treatment", "불안 장애 치료", "Anxiety disorder treatment"),
    ("Bronchitis", "symptoms", "기관지염 증상 가래 기침", "What are bronchitis symptoms, phlegm and cough?"),
    ("Bronchitis", "treatment", "기관지염 치료 항생제 먹어야되요", "Do I need antibiotics to treat bronchitis?"),
    ("Angina", "symptoms", "협심증 증상 계단 오르면 가슴이 답답해요", "What are angina symptoms? My chest feels tight on stairs"),
    ("Angina", "treatment", "협심증치료 어떻게 하나요", "How is angina treated?"),
    ("Kidney Disease", "symptoms", "신장병 증상 몸이 붓고 소변에 거품", "What are kidney disease symptoms, swelling and foamy urine?"),
    ("Kidney Disease", "prevention", "콩팥병 예방하려면", "How do I prevent kidney disease?"),
    ("Metformin", "usage", "메트포르민 먹는법 식후에 먹나요 용량은요", "How should I take metformin, after meals, and what dose?"),
    ("Metformin", "forget a dose", "메트포민 깜빡하고 안먹었어요 어떻게 해야돼요", "I forgot a dose of metformin, what should I do?"),
    ("Atenolol", "side effects", "아테놀올 부작용 뭐 있어요", "What are the side effects of atenolol?"),
    ("Atenolol", "usage", "atenolol 복용법이랑 용량 알려주세요", "How do I take atenolol and what is the dose?"),
    ("Carvedilol", "side effects", "카베딜롤 부작용", "Carvedilol side effects"),
    ("Carvedilol", "precautions", "카르베딜롤 먹을때 주의사항 다른약이랑 같이 먹어도 되나요", "What precautions with carvedilol, can I take it with other drugs?"),
    ("Gabapentin", "usage", "가바펜틴 용량 하루에 몇번 먹어요", "How many times a day do I take gabapentin, what dose?"),
    ("Gabapentin", "precautions", "가바펜틴 주의사항 상호작용", "Gabapentin precautions and interactions"),
    ("Simvastatin", "usage", "심바스타틴 복용법 저녁에 먹어야돼요?", "Should simvastatin be taken in the evening, how is it used?"),
    ("Simvastatin", "precautions", "심바스타틴이랑 자몽 같이 먹어도 돼요? 주의할점", "Can I have grapefruit with simvastatin, what precautions?"),
    ("Glimepiride", "side effects", "글리메피리드 부작용 저혈당 오나요", "Does glimepiride cause low blood sugar as a side effect?"),
    ("Glimepiride", "forget a dose", "glimepiride 아침에 깜빡했는데 어떡해요", "I forgot my morning glimepiride, what now?"),
    ("Amlodipine", "side effects", "암로디핀 부작용 발목 붓는거 맞나요", "Does amlodipine cause ankle swelling as a side effect?"),
    ("Amlodipine", "forget a dose", "암로디핀 한번 까먹었는데 두알 먹어도 되요?", "I missed an amlodipine dose, can I take two?"),
    ("Prednisone", "side effects", "프레드니손 오래 먹으면 부작용 뭐 있어요", "What side effects does long-term prednisone have?"),
    ("Cephalexin", "usage", "세팔렉신 복용법 용량", "How is cephalexin taken, what dose?"),
    ("Cephalexin", "precautions", "세팔렉신 페니실린 알레르기 있으면 먹어도 되나요 주의사항", "Cephalexin precautions if I am allergic to penicillin"),
    ("Ciprofloxacin", "usage", "시프로플록사신 어떻게 먹어요", "How do I take ciprofloxacin?"),
    ("Hydrocodone", "side effects", "하이드로코돈 부작용 변비 생겨요?", "Does hydrocodone cause constipation as a side effect?"),
    ("Lisinopril", "usage", "리시노프릴 복용 방법", "How should lisinopril be used?"),
    ("Glucagon", "usage", "글루카곤 주사 어떻게 놔요 용량", "How is a glucagon shot given and how much?"),
]

# Long clinical messages: (languages' texts, gold (focus, qtype) pairs; qtype None = any doc on the focus)
MESSAGES = [
    ("58-year-old woman, allergic to penicillin, on amlodipine 5 mg. She has a sore throat and fever. Can she take amoxicillin?",
     "58세 여자 환자, 페니실린 알레르기 있고 암로디핀 5mg 복용 중입니다. 목이 아프고 열이 나요. 아목시실린 먹어도 되나요?",
     [("Sore Throat", None), ("Allergy", None), ("Streptococcal Infections", None), ("Penicillin G Benzathine and Penicillin G Procaine Injection", None)]),
    ("72-year-old man with atrial fibrillation on warfarin, BP 150/90, creatinine 1.4. He fell yesterday. What are the symptoms of a stroke I should watch for?",
     "72세 남자, 심방세동으로 와파린 복용, 혈압 150/90, 크레아티닌 1.4. 어제 넘어졌어요. 뇌졸중 증상 중 뭘 봐야 하나요?",
     [("Stroke", "symptoms")]),
    ("My father is 65, diabetic for 10 years on metformin 1000 mg twice a day, HbA1c 8.2. His feet are numb and tingling. What causes this and how is it treated?",
     "아버지 65세, 당뇨 10년째 메트포르민 1000mg 하루 두번 드시고 당화혈색소 8.2에요. 발이 저리고 찌릿찌릿하대요. 원인이 뭐고 치료는 어떻게 해요?",
     [("Diabetic Neuropathies: The Nerve Damage of Diabetes", None), ("Peripheral Neuropathy", None), ("Diabetic Neuropathy", None)]),
    ("34-year-old woman, 12 weeks pregnant, no known allergies, takes prenatal vitamins. She has burning when she urinates and goes often. What is the treatment for a urinary tract infection?",
     "34세 임신 12주 여성, 알레르기 없음, 임산부 비타민 복용. 소변볼 때 따갑고 자주 가요. 요로감염 치료는 어떻게 하나요?",
     [("Urinary Tract Infections", "treatment")]),
    ("45-year-old man, smoker 20 pack-years, BMI 31, on lisinopril 10 mg. LDL 190. How is high cholesterol treated?",
     "45세 남자, 흡연 20갑년, BMI 31, 리시노프릴 10mg 복용. LDL 190이에요. 고지혈증 치료는 어떻게 하나요?",
     [("High Blood Cholesterol", "treatment")]),
    ("80-year-old woman with osteoporosis, on alendronate and calcium, weight 48 kg, lives alone. How can she prevent falls and fractures?",
     "80세 할머니 골다공증으로 알렌드로네이트랑 칼슘 드세요. 체중 48kg, 혼자 사세요. 낙상이랑 골절 예방은 어떻게 해요?",
     [("Osteoporosis", "prevention"), ("Falls", None)]),
    ("29-year-old woman, no medications, allergic to sulfa. Her thyroid TSH is 9.8 and she is always tired and cold. What are the symptoms and treatment of hypothyroidism?",
     "29세 여자, 복용약 없고 설파 알레르기. TSH 9.8이고 항상 피곤하고 추워해요. 갑상선기능저하증 증상이랑 치료 알려주세요.",
     [("Hypothyroidism", "symptoms"), ("Hypothyroidism", "treatment")]),
    ("6-year-old boy, 20 kg, allergic to eggs, wheezing and coughing at night for two weeks, no fever. How is asthma diagnosed in children?",
     "6살 남자아이 20kg, 계란 알레르기, 2주째 밤에 쌕쌕거리고 기침해요, 열은 없어요. 소아 천식 진단은 어떻게 하나요?",
     [("Asthma", "exams and tests"), ("Asthma in Children", None)]),
    ("67-year-old man on aspirin and clopidogrel after a stent, BP 135/85. Big toe red, hot and swollen since last night. What causes gout and how is it treated?",
     "67세 남자, 스텐트 후 아스피린이랑 클로피도그렐 복용, 혈압 135/85. 어젯밤부터 엄지발가락이 빨갛고 뜨겁고 부었어요. 통풍 원인과 치료는?",
     [("Gout", "causes"), ("Gout", "treatment")]),
    ("52-year-old woman, hot flashes, night sweats, last period 8 months ago, history of breast cancer in her mother. Is breast cancer inherited?",
     "52세 여성, 얼굴 화끈거리고 밤에 땀나요, 마지막 생리 8개월 전, 어머니가 유방암. 유방암은 유전되나요?",
     [("Breast Cancer", "inheritance"), ("breast cancer", "genetic changes")]),
    ("Patient 70 years old, COPD, uses tiotropium inhaler, SpO2 91%, more breathless for 3 days with yellow sputum. What is the treatment for COPD flare?",
     "70세 환자 COPD로 티오트로피움 흡입기 사용, 산소포화도 91%, 3일째 숨이 더 차고 누런 가래가 나와요. COPD 악화 치료는?",
     [("COPD", "treatment")]),
    ("38-year-old man, 85 kg, no allergies, takes nothing regularly. Burning pain in the upper right belly after fatty meals. What are the symptoms and causes of gallstones?",
     "38세 남자 85kg, 알레르기 없음, 먹는 약 없음. 기름진 거 먹으면 오른쪽 윗배가 아파요. 담석 증상이랑 원인 알려주세요.",
     [("Gallstones", "symptoms"), ("Gallstones", "causes")]),
    ("45-year-old man on warfarin 5 mg for a mechanical valve, INR 2.8, BP 128/80. He wants to take ibuprofen for back pain. What are the treatments for back pain?",
     "45세 남자 기계판막으로 와파린 5mg 복용, INR 2.8, 혈압 128/80. 허리가 아파서 이부프로펜 먹고 싶대요. 허리통증 치료는 뭐가 있나요?",
     [("Back Pain", "treatment")]),
    ("Mother, 41, type 1 diabetes on insulin pump, HbA1c 7.1, allergic to latex. Her 10-year-old son is always thirsty and losing weight. What are the symptoms of diabetes?",
     "41세 엄마, 1형 당뇨로 인슐린 펌프 사용, 당화혈색소 7.1, 라텍스 알레르기. 10살 아들이 자꾸 목말라하고 살이 빠져요. 당뇨 증상이 뭐예요?",
     [("Diabetes", "symptoms")]),
]

# A second set of long clinical messages, written 2026-11-25 before the code that evaluates
# them, over conditions and drugs that none of the messages above asks about. All of it is
# `holdout2`: never looked at while tuning, reported apart.
MESSAGES_HOLDOUT2 = [
    ("41-year-old woman, 62 kg, allergic to aspirin, on propranolol 40 mg twice a day. BP 118/76. She gets throbbing one-sided headaches with nausea three times a month. What are the treatments for migraine?",
     "41세 여자 62kg, 아스피린 알레르기, propranolol 40mg 하루 두번 먹어요. 혈압 118/76. 한달에 세번 정도 한쪽 머리가 욱신거리고 메스꺼워요. 편두통 치료 방법 뭐 있어요?",
     [("Migraine", "treatment")]),
    ("35-year-old man, no allergies, migraines for years, takes zolmitriptan 2.5 mg when an attack starts. BP 124/80. How much zolmitriptan can he take in one day?",
     "35세 남자, 알레르기 없음, 편두통 오래됐고 발작 오면 zolmitriptan 2.5mg 먹어요. 혈압 124/80. 졸미트립탄 하루에 최대 몇 번까지 먹어도 되나요?",
     [("Zolmitriptan", "usage")]),
    ("78-year-old woman, 55 kg, on oxybutynin 5 mg three times a day for urge incontinence and donepezil 10 mg. She has a dry mouth and seems more confused. Are these side effects of oxybutynin?",
     "78세 할머니 55kg, 절박성 요실금으로 oxybutynin 5mg 하루 세번, 도네페질 10mg도 드세요. 입이 마르고 더 헷갈려 하세요. 옥시부티닌 부작용인가요?",
     [("Oxybutynin", "side effects")]),
    ("64-year-old woman, three vaginal births, BMI 29, on hydrochlorothiazide 25 mg. She leaks urine when she coughs or laughs. How is urinary incontinence treated?",
     "64세 여성, 자연분만 세번, BMI 29, 하이드로클로로티아지드 25mg 복용. 기침하거나 웃으면 소변이 새요. 요실금 치료는 어떻게 하나요?",
     [("Urinary Incontinence", "treatment")]),
    ("27-year-old man, 70 kg, takes no medicines, allergic to shellfish. Watery diarrhea six times since yesterday after a trip, temperature 37.4. How much loperamide can he take?",
     "27세 남자 70kg, 먹는 약 없고 갑각류 알레르기. 여행 다녀와서 어제부터 물설사 6번, 체온 37.4도. 로페라미드 얼마나 먹어도 돼요?",
     [("Loperamide", "usage")]),
    ("Boy, 4 years old, 16 kg, no allergies, vomiting and diarrhea for two days and drinking little. What should he eat and drink while he has diarrhea?",
     "4살 남자아이 16kg, 알레르기 없음, 이틀째 토하고 설사해요, 물을 잘 안 마셔요. 설사할 때 뭘 먹여야 돼요?",
     [("Diarrhea", "considerations")]),
    ("32-year-old woman with heavy periods, vegetarian, hemoglobin 9.1, ferritin 6, takes no medication. She is tired and short of breath on stairs. What causes iron-deficiency anemia and how is it treated?",
     "32세 여성, 생리양 많고 채식해요. 헤모글로빈 9.1, 페리틴 6. 먹는 약 없음. 계단 오르면 숨차고 피곤해요. 철결핍성 빈혈 원인이랑 치료 알려주세요.",
     [("Iron-Deficiency Anemia", "causes"), ("Iron-Deficiency Anemia", "treatment")]),
    ("56-year-old man, flew 12 hours two days ago, BMI 33, on rosuvastatin 10 mg. His left calf is swollen, warm and painful. Are these symptoms of deep vein thrombosis?",
     "56세 남자, 이틀 전에 비행기 12시간 탔어요, BMI 33, 로수바스타틴 10mg 복용. 왼쪽 종아리가 붓고 뜨겁고 아파요. 심부정맥혈전증 증상인가요?",
     [("Deep Vein Thrombosis", "symptoms")]),
    ("48-year-old woman on birth control pills, smoker, had knee surgery last week, SpO2 97%. How can a pulmonary embolism be prevented after surgery?",
     "48세 여성, 피임약 복용, 흡연자, 지난주 무릎 수술했어요, 산소포화도 97%. 수술 후 폐색전증 예방은 어떻게 해요?",
     [("Pulmonary Embolism", "prevention")]),
    ("26-year-old woman, lost 5 kg in two months, heart rate 112, hand tremor, TSH 0.01, no allergies. Could this be hyperthyroidism, and how is it diagnosed?",
     "26세 여자, 두달 사이 5kg 빠지고 맥박 112, 손떨림, TSH 0.01, 알레르기 없어요. 갑상선기능항진증인가요? 진단은 어떻게 해요?",
     [("Hyperthyroidism", "exams and tests"), ("Hyperthyroidism", "symptoms")]),
    ("70-year-old man with type 2 diabetes on glimepiride 4 mg and metformin 500 mg, eGFR 45. This morning he was sweaty and shaky with a glucose of 58. What should we do for low blood sugar?",
     "70세 남자 당뇨로 glimepiride 4mg랑 메트포르민 500mg 드세요, eGFR 45. 오늘 아침에 식은땀 나고 떨리고 혈당 58 나왔어요. 저혈당 오면 어떻게 해야 돼요?",
     [("Hypoglycemia", "treatment"), ("Hypoglycemia", "considerations")]),
    ("My son is 14, 50 kg, type 1 diabetes on insulin glargine 20 units, no allergies. He passed out from a low once. How is a glucagon injection given and how much?",
     "14살 아들 50kg, 1형 당뇨로 인슐린 글라진 20단위 맞아요, 알레르기 없어요. 저혈당으로 한번 쓰러졌어요. 글루카곤 주사는 어떻게 놓고 용량은 얼마예요?",
     [("Glucagon", "usage")]),
    ("52-year-old man, BMI 36, neck 44 cm, BP 148/94 on amlodipine 10 mg. His wife says he snores loudly and stops breathing at night; he is sleepy all day. How is sleep apnea diagnosed?",
     "52세 남자 BMI 36, 목둘레 44cm, amlodipine 10mg 먹는데 혈압 148/94. 와이프 말로는 코를 심하게 골고 자다가 숨을 멈춘대요. 낮에 계속 졸려요. 수면무호흡증 검사는 어떻게 해요?",
     [("Sleep Apnea", "exams and tests")]),
    ("60-year-old woman on sertraline 50 mg, ferritin 30, creatinine 0.9. At night a crawling feeling in her legs makes her move them. What causes restless legs syndrome and what is the treatment?",
     "60세 여성, 서트랄린 50mg 복용, 페리틴 30, 크레아티닌 0.9. 밤마다 다리에 벌레 기어가는 느낌이 들어서 자꾸 움직여요. 하지불안증후군 원인이랑 치료는?",
     [("Restless Legs Syndrome", "causes"), ("Restless Legs Syndrome", "treatment")]),
    ("75-year-old man, 68 kg, creatinine 1.8, on gabapentin 300 mg three times a day for nerve pain and tramadol 50 mg. He is very drowsy and unsteady. What precautions apply to gabapentin with weak kidneys?",
     "75세 남자 68kg, 크레아티닌 1.8, 신경통으로 gabapentin 300mg 하루 세번이랑 트라마돌 50mg 드세요. 많이 졸려하고 휘청거려요. 신장 안 좋을 때 가바펜틴 주의사항 있나요?",
     [("Gabapentin", "precautions")]),
    ("66-year-old woman on simvastatin 40 mg and amlodipine 5 mg, LDL 120. Her doctor started clarithromycin for pneumonia and now her muscles ache. Is it safe to keep taking simvastatin with these?",
     "66세 여자 simvastatin 40mg, 암로디핀 5mg 복용 중, LDL 120. 폐렴으로 클래리스로마이신 시작했는데 근육이 쑤신대요. 심바스타틴 같이 먹어도 괜찮나요?",
     [("Simvastatin", "precautions"), ("Simvastatin", "side effects")]),
    ("44-year-old man with diabetes on metformin 1000 mg, HbA1c 7.4, started methylprednisolone tablets for a rash and his sugars are 250. What side effects does methylprednisolone have?",
     "44세 남자 당뇨로 metformin 1000mg 복용, 당화혈색소 7.4. 발진 때문에 메틸프레드니솔론 먹기 시작했는데 혈당이 250이에요. 메틸프레드니솔론 부작용 뭐가 있어요?",
     [("Methylprednisolone Oral", "side effects")]),
    ("Patient, 59, rheumatoid arthritis on prednisone 10 mg every morning and methotrexate 15 mg weekly, allergic to sulfa. She forgot this morning's prednisone. What should she do?",
     "59세 환자, 류마티스 관절염으로 prednisone 10mg 매일 아침, 메토트렉세이트 주 15mg, 설파 알레르기. 오늘 아침 프레드니손을 깜빡 했대요. 어떻게 해야 돼요?",
     [("Prednisone", "forget a dose")]),
    ("63-year-old man, 90 kg, on glyburide and metformin 5/500 mg twice a day, eGFR 62, allergic to codeine. He skipped breakfast and forgot his morning tablet. What should he do about the missed dose?",
     "63세 남자 90kg, 글리부라이드 메트포르민 복합제 5/500mg 하루 두번, eGFR 62, 코데인 알레르기. 아침 굶고 아침약을 빼먹었어요. 빼먹은 약은 어떻게 해요?",
     [("Glyburide and Metformin", "forget a dose")]),
    ("38-year-old man with alcohol dependence, ALT 65, no allergies, drinks 8 beers a day. The doctor suggested naltrexone 50 mg. How should naltrexone be taken?",
     "38세 남자, 알코올 의존, ALT 65, 알레르기 없어요, 하루 맥주 8캔 마셔요. 의사가 naltrexone 50mg 먹어보자고 했어요. 날트렉손은 어떻게 먹어요?",
     [("Naltrexone", "usage")]),
    ("50-year-old woman, 25 pack-years of smoking, BP 138/86 on losartan 50 mg, wants to quit. How do you use nicotine gum, and what side effects can it cause?",
     "50세 여성, 흡연 25갑년, 혈압 138/86, losartan 50mg 복용, 담배 끊고 싶어해요. 니코틴 껌 어떻게 씹어요? 부작용도 있나요?",
     [("Nicotine Gum", "usage"), ("Nicotine Gum", "side effects")]),
    ("31-year-old woman, BMI 34, BP 132/84, on sertraline 100 mg, allergic to iodine. She wants phentermine to lose weight. What are the side effects of phentermine?",
     "31세 여자 BMI 34, 혈압 132/84, sertraline 100mg 먹고, 요오드 알레르기. 살 빼려고 펜터민 먹고 싶대요. 펜터민 부작용 뭐 있어요?",
     [("Phentermine", "side effects")]),
    ("29-year-old woman, cramping belly pain and loose stools for months, normal colonoscopy, no allergies. She was prescribed dicyclomine 20 mg four times a day. What side effects does dicyclomine cause?",
     "29세 여성, 몇달째 배가 쥐어짜듯 아프고 변이 묽어요, 대장내시경 정상, 알레르기 없음. dicyclomine 20mg 하루 네번 처방 받았어요. 디사이클로민 부작용 있나요?",
     [("Dicyclomine", "side effects")]),
    ("82-year-old man with leg cramps at night, on furosemide 40 mg and digoxin 0.125 mg, potassium 3.4. Someone told him to take quinine. What are the side effects of quinine?",
     "82세 할아버지, 밤에 다리에 쥐가 나요, furosemide 40mg, 디곡신 0.125mg 드시고 칼륨 3.4. 누가 퀴닌 먹으라던데 퀴닌 부작용은요?",
     [("Quinine", "side effects")]),
    ("68-year-old woman with osteopenia, on levothyroxine 75 mcg and vitamin D 1000 units, 52 kg. How should she take calcium carbonate, and how much?",
     "68세 여성 골감소증, 레보티록신 75mcg, 비타민D 1000단위 복용, 52kg. 탄산칼슘은 어떻게 먹고 용량은 얼마나 돼요?",
     [("Calcium Carbonate", "usage")]),
    ("57-year-old man with knee osteoarthritis, a past stomach ulcer, on omeprazole 20 mg, creatinine 1.1. How much diclofenac can he take?",
     "57세 남자 무릎 퇴행성관절염, 위궤양 병력 있고 오메프라졸 20mg 복용, 크레아티닌 1.1. 디클로페낙은 얼마나 먹어도 돼요?",
     [("Diclofenac", "usage")]),
    ("71-year-old man on prednisone 5 mg for polymyalgia, creatinine 1.3, allergic to sulfa. His urine test shows an infection and the doctor mentioned ciprofloxacin 500 mg. What important warnings are there about ciprofloxacin?",
     "71세 남자, 다발성근육통으로 prednisone 5mg 복용, 크레아티닌 1.3, 설파 알레르기. 소변검사에서 염증 나와서 cipro 500mg 얘기 들었어요. 시프로플록사신 먹을 때 주의할 경고 있나요?",
     [("Ciprofloxacin", "important warning")]),
    ("62-year-old woman, had chickenpox as a child, on hydroxychloroquine 200 mg for lupus, no egg allergy. Should she get the shingles vaccine, and what are its side effects?",
     "62세 여성, 어릴 때 수두 앓았고 루푸스로 hydroxychloroquine 200mg 복용, 계란 알레르기 없음. 대상포진 백신 맞아도 되나요? 부작용은요?",
     [("Shingles (Zoster) Vaccine", None)]),
    ("My daughter is 13 months old, 9.5 kg, allergic to eggs, and had a febrile seizure at 11 months. Can she get the MMR vaccine, and what are the side effects?",
     "13개월 여자아이 9.5kg, 계란 알레르기 있고 11개월때 열성경련 한번 했어요. MMR 예방접종 맞아도 되나요? 부작용은요?",
     [("MMR Vaccine (Measles, Mumps, and Rubella)", None)]),
    ("2-year-old boy, 12 kg, temperature 39.6, shook all over for two minutes and then fell asleep. No medicines, no allergies. What should we do for febrile seizures?",
     "2살 남자아이 12kg, 열 39.6도, 2분 정도 온몸을 떨다가 잠들었어요. 먹는 약 없고 알레르기 없어요. 열성경련 오면 어떻게 해야 돼요?",
     [("Febrile Seizures", "treatment")]),
    ("3-year-old girl, fever of 39 for 6 days, red eyes, cracked lips, swollen hands, CRP 12; amoxicillin did not help. What are the symptoms of Kawasaki disease and how is it treated?",
     "3살 여자아이, 6일째 39도 열, 눈 충혈, 입술 갈라지고 손발 부었어요, CRP 12, 아목시실린 먹어도 안 떨어져요. 가와사키병 증상이랑 치료 알려주세요.",
     [("Kawasaki Disease", "symptoms"), ("Kawasaki Disease", "treatment")]),
    ("45-year-old man went hiking last month and found a tick; now there is a red ring-shaped rash on his thigh, temperature 37.9, allergic to codeine. What are the symptoms of Lyme disease?",
     "45세 남자, 지난달 등산 갔다가 진드기 발견, 지금 허벅지에 동그란 빨간 발진, 체온 37.9, 코데인 알레르기. 라임병 증상이 뭐예요?",
     [("Lyme Disease", "symptoms")]),
    ("39-year-old man with scaly red patches on his elbows and knees for years, BMI 30, drinks every day, takes no medicines. What are the treatments for psoriasis?",
     "39세 남자, 몇년째 팔꿈치랑 무릎에 각질 있는 빨간 반점, BMI 30, 매일 술 마시고 먹는 약 없어요. 건선 치료 뭐가 있어요?",
     [("Psoriasis", "treatment")]),
    ("24-year-old woman with itchy raised welts all over after eating shrimp, breathing fine, BP 112/70, on the pill. What should she do about hives?",
     "24세 여성, 새우 먹고 온몸에 가렵고 부풀어오른 두드러기, 숨쉬기는 괜찮아요, 혈압 112/70, 피임약 복용. 두드러기는 어떻게 해야 돼요?",
     [("Hives", None)]),
    ("47-year-old man woke up with the right side of his face drooping and cannot close his eye, BP 130/82, diabetes on metformin 500 mg. Is it Bell's palsy, what causes it and how is it treated?",
     "47세 남자, 아침에 일어났더니 오른쪽 얼굴이 처지고 눈이 안 감겨요, 혈압 130/82, 당뇨로 metformin 500mg 복용. 벨마비인가요? 원인이랑 치료는요?",
     [("Bell's Palsy", "causes"), ("Bell's Palsy", "treatment")]),
    ("66-year-old woman with sudden electric-shock pain in her cheek when brushing her teeth, on carbamazepine 200 mg twice a day, sodium 131. What are the treatments for trigeminal neuralgia?",
     "66세 여자, 양치할 때 볼에 전기 오듯 찌릿한 통증, carbamazepine 200mg 하루 두번, 나트륨 131. 삼차신경통 치료 방법은요?",
     [("Trigeminal Neuralgia", "treatment")]),
    ("58-year-old woman after menopause, on amitriptyline 25 mg at night, works at a computer; her eyes feel gritty and burn. What causes dry eye and how is it treated?",
     "58세 여성 폐경 후, 밤에 amitriptyline 25mg 먹고 컴퓨터 일 해요. 눈이 모래 들어간 것처럼 뻑뻑하고 따가워요. 안구건조증 원인이랑 치료는요?",
     [("Dry Eye", "causes"), ("Dry Eye", "treatment")]),
    ("74-year-old man with diabetes, HbA1c 7.8, on insulin and tamsulosin 0.4 mg. His vision is cloudy and headlights glare at night. Are these symptoms of cataract?",
     "74세 남자, 당뇨 당화혈색소 7.8, 인슐린이랑 tamsulosin 0.4mg 복용. 눈이 뿌옇고 밤에 불빛이 번져 보여요. 백내장 증상인가요?",
     [("Cataract", "symptoms")]),
    ("50-year-old woman, a hairdresser standing all day, BMI 28, on hormone therapy; bulging veins on her calves ache by evening. How can varicose veins be prevented and treated?",
     "50세 여성 미용사라 하루 종일 서 있어요, BMI 28, 호르몬 치료 중. 종아리 혈관이 튀어나오고 저녁이면 욱신거려요. 하지정맥류 예방이랑 치료 어떻게 해요?",
     [("Varicose Veins", "prevention"), ("Varicose Veins", "treatment")]),
    ("69-year-old man, smoker with diabetes, LDL 150, on aspirin 100 mg; his calf hurts after walking 100 m and stops with rest. What are the symptoms of peripheral artery disease and how is it tested?",
     "69세 남자 흡연, 당뇨, LDL 150, 아스피린 100mg 복용. 100m 걸으면 종아리가 아프고 쉬면 나아요. 말초동맥질환 증상이랑 검사 알려주세요.",
     [("Peripheral Artery Disease", "symptoms"), ("Peripheral Artery Disease", "exams and tests")]),
    ("23-year-old man with Crohn's disease on azathioprine 100 mg, weight 58 kg, CRP 3. What should he eat with Crohn's disease?",
     "23세 남자 크론병으로 azathioprine 100mg 복용, 체중 58kg, CRP 3. 크론병이면 뭘 먹어야 돼요?",
     [("Crohn's Disease", "considerations")]),
    ("35-year-old woman with ulcerative colitis for 10 years, on mesalamine 2.4 g, hemoglobin 10.5, bloody stools five times a day. What are the complications of ulcerative colitis?",
     "35세 여성, 궤양성 대장염 10년째 mesalamine 2.4g 복용, 헤모글로빈 10.5, 하루 다섯번 혈변. 궤양성대장염 합병증 뭐가 있어요?",
     [("Ulcerative Colitis", "complications")]),
    ("Girl, 15, bloated with diarrhea after milk, 48 kg, no medicines, allergic to peanuts. How is lactose intolerance diagnosed, and what should she eat?",
     "15살 여학생, 우유 마시면 배가 빵빵하고 설사해요, 48kg, 먹는 약 없고 땅콩 알레르기. 유당불내증 진단은 어떻게 하고 뭘 먹어야 돼요?",
     [("Lactose Intolerance", "exams and tests"), ("Lactose Intolerance", "considerations")]),
    ("60-year-old man who lifts heavy boxes at work has a bulge in his right groin that grows when he coughs, on tamsulosin 0.4 mg, BP 140/88. What are the symptoms of an inguinal hernia, and does it need surgery?",
     "60세 남자 일하면서 무거운 상자 들어요. 오른쪽 사타구니가 불룩하고 기침하면 커져요, tamsulosin 0.4mg 복용, 혈압 140/88. 서혜부 탈장 증상이고 수술해야 하나요?",
     [("Inguinal Hernia", "symptoms"), ("Inguinal Hernia", "treatment")]),
    ("77-year-old man with an enlarged prostate took diphenhydramine 50 mg to sleep and has not passed urine for 10 hours. What causes urinary retention and what should be done?",
     "77세 할아버지 전립선비대증 있는데 잠 오라고 diphenhydramine 50mg 드시고 10시간째 소변을 못 보세요. 요폐 원인이 뭐고 어떻게 해야 돼요?",
     [("Urinary Retention", "causes"), ("Urinary Retention", "treatment")]),
    ("19-year-old student falls asleep in class and her knees buckle when she laughs; no medicines, BMI 22. How is narcolepsy diagnosed?",
     "19세 여대생, 수업 중에 자꾸 잠들고 웃으면 무릎에 힘이 빠져요, 먹는 약 없음, BMI 22. 기면증 진단은 어떻게 하나요?",
     [("Narcolepsy", "exams and tests")]),
    ("55-year-old man on heparin for 6 days after surgery, platelets 60, small red spots on his legs, no allergies. What causes thrombocytopenia?",
     "55세 남자 수술 후 헤파린 6일째, 혈소판 6만, 다리에 빨간 점들이 생겼어요, 알레르기 없음. 혈소판감소증 원인이 뭐예요?",
     [("Thrombocytopenia", "causes")]),
    ("71-year-old woman on metformin 1000 mg for 12 years and omeprazole 40 mg, vitamin B12 150, numb feet, MCV 108. What are the symptoms of pernicious anemia and how is it treated?",
     "71세 여성 메트포르민 1000mg 12년째, 오메프라졸 40mg 복용, 비타민 B12 150, 발 저림, MCV 108. 악성빈혈 증상이랑 치료 알려주세요.",
     [("Pernicious Anemia", "symptoms"), ("Pernicious Anemia", "treatment")]),
    ("58-year-old man with diabetes on sitagliptin 100 mg, BP 150/95, urine albumin 300 mg/g, eGFR 58. How can diabetic kidney disease be kept from getting worse?",
     "58세 남자 당뇨로 sitagliptin 100mg 복용, 혈압 150/95, 소변 알부민 300, eGFR 58. 당뇨병성 신장질환 더 나빠지지 않게 예방하려면 어떻게 해요?",
     [("Diabetic Kidney Disease", "prevention"), ("Diabetic Kidney Disease", "treatment")]),
    ("34-year-old woman drinks five coffees a day, TSH normal, taking pseudoephedrine 60 mg for a cold, heart rate 104. What causes heart palpitations?",
     "34세 여성 커피 하루 5잔, TSH 정상, 감기로 슈도에페드린 60mg 먹고 있어요, 맥박 104. 가슴 두근거림 원인이 뭐예요?",
     [("Heart Palpitations", "causes")]),
]


# A third set of long clinical messages, written 2026-11-26 before the Korean message
# retrieval changes that it evaluates, over conditions and drugs that none of the sets above
# asks about. All of it is `holdout3`: never looked at while tuning, reported apart.
MESSAGES_HOLDOUT3 = [
    ("46-year-old man, 82 kg, passed a kidney stone last year, on losartan 50 mg for blood pressure, drinks almost no water at work, uric acid 7.9. How can he keep kidney stones from coming back?",
     "46세 남자 82kg, 작년에 요로결석 한번 빠졌어요. 혈압약 losartan 50mg 먹고 일할때 물을 거의 안마셔요, 요산 7.9. 신장결석 다시 안 생기게 하려면 어떻게 해요?",
     [("Kidney Stones in Adults", "prevention")]),
    ("63-year-old woman, pain in the lower left belly for two days, temperature 38.1, WBC 13,000, on levothyroxine 50 mcg, allergic to penicillin. The CT shows diverticulitis. How is diverticular disease treated?",
     "63세 여자, 이틀째 왼쪽 아랫배가 아프고 열 38.1, 백혈구 13000, 레보티록신 50mcg 먹고 페니실린 알러지 있어요. CT에서 게실염이래요. 게실 질환 치료는 어떻게 하나요?",
     [("Diverticular Disease", "treatment")]),
    ("55-year-old man takes naproxen 500 mg twice a day for shoulder pain, drinks soju most nights, on amlodipine 5 mg. Burning pain in the upper belly and nausea after meals. What causes gastritis and how is it treated?",
     "55세 남자 어깨 아파서 naproxen 500mg 하루 두번 먹고 거의 매일 저녁 소주 마셔요, 암로디핀 5mg 복용. 밥먹고나면 명치가 쓰리고 메스꺼워요. 위염 원인이 뭐고 치료는 어떻게 해요?",
     [("Gastritis", "causes"), ("Gastritis", "treatment")]),
    ("49-year-old woman with type 1 diabetes for 25 years on an insulin pump, HbA1c 9.0. She feels full after a few bites, vomits undigested food at night, and her sugars swing up and down. What are the treatments for gastroparesis?",
     "49세 여자 1형당뇨 25년째 인슐린 펌프 써요, 당화혈색소 9.0. 몇 숟가락만 먹어도 배부르고 밤에 소화 안된 음식을 토해요, 혈당도 오르락내리락 해요. 위마비 치료 뭐 있어요?",
     [("Gastroparesis", "treatment")]),
    ("38-year-old woman, 30 weeks pregnant, types at a keyboard all day, takes iron tablets. Her thumb and first two fingers go numb at night and she drops things. How is carpal tunnel syndrome treated, and will it go away after the baby is born?",
     "38세 임산부 30주, 하루종일 키보드 쳐요, 철분제 먹고있어요. 밤마다 엄지랑 검지 중지가 저리고 물건을 자꾸 떨어뜨려요. 손목터널증후군 치료는 어떻게 하고 애기 낳으면 좋아지나요?",
     [("Carpal tunnel syndrome", "treatment"), ("Carpal tunnel syndrome", "outlook")]),
    ("44-year-old man, both hands shake when he holds a cup or writes, less after a glass of wine, and his father had the same. On omeprazole 20 mg, TSH 1.8. Is essential tremor inherited, and will his children get it?",
     "44세 남자, 컵 들거나 글씨 쓸 때 양손이 떨려요, 술 한잔 하면 덜하고 아버지도 그랬대요. 오메프라졸 20mg 먹고 TSH 1.8 정상. 본태성 떨림 유전되나요? 애들한테도 생길까요",
     [("Essential tremor", "inheritance")]),
    ("69-year-old man gets up four times a night to urinate and has a weak stream, PSA 2.1, on atorvastatin 20 mg and metformin 500 mg, creatinine 1.2. What complications can an enlarged prostate cause if it is not treated?",
     "69세 남자, 밤에 소변 때문에 4번씩 깨고 소변 줄기가 약해요, PSA 2.1, atorvastatin 20mg이랑 메트포르민 500mg 복용, 크레아티닌 1.2. 전립선비대증 치료 안하면 합병증 생기나요?",
     [("Prostate Enlargement: Benign Prostatic Hyperplasia", "complications")]),
    ("31-year-old woman had a bladder infection last week that she did not treat; now fever 39.2, shaking chills, pain in her right flank and vomiting. Allergic to sulfa, on the pill. Are these symptoms of a kidney infection, and what tests are needed?",
     "31세 여자, 지난주 방광염 있었는데 그냥 뒀대요. 지금 열이 39.2도고 오한에 오른쪽 옆구리가 아프고 토해요, 설파 알러지, 피임약 먹어요. 신우신염 증상인가요? 무슨 검사 해야 돼요?",
     [("Pyelonephritis: Kidney Infection", "symptoms"), ("Pyelonephritis: Kidney Infection", "exams and tests")]),
    ("27-year-old man had a cold two weeks ago; now sharp chest pain that is worse lying down and better leaning forward. ECG shows ST elevation in many leads, troponin normal, no allergies, takes no medicines. How is pericarditis treated?",
     "27세 남자, 2주전에 감기 걸렸었고 지금 가슴이 찌르듯이 아픈데 누우면 더 아프고 앞으로 숙이면 나아요. 심전도에서 여러 군데 ST 올라갔고 트로포닌은 정상, 알러지 없고 먹는약 없어요. 심낭염 치료 어떻게 해요?",
     [("Pericarditis", "treatment")]),
    ("58-year-old woman coughs up a cup of thick sputum every morning, had whooping cough and pneumonia as a child, never smoked, uses a salbutamol inhaler, SpO2 95%. The CT shows bronchiectasis. What causes bronchiectasis?",
     "58세 여성, 매일 아침 진한 가래를 한컵씩 뱉어요. 어릴때 백일해랑 폐렴 앓았고 담배는 안펴요, salbutamol 흡입기 써요, 산소포화도 95%. CT에서 기관지확장증이래요. 왜 생기는 거예요?",
     [("Bronchiectasis", "causes")]),
    ("36-year-old woman with a dry cough and red, tender lumps on her shins; the chest X-ray shows swollen lymph nodes at both lung roots, calcium 10.9, on sertraline 50 mg. How is sarcoidosis diagnosed?",
     "36세 여자, 마른기침 하고 정강이에 빨갛고 누르면 아픈 멍울이 있어요. 흉부 엑스레이에서 양쪽 폐문 림프절이 부었대요, 칼슘 10.9, sertraline 50mg 복용중. 사르코이드증 진단은 어떻게 해요?",
     [("Sarcoidosis", "exams and tests")]),
    ("52-year-old man with fair skin, a farmer outdoors all day, many bad sunburns as a child, on hydrochlorothiazide 25 mg; his brother had melanoma. Is he at higher risk of skin cancer?",
     "52세 남자 피부 하얀 편이고 농사지어서 하루종일 밖에 있어요, 어릴때 햇볕에 심하게 탄적 많고 hydrochlorothiazide 25mg 먹어요. 형이 흑색종이었어요. 이 사람 피부암 걸릴 위험이 높은가요?",
     [("Skin Cancer", "susceptibility")]),
    ("29-year-old woman, BP 146/92, the ultrasound shows many cysts in both kidneys, creatinine 1.0, her mother was on dialysis. She is planning a pregnancy and takes folic acid. Is polycystic kidney disease passed on to children?",
     "29세 여자 혈압 146/92, 초음파에서 양쪽 신장에 물혹이 여러개, 크레아티닌 1.0, 엄마가 투석하셨어요. 임신 준비중이라 엽산 먹어요. 다낭성 신장병 애기한테 유전되나요?",
     [("Polycystic kidney disease", "inheritance")]),
    ("76-year-old woman, smoked for 40 years, on amlodipine 10 mg and aspirin 100 mg. With her right eye straight lines look wavy and there is a blurry spot in the middle. Are these signs of age-related macular degeneration, and how is it treated?",
     "76세 할머니 담배 40년 피셨고 amlodipine 10mg, 아스피린 100mg 드세요. 오른쪽 눈으로 보면 직선이 구불구불하고 가운데가 뿌옇게 안보여요. 노인성 황반변성 증상인가요? 치료는 어떻게 해요",
     [("age-related macular degeneration", "symptoms"), ("age-related macular degeneration", "treatment")]),
    ("34-year-old woman with bulging eyes, heart rate 118, lost 6 kg, TSH below 0.01, free T4 4.2, TSH receptor antibodies positive; she is breastfeeding a 5-month-old and is allergic to iodine contrast. What are the treatments for Graves' disease?",
     "34세 여자, 눈이 튀어나오고 맥박 118, 6kg 빠졌어요, TSH 0.01 미만, free T4 4.2, TSH 수용체 항체 양성. 5개월 아기 모유수유 중이고 조영제 알러지 있어요. 그레이브스병 치료 방법 뭐예요?",
     [("Graves' disease", "treatment")]),
    ("61-year-old woman had calcium 11.2 on a routine blood test, PTH 120, takes alendronate 70 mg weekly for osteoporosis, had a kidney stone 2 years ago. She is tired and aches all over. What symptoms does primary hyperparathyroidism cause?",
     "61세 여성 건강검진에서 칼슘 11.2, PTH 120 나왔어요. 골다공증으로 alendronate 70mg 일주일에 한번 먹고 2년전에 신장결석 있었어요. 피곤하고 여기저기 쑤셔요. 부갑상선기능항진증 증상이 어떤게 있나요?",
     [("Primary hyperparathyroidism", "symptoms")]),
    ("45-year-old woman gained 12 kg, mostly on her belly and face, with purple stretch marks; BP 158/96 on valsartan 80 mg, glucose 180, bruises easily. She has used a steroid cream for years. What causes Cushing's syndrome?",
     "45세 여자, 12kg 쪘는데 배랑 얼굴에만 살이 붙고 보라색 튼살이 생겼어요. valsartan 80mg 먹는데 혈압 158/96, 혈당 180, 멍이 잘 들어요. 스테로이드 연고를 몇년 발랐대요. 쿠싱증후군 원인이 뭐예요?",
     [("Cushing's syndrome", "causes")]),
    ("28-year-old woman had blurred, painful vision in her left eye last year; now her legs have been numb and tingling for a week. On the pill, vitamin D 14. How is multiple sclerosis diagnosed?",
     "28세 여자, 작년에 왼쪽 눈이 흐리고 움직일때 아팠는데 일주일째 양쪽 다리가 저리고 찌릿해요. 피임약 먹고 비타민D 14에요. 다발성경화증 진단은 어떻게 하나요?",
     [("Multiple sclerosis", "exams and tests")]),
    ("67-year-old man with an artificial aortic valve, on warfarin 5 mg, INR 2.6, allergic to penicillin. He needs a tooth pulled next week. How can endocarditis be prevented?",
     "67세 남자, 대동맥판막 인공판막 수술했고 와파린 5mg, INR 2.6, 페니실린 알레르기. 다음주에 이 뽑아야 돼요. 심내막염 예방하려면 어떻게 해요?",
     [("Endocarditis", "prevention")]),
    ("71-year-old man, smoked for 50 years, BP 160/95 on amlodipine 5 mg, feels a pulsing in his belly and a dull back ache. His brother died of a burst aortic aneurysm. What are the symptoms of an aneurysm?",
     "71세 남자 50년 흡연, amlodipine 5mg 먹는데 혈압 160/95, 배에서 뭔가 쿵쿵 뛰는 느낌이 있고 허리가 뻐근해요. 형이 대동맥류 터져서 돌아가셨어요. 동맥류 증상이 뭐예요?",
     [("Aneurysm", "symptoms")]),
    ("48-year-old man, ferritin 1,200, transferrin saturation 68%, ALT 70, pain in his knuckles, drinks 2 beers a day, on metformin 500 mg. What complications can hemochromatosis cause, and since it is inherited, should his children be tested?",
     "48세 남자 페리틴 1200, 트랜스페린 포화도 68%, ALT 70, 손가락 관절이 아파요. 맥주 하루 2캔 마시고 metformin 500mg 먹어요. 혈색소침착증 합병증 뭐가 있고, 유전이라는데 애들도 검사 받아야 되나요?",
     [("Hemochromatosis", "complications"), ("Hemochromatosis", "inheritance")]),
    ("52-year-old man, BMI 33, ALT 88, AST 60, fatty liver on ultrasound and inflammation on biopsy, does not drink, on atorvastatin 10 mg and metformin 1000 mg. How is nonalcoholic steatohepatitis treated?",
     "52세 남자 BMI 33, ALT 88 AST 60, 초음파에서 지방간, 조직검사에서 염증 있대요. 술은 안마시고 atorvastatin 10mg, 메트포르민 1000mg 먹어요. 비알콜성 지방간염 치료는 어떻게 해요?",
     [("Nonalcoholic steatohepatitis", "treatment")]),
    ("84-year-old nursing-home resident with intense itching, worse at night, and small bumps between her fingers and on her wrists; two other residents itch too. On donepezil 10 mg and furosemide 20 mg. How is scabies treated?",
     "요양원 계신 84세 할머니, 밤에 더 심하게 가렵고 손가락 사이랑 손목에 좁쌀 같은게 났어요. 다른 어르신 두분도 가렵대요. donepezil 10mg, 푸로세미드 20mg 드세요. 옴 치료는 어떻게 해요?",
     [("Parasites - Scabies", "treatment")]),
    ("59-year-old man with diabetes on empagliflozin 10 mg, HbA1c 8.1, smoker; his gums bleed when he brushes and look puffy. How can gum disease be prevented?",
     "59세 남자 당뇨로 empagliflozin 10mg 복용, 당화혈색소 8.1, 담배 펴요. 양치할때 잇몸에서 피나고 잇몸이 부어있어요. 잇몸병 예방 어떻게 하나요?",
     [("Gum (Periodontal) Disease", "prevention")]),
    ("42-year-old man, waist 98 cm, BP 136/88, triglycerides 240, HDL 35, fasting glucose 108, sits at a desk all day, takes no medicines, allergic to aspirin. Who is at risk for metabolic syndrome, and is he?",
     "42세 남자 허리둘레 98cm, 혈압 136/88, 중성지방 240, HDL 35, 공복혈당 108, 하루종일 앉아서 일하고 먹는 약 없어요, 아스피린 알러지. 대사증후군은 어떤 사람이 잘 걸려요? 이 사람도 위험한가요?",
     [("Metabolic syndrome", "susceptibility")]),
    ("60-year-old man, BP 158/94, creatinine 1.0, potassium 4.6, diabetes on metformin 500 mg, allergic to sulfa. His blood pressure pill was changed to amlodipine and benazepril 5/20 mg. How should he take it, and what side effects can it cause?",
     "60세 남자 혈압 158/94, 크레아티닌 1.0, 칼륨 4.6, 당뇨로 메트포르민 500mg, 설파 알러지. 혈압약을 amlodipine/benazepril 5/20mg 으로 바꿨어요. 어떻게 먹고 부작용은 뭐가 있어요?",
     [("Amlodipine and Benazepril", "usage"), ("Amlodipine and Benazepril", "side effects")]),
    ("My son is 10, 32 kg, has ADHD and takes amphetamine 10 mg every morning before school; he also uses a fluticasone nasal spray, no allergies. He forgot this morning's dose and it is now 3 pm. Should he take it now?",
     "10살 아들 32kg ADHD라 학교 가기 전에 amphetamine 10mg 먹어요. 비염으로 fluticasone 코 스프레이도 쓰고 알레르기는 없어요. 오늘 아침 약을 까먹었는데 지금 오후 3시에요. 지금이라도 먹여도 괜찮을까요?",
     [("Amphetamine", "forget a dose")]),
    ("74-year-old woman with osteoporosis and a spinal compression fracture cannot take alendronate because of reflux; creatinine 1.3, on omeprazole 20 mg. She was prescribed calcitonin salmon nasal spray. How is it used, and what side effects does it have?",
     "74세 할머니 골다공증에 척추 압박골절, 역류성 식도염 때문에 알렌드로네이트 못드시고 크레아티닌 1.3, omeprazole 20mg 드세요. 칼시토닌 코에 뿌리는 스프레이 처방받았는데 어떻게 뿌리는 거에요? 부작용도 있나요?",
     [("Calcitonin Salmon Nasal Spray", "usage"), ("Calcitonin Salmon Nasal Spray", "side effects")]),
    ("53-year-old woman with hot flashes uses an estradiol patch changed twice a week and takes progesterone 100 mg at night, BP 124/78. She forgot to change her patch yesterday. What should she do, and what side effects can the patch cause?",
     "53세 여자 안면홍조로 estradiol 패치 일주일에 두번 갈아붙이고 밤에 프로게스테론 100mg 먹어요, 혈압 124/78. 어제 패치 바꾸는걸 깜빡했어요. 어떻게 해야돼요? 패치 부작용은 뭐 있어요?",
     [("Estradiol Transdermal Patch", "forget a dose"), ("Estradiol Transdermal Patch", "side effects")]),
    ("36-year-old woman smokes a pack a day, BMI 31, has migraines and takes sumatriptan when needed. She wants to switch from the pill to the birth control patch. What are the important warnings about the ethinyl estradiol and norelgestromin patch?",
     "36세 여자 하루 한갑 담배 피고 BMI 31, 편두통 있어서 sumatriptan 필요할때 먹어요. 피임약 대신 피임패치로 바꾸고 싶대요. 에티닐에스트라디올 노렐게스트로민 패치 중요한 경고사항 있나요?",
     [("Ethinyl Estradiol and Norelgestromin Transdermal Patch", "important warning")]),
    ("41-year-old man on methadone 80 mg a day for opioid use disorder, also on escitalopram 10 mg, ECG QTc 480. He is sleepy, constipated and sweats a lot. What side effects does methadone have, and what should he do if he misses a dose?",
     "41세 남자 아편유사제 중독 치료로 methadone 하루 80mg 먹고 escitalopram 10mg도 복용, 심전도 QTc 480. 졸리고 변비 있고 땀을 많이 흘려요. 메타돈 부작용 뭐가 있어요? 한번 빼먹으면 어떻게 해요?",
     [("Methadone", "side effects"), ("Methadone", "forget a dose")]),
    ("39-year-old woman, BMI 38, BP 134/86, type 2 diabetes on metformin 1000 mg, has an IUD, no allergies. Her doctor started phentermine and topiramate extended-release. How should she take it, and what side effects should she watch for?",
     "39세 여자 BMI 38, 혈압 134/86, 2형당뇨로 메트포민 1000mg 먹고 루프 했어요, 알러지 없음. 살빼는 약 phentermine/topiramate 서방정 시작했는데 어떻게 먹고 부작용은 뭘 조심해야 돼요?",
     [("Phentermine and Topiramate", "usage"), ("Phentermine and Topiramate", "side effects")]),
    ("67-year-old woman, BP 152/90, potassium 4.2, sodium 138, had gout in the past and takes allopurinol 100 mg. She was given lisinopril and hydrochlorothiazide 20/12.5 mg. When and how should she take it?",
     "67세 여성 혈압 152/90, 칼륨 4.2, 나트륨 138, 예전에 통풍 있었고 allopurinol 100mg 먹어요. 리시노프릴 하이드로클로로티아지드 20/12.5mg 받았어요. 언제 어떻게 먹어야 돼요?",
     [("Lisinopril and Hydrochlorothiazide", "usage")]),
    ("72-year-old man had cataract surgery on his right eye yesterday, uses moxifloxacin eye drops, on tamsulosin 0.4 mg and aspirin 100 mg. He was also given diclofenac eye drops. How should he use them?",
     "72세 남자 어제 오른쪽 백내장 수술했어요. moxifloxacin 안약 넣고 있고 탐스로신 0.4mg, 아스피린 100mg 드세요. 디클로페낙 안약도 받았는데 어떻게 넣어요?",
     [("Diclofenac Ophthalmic", "usage")]),
    ("45-year-old man with type 1 diabetes on insulin glargine 22 units, never smoked, normal lung function, afraid of needles. He wants inhaled insulin for meals. What side effects does inhaled insulin have?",
     "45세 남자 1형당뇨, 인슐린 글라진 22단위 맞고 담배는 안펴요, 폐기능 정상. 주사 무서워해서 식사때 흡입형 인슐린 쓰고 싶대요. 흡입 인슐린 부작용 뭐예요?",
     [("Insulin Human Inhalation", "side effects")]),
    ("70-year-old woman with knee arthritis, on warfarin 3 mg for atrial fibrillation and metoprolol 25 mg, INR 2.4, allergic to shellfish. Can she take glucosamine together with warfarin?",
     "70세 할머니 무릎 관절염, 심방세동으로 와파린 3mg이랑 metoprolol 25mg 드세요, INR 2.4, 갑각류 알러지. 글루코사민 와파린이랑 같이 먹어도 되요?",
     [("Glucosamine hydrochloride", "interactions with medications")]),
    ("82-year-old man on warfarin 5 mg for a clot in his leg, INR 6.8 today, no bleeding; amiodarone 200 mg was started last month. The doctor mentioned vitamin K. What is vitamin K and how is it used?",
     "82세 할아버지 다리 혈전때문에 와파린 5mg 드시는데 오늘 INR 6.8 나왔어요. 피나는 데는 없어요. 지난달부터 amiodarone 200mg 시작했어요. 의사가 비타민K 얘기하던데 그게 뭐고 어떻게 쓰는 거에요?",
     [("Vitamin K", None)]),
    ("My daughter is 2 years old, 12 kg, and swallowed about ten of her mother's iron tablets (ferrous sulfate 325 mg) half an hour ago; she vomited once. No allergies. What should we do for an iron overdose?",
     "2살 딸 12kg, 30분 전에 엄마 철분제(ferrous sulfate 325mg)를 열알 정도 삼켰어요. 한번 토했어요, 알러지 없어요. 철분제 과다복용이면 어떻게 해야돼요?",
     [("Ferrous Sulfate (Iron)", "emergency or overdose")]),
    ("34-year-old man was bitten on the hand by a stray dog in Vietnam yesterday; the wound was washed, tetanus shot 3 years ago, on montelukast 10 mg, allergic to amoxicillin. Does he need the rabies vaccine, and how many shots?",
     "34세 남자 어제 베트남에서 떠돌이 개한테 손을 물렸어요. 상처는 씻었고 파상풍 주사는 3년 전에 맞았어요. montelukast 10mg 먹고 아목시실린 알러지. 광견병 백신 맞아야 돼요? 몇 번 맞아요?",
     [("Rabies Vaccine", None)]),
    ("26-year-old woman is going backpacking in India next month, on isotretinoin 20 mg for acne, allergic to eggs, had all her childhood vaccines. Should she get the typhoid vaccine, and how long before the trip?",
     "26세 여자 다음달에 인도로 배낭여행 가요. 여드름때문에 isotretinoin 20mg 먹고 계란 알러지, 어릴때 예방접종은 다 맞았어요. 장티푸스 백신 맞아야 돼요? 여행 몇일 전에 맞아요?",
     [("Typhoid Vaccine", None)]),
]


def doc_ids_by(data_dir: Path):
    """(focus, qtype) -> KB doc ids, and focus -> KB doc ids, for documents the knowledge base holds."""
    by_qtype: dict[tuple[str, str], list[str]] = defaultdict(list)
    by_focus: dict[str, list[str]] = defaultdict(list)
    drug_questions: dict[str, tuple[str, str]] = {}
    seen: dict[str, int] = {}
    with gzip.open(data_dir / "medquad.jsonl.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            r = json.loads(line)
            focus = r["focus"].strip().lower()
            if not r.get("answer", "").strip():
                drug_questions[re.sub(r"\s+", " ", r["question"]).strip().lower()] = (focus, r["qtype"])
                continue
            base = f"{r['collection']}/{r['qid']}"
            seen[base] = seen.get(base, 0) + 1
            doc_id = base if seen[base] == 1 else f"{base}~{seen[base]}"
            by_qtype[(focus, r["qtype"])].append(doc_id)
            by_focus[focus].append(doc_id)
    # LiveQA judged MedlinePlus drug sections are documents of their own: their question
    # text is the MedQuAD record's question, which carries focus and qtype.
    with gzip.open(data_dir / "liveqa_judged_answers.jsonl.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            r = json.loads(line)
            match = re.search(r"Question:\s*(.*)", r["text"])
            if not match or not r["answer_id"].startswith(("MPlusDrugs", "MPlusHerbs")):
                continue
            found = drug_questions.get(re.sub(r"\s+", " ", match.group(1)).strip().lower())
            if found and r["answer_id"] not in by_focus[found[0]]:
                by_qtype[found].append(r["answer_id"])
                by_focus[found[0]].append(r["answer_id"])
    return by_qtype, by_focus


def held_out(focus: str) -> bool:
    """About 30 % of foci (all their questions) are held out, chosen by a hash of the focus."""
    return int(hashlib.sha256(focus.lower().encode()).hexdigest(), 16) % 10 < 3


def main() -> None:
    data_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE.parents[3] / "shared" / "data"
    by_qtype, by_focus = doc_ids_by(data_dir)
    missing = []
    with open(HERE / "korean_questions.jsonl", "w", encoding="utf-8") as out:
        for n, (focus, qtype, ko, en) in enumerate(QUESTIONS, start=1):
            key = focus.lower()
            relevant = sorted(set(by_qtype.get((key, qtype), [])))
            topic = sorted(set(by_focus.get(key, [])))
            if not relevant:
                missing.append((focus, qtype))
            out.write(json.dumps({
                "id": f"kq{n:03d}", "split": "heldout" if held_out(focus) else "dev", "focus": focus,
                "qtype": qtype, "query_ko": ko, "query_en": en, "relevant": relevant, "topic": topic,
            }, ensure_ascii=False) + "\n")
    with open(HERE / "clinical_messages.jsonl", "w", encoding="utf-8") as out:
        for n, (en, ko, gold) in enumerate(MESSAGES, start=1):
            relevant, topic = set(), set()
            for focus, qtype in gold:
                key = focus.lower()
                topic.update(by_focus.get(key, []))
                relevant.update(by_focus.get(key, []) if qtype is None else by_qtype.get((key, qtype), []))
            if not relevant:
                missing.append(tuple(gold))
            split = "heldout" if n % 10 in (3, 6, 9) else "dev"
            out.write(json.dumps({
                "id": f"cm{n:02d}", "split": split, "gold": [list(g) for g in gold], "query_en": en,
                "query_ko": ko, "relevant": sorted(relevant), "topic": sorted(topic),
            }, ensure_ascii=False) + "\n")
    with open(HERE / "clinical_messages_holdout2.jsonl", "w", encoding="utf-8") as out:
        for n, (en, ko, gold) in enumerate(MESSAGES_HOLDOUT2, start=1):
            relevant, topic = set(), set()
            for focus, qtype in gold:
                key = focus.lower()
                topic.update(by_focus.get(key, []))
                relevant.update(by_focus.get(key, []) if qtype is None else by_qtype.get((key, qtype), []))
            if not relevant:
                missing.append(tuple(gold))
            out.write(json.dumps({
                "id": f"cn{n:02d}", "split": "holdout2", "gold": [list(g) for g in gold], "query_en": en,
                "query_ko": ko, "relevant": sorted(relevant), "topic": sorted(topic),
            }, ensure_ascii=False) + "\n")
    with open(HERE / "clinical_messages_holdout3.jsonl", "w", encoding="utf-8") as out:
        for n, (en, ko, gold) in enumerate(MESSAGES_HOLDOUT3, start=1):
            relevant, topic = set(), set()
            for focus, qtype in gold:
                key = focus.lower()
                topic.update(by_focus.get(key, []))
                found = by_focus.get(key, []) if qtype is None else by_qtype.get((key, qtype), [])
                if not found:
                    missing.append((focus, qtype))
                relevant.update(found)
            out.write(json.dumps({
                "id": f"cp{n:02d}", "split": "holdout3", "gold": [list(g) for g in gold], "query_en": en,
                "query_ko": ko, "relevant": sorted(relevant), "topic": sorted(topic),
            }, ensure_ascii=False) + "\n")
    for item in missing:
        print("no gold:", item)


if __name__ == "__main__":
    main()
