"""Deterministic red-flag triage in Korean and English. No model, no pack: regular
expressions only, so it works (and is testable) even when everything else fails.

A rule fires when one of its patterns matches and the match is not negated
("가슴 통증은 없어요", "no chest pain"). Some rules need two findings together (chest
pain *with* radiation, sweating or breathlessness; an infant *with* fever).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.clinical.demographics import infant_age_in_months
from engine.text import is_korean

I = re.IGNORECASE | re.ASCII


def _rx(*parts: str) -> re.Pattern:
    return re.compile("|".join(f"(?:{part})" for part in parts), I)


# ---- findings used by several rules
CHEST_PAIN = _rx(
    r"(?:가슴|흉부|명치|왼쪽\s*가슴|심장)(?:이|가|은|는|쪽이|쪽|\s)*(?:\S+\s+){0,2}?(?:아프|아파|아픈|아팠|통증|조이|조여|쥐어짜|짓누르|짓눌|뻐근|답답|압박|찢어질|터질|타는\s*듯|무거)",
    r"흉통",
    r"(?:가슴|흉부|명치)(?:이|가|은|는|\s)*(?:\S+\s+){0,3}?(?:누르는|눌리는|무겁|조여|쥐어짜|터질)",
    r"chest\s+(?:pain|pains|pressure|tightness|discomfort|heaviness|hurts|is\s+hurting|ache)",
    r"(?:tight|heavy)\s+(?:band|feeling|weight|pressure)\s+(?:across|in|on)\s+(?:my|his|her|the)\s+chest",
    r"(?:pressure|pain|tightness|heaviness)\s+in\s+the\s+(?:middle|centre|center)\s+of\s+(?:my|his|her|the)\s+chest",
    r"(?:pain|pressure|tightness|squeezing)\s+behind\s+(?:my|his|her|the)\s+(?:breastbone|sternum)",
    r"clutch\w*\s+(?:at\s+)?(?:my|his|her|their)\s+chest",
    r"(?:pain|pressure|tightness|heaviness|squeezing|crushing)\s+(?:in|on)\s+(?:my|his|her|the)\s+chest",
    r"(?:crushing|squeezing|elephant\s+on\s+my)\s+chest",
)
RADIATION = _rx(
    r"(?:왼\s*팔|왼쪽\s*팔|팔|어깨|턱|등|목|왼손)(?:으로|까지|쪽으로|쪽까지|이|도)?\s*(?:\S+\s+){0,2}?(?:뻗|퍼지|퍼져|퍼진|내려|저리|저려|타고|번지|번져|전해|울려|아파|아프)",
    r"radiat\w*|spread\w*\s+(?:to|into|down)|(?:going|goes|shooting|travels?)\s+(?:down|into|to)\s+(?:my|his|her|the)\s+(?:left\s+)?(?:arm|jaw|back|neck|shoulder)",
    r"(?:down|into)\s+(?:my|his|her|the)\s+left\s+arm|(?:left\s+)?(?:arm|jaw)\s+(?:pain|is\s+numb|hurts|tingl\w*)",
    r"(?:moves?|moving|goes|going|spreads?|spreading)\s+(?:up\s+)?(?:in)?to\s+(?:my|his|her|the)\s+(?:jaw|neck|back|shoulder|left\s+arm)",
)
SWEAT = _rx(r"식은\s*땀|땀(?:이|을)?\s*(?:많이|비\s*오듯|뻘뻘|흘|나|줄줄)|진땀", r"\bsweat\w*|\bclammy|diaphore\w*|cold\s+sweat")
BREATHLESS = _rx(
    r"숨(?:이|을)?\s*(?:\S+\s+)?(?:차|가빠|가쁘|막|못\s*쉬|안\s*쉬어|쉬기\s*(?:가\s*)?(?:힘들|어렵|곤란))|호흡\s*곤란|숨쉬기\s*(?:가\s*)?(?:힘들|어렵)",
    r"short(?:ness)?\s+of\s+breath|breathless|can'?t\s+breathe|cannot\s+breathe|trouble\s+breathing|difficulty\s+breathing|hard\s+to\s+breathe|struggling\s+to\s+breathe",
)
CHEST_SEVERE = _rx(
    r"(?:갑자기|심하게|극심|찢어질|터질|죽을\s*것\s*같|쥐어짜|짓누르|짓눌|조이는|30분|한\s*시간)",
    r"\b(?:sudden\w*|severe|crushing|squeezing|worst|excruciating|tearing|elephant|unbearable|radiat\w*)\b",
    r"\b(?:\d{2,}|twenty|thirty|forty)\s+min(?:ute)?s\b|won'?t\s+go\s+away|at\s+rest|pass(?:ing)?\s+out|faint\w*|\b(?:grey|gray|pale)\b",
    r"토할\s*것\s*같|어지러|쓰러질\s*것\s*같|창백",
)
HEART_ATTACK_NOW = _rx(
    r"(?:심장\s*마비|심근\s*경색|심장\s*발작)(?:가|이)?\s*(?:같|인\s*것\s*같|온\s*것\s*같|온\s*듯|왔|와서|이\s*온|증상이\s*(?:있|나타|와))",
    r"(?:having|had)\s+a\s+heart\s+attack|think\s+(?:i'?m|he'?s|she'?s|it'?s)\s+(?:having\s+)?a\s+heart\s+attack",
)
FEVER = _rx(
    r"(?<![가-힣])열(?:이|은|도|나|난|났)|발열|고열|미열|열감|체온(?:이)?\s*\d|\d{2}(?:\.\d)?\s*(?:도|℃|°C)",
    r"\bthermometer\b[^.!?]{0,20}\b(?:3[89]|4[01])(?:\.\d)?\b|\bfeels?\s+(?:very\s+)?hot\b|\bhas\s+a\s+temperature\b",
    r"\bfever\w*|\btemperature\s+(?:of\s+)?\d|\b(?:3[89]|4[01])(?:\.\d)?\s*(?:°\s*c|c\b|degrees)|\b(?:10[0-6])(?:\.\d)?\s*(?:°\s*f|f\b|degrees)|\bfebrile|\bhot\s+to\s+the\s+touch",
)
INFANT_WORDS = _rx(r"신생아|갓난\s*아기|갓난아이|newborn|neonate")
BABY_WORDS = _rx(r"(?<![가-힣])(?:아기|애기|아가|영아|젖먹이)(?![가-힣]{2})", r"\b(?:baby|infant)\b")
HIGH_FEVER = _rx(r"고열|열이\s*(?:펄펄|불덩이)|(?:39|40|41)(?:\.\d)?\s*(?:도|℃|°C)", r"high\s+fever|\b(?:39|40|41)(?:\.\d)?\s*(?:°\s*c|c\b|degrees\s*c)|\b(?:10[2-6])(?:\.\d)?\s*(?:°\s*f|f\b|degrees)")
BABY_DANGER = _rx(
    r"축\s*(?:늘어|처져)|처져서|늘어져|반응이\s*없|젖을?\s*안\s*먹|수유를?\s*(?:안|못)|분유를?\s*(?:안|못)|경련|자꾸\s*자려고만|깨워도|숨을?\s*(?:헐떡|가쁘게)|보채고\s*울음을\s*그치지",
    r"lethargic|floppy|limp|won't\s+(?:feed|eat|wake)|not\s+(?:feeding|eating|waking)|hard\s+to\s+wake|seizure|inconsolable|rash\s+that\s+doesn'?t\s+fade",
)



# Broader phrasings, by category: how patients and carers describe each emergency
# (written from the categories; checked on resources/clinical/eval/triage_holdout*.jsonl).
BROADER = {
    "unconscious": (
        r"(?:fainted|passed\s+out|collapsed|blacked\s+out|knocked\s+out)[^.!?]{0,30}(?:not|n't|never)\s+(?:yet\s+)?(?:come\s+(?:round|around|to)|woken|woke|wake|waking|responding|respond)",
        r"(?:hasn'?t|has\s+not|haven'?t|have\s+not)\s+(?:yet\s+)?(?:come\s+(?:round|around|to)|woken\s+up|regained\s+consciousness)",
        r"(?:기절|실신|졸도|쓰러)[^.!?]{0,20}(?:정신을?\s*(?:\S+\s+)?못\s*차(?:리|려|렸)|의식이?\s*(?:안\s*돌아|없|돌아오지)|깨어나지\s*(?:않|못)|안\s*깨|못\s*깨)",
        r"정신을?\s*(?:아직\s*|전혀\s*)?못\s*차(?:리|려|렸)",
        r"(?:불러도|흔들어도|깨워도|꼬집어도|말을\s*걸어도)\s*(?:\S+\s+)?(?:대답이|반응이|눈을)?\s*(?:없|안\s*(?:떠|뜨|일어나|깨)|못\s*(?:떠|일어나))",
        r"아무\s*반응이\s*없|의식을\s*잃(?:었|으셨|고\s*(?:쓰러|안|못))|(?:갑자기|쓰러)[^.!?]{0,20}눈을\s*(?:안|못)\s*뜨",
        r"(?:isn'?t|is\s+not|not|won'?t|wasn'?t|no\s+longer)\s+(?:responding|responsive|reacting|react(?:ing)?\s+to\s+anything|answering\s+(?:me|us))",
        r"\bout\s+cold\b|won'?t\s+(?:come\s+round|come\s+to)|can'?t\s+(?:get|bring)\s+(?:him|her|them)\s+(?:to\s+)?(?:come\s+round|come\s+to|wake|respond)",
    ),
    "anaphylaxis": (
        r"throat\s+(?:feels?|is|getting|seems)\s+(?:like\s+it'?s\s+|like\s+it\s+is\s+)?(?:closing|tight\w*|swelling\s+shut|narrowing)",
        r"(?:sting|stung|ate|eating|bite\s+of|injection|shot|antibiotic|took|after)[^.!?]{0,60}(?:lips?|tongue|face|throat|eyes?)\s+(?:\w+\s+){0,2}(?:ballooned|swell\w*|swollen|puff\w*|thick)[^.!?]{0,50}(?:wheez|breath|swallow|hoarse|tight)",
        r"(?:lips?|tongue|face|throat)\s+(?:\w+\s+){0,2}(?:ballooned|swelling|swollen|puffed|thick)[^.!?]{0,40}(?:wheez|breath|swallow|hoarse)",
        r"(?:hives|rash)[^.!?]{0,50}throat\s+(?:feels\s+|is\s+|getting\s+)?(?:tight|closing|swelling)",
        r"(?:쏘이고|쏘인|먹고|먹은\s*(?:후|뒤)|맞고|맞은\s*(?:후|뒤))[^.!?]{0,30}(?:입술|혀|얼굴|목)(?:이|가)?\s*(?:\S+\s+)?(?:부|붓|퉁퉁)[^.!?]{0,30}(?:숨|호흡|목이\s*(?:꽉\s*)?막|말을|쌕쌕)",
        r"(?:입술|혀|얼굴)(?:이|가)?\s*(?:\S+\s+)?(?:부었|부어|붓)[^.!?]{0,25}목(?:이|구멍이)?\s*(?:꽉\s*|콱\s*)?(?:막|조여|조이)",
    ),
    "breathing_difficulty": (
        r"\bgasping\b|barely\s+(?:breathe|breathing|get\s+a\s+word)|fighting\s+for\s+(?:every\s+|each\s+)?breath|(?:can\s+)?hardly\s+breathe",
        r"can'?t\s+get\s+(?:enough\s+)?air|choked\s+on|(?:fingertips|fingers|lips|face)\s+(?:are\s+|is\s+)?(?:going|turning|turned|gone)\s+(?:blue|bluish|purple|grey|gray)",
        r"inhaler\s+(?:isn'?t|is\s+not|not|doesn'?t|does\s+not)\s+(?:helping|working|help|work)",
        r"숨이\s*(?:너무\s*|많이\s*)?차서[^.!?]{0,15}말(?:을|도)?\s*(?:못|할\s*수\s*없)|목에\s*(?:\S+\s+)?걸려서?\s*숨",
        r"(?:흡입기|벤토린|호흡기)[^.!?]{0,20}(?:숨이\s*안\s*쉬어|숨을\s*못|소용이\s*없|효과가\s*없)|숨을?\s*헐떡|입술이\s*(?:\S+\s+)?(?:보라|파랗|파래|새파)",
    ),
    "suicidal_thoughts": (
        r"\bend(?:ing)?\s+(?:my|his|her|their)\s+(?:own\s+)?li(?:fe|ves)\b|\btak(?:e|ing)\s+(?:my|his|her|their)\s+(?:own\s+)?li(?:fe|ves)\b|no\s+point\s+(?:in\s+)?(?:living|going\s+on|being\s+alive)",
        r"죽을\s*(?:거|것)(?:라|이라)고|(?:약|수면제)을?\s*모아\s*(?:두|놓|놨)",
        r"better\s+off\s+without\s+me|planning\s+(?:how\s+)?to\s+(?:do\s+it|kill|end)|(?:cutting|cut|burning|burned)\s+(?:my\s+)?(?:arms?|wrists?|legs?|skin|thighs?)",
        r"\bend(?:ing)?\s+(?:things|it\s+all|everything)\b|goodbye\s+(?:letters?|notes?)|suicide\s+note|no\s+way\s+out|(?:don'?t|do\s+not)\s+want\s+to\s+(?:go\s+on|be\s+here)",
        r"harm(?:ing)?\s+myself|jump(?:ing)?\s+(?:off|from)\s+(?:a|the)\s+(?:bridge|roof|building)",
        r"끝내(?:버리)?고\s*싶|(?:칼|커터칼|면도칼)로\s*(?:\S+\s+)?(?:그었|긋|그어)|(?:팔|손목|허벅지)을\s*(?:또\s*)?그었",
        r"살\s*이유가\s*없|뛰어내릴|죽는\s*방법|유서",
    ),
    "overdose": (
        r"\b(?:took|swallowed|ate|taken|had)\s+(?:about\s+|around\s+|maybe\s+)?(?:\d{2,}|twenty|thirty|forty|fifty|a\s+load\s+of|loads\s+of|lots\s+of|a\s+bunch\s+of|a\s+handful\s+of)\s+(?:of\s+)?(?:\w+'?s?\s+){0,2}(?:pills|tablets|capsules|paracetamol|tylenol|ibuprofen|aspirin|sleeping|medicine|meds)",
        r"(?:got\s+into|ate|swallowed|drank|licked)\s+(?:the\s+|some\s+|a\s+|one\s+of\s+the\s+)?(?:dishwasher|laundry|detergent|bleach|cleaning|drain|washing)",
        r"(?:ten|\d+)\s+times\s+the\s+(?:dose|amount)",
        r"한\s*움큼|(?:약|알약|수면제|진통제|안정제)(?:을|를)?\s*(?:\S+\s+)?(?:다|전부|몽땅|통째로)\s*(?:\S+\s+)?(?:먹|삼키|털어)",
        r"(?:아이|아기|애|애기|살짜리)(?:가)?[^.!?]{0,30}(?:약|알약|세제|락스|건전지|배터리)(?:을|를)?\s*(?:\S+\s+){0,2}(?:먹은|삼킨|마신|먹었|삼켰|마셨)",
    ),
    "major_bleeding": (
        r"(?:vomit\w*|throw\w*\s+up|threw\s+up|being\s+sick)[^.!?]{0,40}coffee[-\s]grounds?|coffee[-\s]grounds?[^.!?]{0,40}(?:vomit|sick|throw)",
        r"blood\s+(?:is\s+)?(?:pouring|gushing|spurting|streaming)|(?:pouring|gushing|spurting)\s+(?:out\s+)?blood",
        r"bleeding\s+(?:isn'?t|is\s+not|not)\s+stopping|(?:pressing|pressure)\s+on\s+it\s+(?:isn'?t|doesn'?t|is\s+not|does\s+not)\s+(?:stop|help)",
        r"bright\s+red\s+blood[^.!?]{0,40}(?:faint|dizz|lighthead|weak)|stools?\s+(?:are|is)\s+(?:all\s+)?(?:bright\s+red\s+)?blood",
        r"피가\s*(?:계속\s*)?(?:솟구|뿜어|쏟아|철철|콸콸)|(?:피|출혈)(?:가|이)?\s*(?:\S+\s+){0,2}멈추(?:질|지를|지도)?\s*(?:않|안)",
        r"피를\s*(?:\S+\s+){0,3}(?:토했|토해|토하)",
        r"하혈(?:이|을)?\s*(?:\S+\s+)?(?:많|심|멈추지|안\s*멈)|(?:패드|생리대)(?:가|를|도)?\s*(?:\S+\s+){0,2}?(?:금방|한\s*시간(?:마다|에|도)|몇\s*분|흠뻑|자꾸|계속)\s*(?:\S+\s+)?(?:젖|넘쳐|갈아)",
    ),
    "worst_headache": (
        r"벼락\s*(?:치듯|같이|처럼|같은)[^.!?]{0,10}(?:두통|머리)|갑자기[^.!?]{0,15}두통[^.!?]{0,20}목이?\s*(?:\S+\s+)?뻣뻣",
        r"(?=[^.!?]*\bhead)(?=[^.!?]*(?:neck[^.!?]{0,15}stiff|stiff[^.!?]{0,5}neck))(?=[^.!?]*\bfever)",
        r"(?:out\s+of\s+nowhere|came\s+on\s+in\s+seconds|(?:hit|struck)\s+(?:with|by)\s+a\s+(?:bat|hammer))[^.!?]{0,40}(?:head|worst)|headache[^.!?]{0,20}(?:out\s+of\s+nowhere|in\s+seconds)",
        r"worst\s+(?:ever\s+)?(?:head\s*pain|headache)|exploding\s+(?:head|headache)",
        r"(?:망치|둔기|방망이|벼락)(?:로|에)?\s*(?:\S+\s+)?(?:맞은|얻어맞은|맞는)\s*(?:것|듯)[^.!?]{0,20}(?:머리|두통)",
        r"(?:머리|뒷머리|뒤통수|앞머리|두통)[^.!?]{0,12}(?:망치|둔기|방망이|벼락)(?:로|에)?\s*(?:\S+\s+)?(?:맞은|얻어맞은|맞는|치는|치듯)",
        r"(?=[^.!?]*(?:두통|머리))(?=[^.!?]*목(?:이)?\s*(?:\S+\s+)?뻣뻣)(?=[^.!?]*(?:열이|열도|발열|고열))",
        r"머리가?\s*(?:깨질|터질|쪼개질)[^.!?]{0,20}(?:구토|토하|토를|의식|말이\s*어눌|목이\s*뻣뻣)",
    ),
    "seizure": (
        r"\bfitting\b|\bseizing\s+for\b|(?:seizure|fit|convulsion|shaking|jerking)s?\b[^.!?]{0,30}(?:won'?t|will\s+not|doesn'?t|does\s+not|hasn'?t|has\s+not)\s+stop(?:ped)?",
        r"(?:seizure|fit|convulsion|fitting|seizing|shaking|jerking)[^.!?]{0,25}\b(?:five|5|ten|10|\d{2})\s+min",
        r"(?:경련|발작|경기)(?:을|를|이|가)?\s*(?:\S+\s+){0,3}?(?:하고\s*있|계속|멈추지|안\s*멈|넘게)",
        r"jerking\s+(?:all\s+over|uncontrollably|violently)|eyes\s+(?:rolled|rolling)\s+back|having\s+a\s+fit\b",
        r"(?:몸이|온몸이)\s*(?:\S+\s+)?뻣뻣해지(?:면서|며|고)[^.!?]{0,10}떨|눈을\s*치켜뜨",
    ),
    "stroke": (
        r"(?:left|right|one)\s+side\s+of\s+(?:my|his|her|their|the)\s+(?:face|mouth)\s+(?:has\s+|had\s+|is\s+|was\s+|just\s+)?(?:dropped|droop\w*|fallen|sagg\w*|slipped|gone\s+(?:numb|slack))",
        r"can'?t\s+find\s+(?:my|his|her|their|the)\s+words|(?:lost|losing)\s+(?:my|his|her|their)\s+words",
        r"sudden\w*\s+(?:\w+\s+)?(?:numb\w*|weak\w*|paraly\w*)\s+(?:all\s+)?(?:down|on|in|along|over)\s+(?:my|his|her|their|the)\s+(?:whole\s+|entire\s+)?(?:left|right)\s+side",
        r"(?:numb\w*|weak\w*|paraly\w*)\s+(?:all\s+)?(?:down|on|in|along|over)\s+(?:my|his|her|their|the)\s+(?:whole|entire)\s+(?:left|right)\s+side",
        r"sudden\w*[^.!?]{0,60}(?:vision\s+(?:went|is|has\s+gone|turned)\s+(?:double|blurry|black)|double\s+vision)",
        r"\bhad\s+a\s+stroke\b[^.!?,;]{0,25}(?:minutes?|hours?|today|just\s+now|this\s+(?:morning|afternoon|evening))",
    ),
}


@dataclass(frozen=True)
class Rule:
    category: str
    patterns: tuple[re.Pattern, ...]


RULES: tuple[Rule, ...] = (
    Rule("unconscious", (_rx(
        r"의식(?:이|을)?\s*(?:없|잃|없어)|깨워도\s*(?:안\s*일어나|반응이\s*없|일어나지\s*않|안\s*깨)|정신을\s*잃고\s*(?:쓰러|안\s*깨|깨어나지)|쓰러져서\s*(?:안\s*일어나|반응이\s*없|의식이\s*(?:없|안\s*돌아)|안\s*깨)"
        r"|숨을\s*안\s*쉬어요|숨을\s*안\s*쉬고|호흡이\s*(?:없|멈)|맥박이\s*(?:없|안\s*잡)|심정지",
        r"\bunconscious\b|\bunresponsive\b|won'?t\s+wake\s+up|can'?t\s+wake\s+(?:him|her|them|my)|not\s+breathing|stopped\s+breathing|no\s+pulse"
        r"|passed\s+out\s+and\s+(?:won'?t|isn'?t|is\s+not|can'?t)|collapsed\s+and\s+(?:isn'?t|is\s+not|won'?t|not)",
    ),)),
    Rule("anaphylaxis", (_rx(
        r"아나필락시스|과민성\s*쇼크|알레르기\s*쇼크|쇼크\s*(?:가\s*)?(?:왔|와서|온\s*것)|에피펜(?:을|를)?\s*(?:맞|놨|썼|사용)",
        r"(?:목|목구멍|혀|입술|얼굴|눈)(?:이|가|도)?\s*(?:\S+\s+)?(?:붓|부어|부었|부풀|퉁퉁)[^.!?]{0,30}(?:숨|호흡|쌕쌕|목이\s*조여|삼키기|두드러기|어지러)",
        r"(?:숨|호흡)[^.!?]{0,20}(?:목|목구멍|혀|입술)(?:이|가)?\s*(?:\S+\s+)?(?:붓|부어|부었|조여)",
        r"목(?:이|구멍이)?\s*(?:조여|막혀|좁아지)[^.!?]{0,25}(?:먹고|먹은|쏘|맞고|맞은|알레르기|두드러기|약)",
        r"(?:먹고|먹은\s*후|먹은\s*뒤|쏘이고|쏘였는데|쏘인\s*후|주사\s*맞고|맞고\s*나서|먹었는데)[^.!?]{0,30}(?:숨(?:이|을)?\s*(?:\S+\s+)?(?:못|안|막|차|가빠|가쁘|쉬기)|목(?:이|구멍이)?\s*(?:붓|부어|조여|막혀)|혀(?:가)?\s*(?:붓|부어)|입술(?:이)?\s*(?:붓|부어))",
        r"두드러기[^.!?]{0,30}(?:숨(?:이|을)?\s*(?:\S+\s+)?(?:못|안|막|차|가빠|가쁘|쉬기\s*(?:가\s*)?(?:힘들|어렵))|호흡\s*곤란|목이\s*(?:조여|붓|부어))",
        r"anaphyla\w*|severe\s+allergic\s+reaction|used\s+(?:my|his|her|an|the)\s+epi-?pen|epi-?pen\s+(?:now|injected)",
        r"(?:throat|tongue|lips?|face)\s+(?:is\s+|are\s+|feels?\s+|started\s+)?(?:swelling|swollen|closing|tight|puffing)[^.!?]{0,40}(?:breath|wheez|swallow|hives|after|ate|stung|sting|allerg)",
        r"(?:swollen|swelling)\s+(?:throat|tongue|lips?)[^.!?]{0,40}(?:breath|wheez|swallow|hives)",
        r"(?:ate|eating|stung|sting|injection|shot|took)[^.!?]{0,40}(?:throat\s+(?:is\s+)?(?:closing|tight|swelling)|can'?t\s+breathe|tongue\s+(?:is\s+)?swelling|lips\s+(?:are\s+)?swelling)",
        r"hives[^.!?]{0,40}(?:can'?t\s+breathe|trouble\s+breathing|difficulty\s+breathing|wheez|throat\s+(?:is\s+)?(?:closing|tight|swelling))",
        r"throat\s+(?:is\s+)?closing(?:\s+up)?",
    ),)),
    Rule("breathing_difficulty", (_rx(
        r"숨(?:을|이)?\s*(?:\S+\s+)?(?:못\s*쉬겠|못\s*쉬어|못쉬|안\s*쉬어져|쉴\s*수가?\s*없|넘어갈|끊어질|멎을|막혀서?\s*(?:죽|말을|못))|숨이\s*막혀요|질식|숨\s*쉬기가?\s*너무\s*(?:힘들|어려)",
        r"숨(?:을)?\s*(?:제대로\s*|잘\s*)?쉬지\s*(?:를\s*)?못",
        r"숨이\s*(?:너무\s*|많이\s*)?차서\s*(?:말을|말도|말하기|누울|걸을)|말을\s*(?:못\s*할|할\s*수\s*없을)\s*정도로\s*숨|입술(?:이)?\s*(?:파래|파랗|보라|새파)|얼굴(?:이)?\s*(?:파래|파랗|새파)|청색증|호흡\s*곤란(?:이)?\s*(?:심|갑자기)|갑자기\s*숨(?:이|을)?\s*(?:\S+\s+)?(?:못|안\s*쉬|막|차)",
        # Something stuck in the throat and the person cannot speak, cough or breathe is choking, not a
        # stroke's lost speech ("음식이 목에 걸려서 말을 못 해요"): this rule is tried before the stroke rule.
        r"목에\s*(?:뭐가|음식이|떡이|사탕이|이물질이)\s*걸려[^.!?]{0,15}(?:숨|기침|말을)",
        r"(?:음식|음식물|떡|사탕|젤리|고기|땅콩|알약|뭔가|뭐|이물질)(?:이|가)?\s*목(?:구멍)?에\s*(?:\S+\s+)?걸려서?[^.!?]{0,15}(?:숨|기침|말(?:을|도|이)?\s*(?:못|안))",
        r"stuck\s+in\s+(?:my|his|her|their|your|the)\s+(?:throat|windpipe|airway)[^.!?]{0,40}(?:can'?t|cannot|unable\s+to|not\s+able\s+to)\s+(?:breathe|speak|talk|cough|make\s+a\s+sound)",
        r"can'?t\s+breathe|cannot\s+breathe|unable\s+to\s+breathe|struggling\s+to\s+breathe|gasping\s+for\s+(?:air|breath)|\bchoking\b|lips?\s+(?:are\s+|is\s+|turning\s+|turned\s+)?(?:blue|purple|gray|grey)|turning\s+blue",
        r"severe\s+(?:shortness\s+of\s+breath|difficulty\s+breathing|breathlessness)|too\s+(?:short\s+of\s+breath|breathless)\s+to\s+(?:talk|speak|walk)|can'?t\s+(?:speak|talk)\s+in\s+(?:full\s+)?sentences|can'?t\s+catch\s+(?:my|his|her)\s+breath",
    ),)),
    Rule("stroke", (_rx(
        r"(?:얼굴|입|입꼬리|한쪽\s*얼굴|얼굴\s*한쪽|얼굴\s*반쪽)(?:이|가|의|도)?\s*(?:\S+\s+)?(?:처지|처졌|처져|마비|돌아가|돌아갔|비뚤|일그러|틀어)",
        r"한쪽\s*(?:팔|다리|손|몸|팔다리|얼굴)(?:이|에|가|도)?\s*(?:\S+\s+)?(?:힘이\s*(?:빠|없)|마비|안\s*움직|감각이\s*없|저리|저려|못\s*움직|들\s*수\s*없|안\s*들)",
        r"(?:왼쪽|오른쪽)\s*(?:팔|다리|팔다리)(?:이|에|가)?\s*(?:\S+\s+)?(?:힘이\s*(?:빠|없)|마비|안\s*움직|감각이\s*없|못\s*움직)",
        r"말(?:이|을)?\s*(?:\S+\s+)?(?:어눌|어둔|안\s*나와|꼬여|꼬이|이상해|못\s*해|잘\s*안\s*나)|발음이\s*(?:\S+\s+)?(?:어눌|이상|새)|혀가\s*(?:꼬|굳)",
        r"뇌졸중\s*(?:같|증상|이\s*온|온\s*것)|중풍(?:이)?\s*(?:온\s*것\s*같|같|이\s*왔|증상)|뇌경색\s*(?:같|증상)|갑자기\s*(?:한쪽\s*)?눈이\s*(?:안\s*보|캄캄)|갑자기\s*(?:사람을\s*)?못\s*알아",
        r"(?:face|mouth|smile)\s+(?:is\s+|was\s+|started\s+)?(?:drooping|droops|drooped|lopsided|crooked|numb\s+on\s+one\s+side)|facial\s+droop|droop\w*\s+(?:face|mouth|smile|on\s+one\s+side)|one\s+side\s+of\s+(?:my|his|her|the)\s+face",
        r"slurr\w*|can'?t\s+(?:speak|talk|get\s+(?:the\s+)?words\s+out)|trouble\s+(?:speaking|talking|finding\s+words)|words\s+(?:are\s+)?(?:jumbled|garbled)",
        r"(?:sudden\w*\s+)?(?:weakness|numbness)\s+(?:in|on|of)\s+(?:one|the\s+left|the\s+right|his\s+left|his\s+right|her\s+left|her\s+right|my\s+left|my\s+right)\s+(?:side|arm|leg|hand)",
        r"(?:left|right)\s+(?:arm|leg|side)\s+(?:is\s+|went\s+|feels?\s+)?(?:weak|numb|heavy|limp|paralyzed)|can'?t\s+(?:lift|raise|move)\s+(?:my|his|her)\s+(?:left\s+|right\s+)?(?:arm|leg)",
        r"(?:is\s+having|am\s+having|having|just\s+had|may\s+have\s+had|might\s+be\s+having)\s+a\s+stroke|(?:showing|has|have|having|with)\s+(?:the\s+)?(?:signs|symptoms)\s+of\s+(?:a\s+)?stroke|sudden\s+(?:loss\s+of\s+balance|vision\s+loss|blindness)|lost\s+(?:the\s+)?vision\s+in\s+one\s+eye",
    ),)),
    Rule("suicidal_thoughts", (_rx(
        r"죽고\s*싶|죽어\s*버리고|죽어버리|자살(?:하고|할|을\s*(?:하|생각|시도)|\s*생각|\s*충동|\s*시도|하려)|극단적(?:인)?\s*선택|목숨을\s*끊|살고\s*싶지\s*않|살기\s*싫|사라지고\s*싶|자해|손목을\s*(?:긋|그었|그어|그을)|스스로\s*(?:다치|해치|목숨)|유서를?\s*(?:썼|쓰)|뛰어내리고\s*싶|목을\s*매|죽을\s*생각|삶을\s*끝내|세상을\s*떠나고\s*싶|다\s*끝내고\s*싶",
        r"kill(?:ing)?\s+myself|suicidal|end\s+(?:my\s+life|it\s+all)|take\s+my\s+(?:own\s+)?life|want\s+to\s+die|wanna\s+die|better\s+off\s+dead|self[-\s]?harm|hurt(?:ing)?\s+myself|cut(?:ting)?\s+myself|no\s+reason\s+to\s+live|don'?t\s+want\s+to\s+(?:live|be\s+alive|wake\s+up)|thinking\s+(?:about|of)\s+suicide|commit\s+suicide|attempt(?:ed)?\s+suicide",
    ),)),
    Rule("overdose", (_rx(
        r"과다\s*복용|과량\s*복용|(?:약|수면제|진통제|타이레놀|알약|혈압약|당뇨약|신경안정제|안정제|감기약)(?:을|를)?\s*(?:\S+\s+)?(?:한꺼번에|한번에|통째로|한\s*통|몇\s*십|잔뜩|\d{2,}\s*(?:알|정|개))[^.!?]{0,10}(?:먹|삼키|털어)",
        r"약을\s*(?:너무\s*)?많이\s*(?:먹었|삼켰)|(?<![가-힣])(?:농약|락스|세제|살충제|부동액|표백제|제초제|쥐약)(?:을|를)?\s*(?:\S+\s+)?(?:마셨|먹었|삼켰)|(?:아이|아기|애|애기)(?:가)?\s*(?:\S+\s+){0,3}?[가-힣]*(?:약|알약|세제|건전지|배터리|자석|담배)(?:을|를)?\s*(?:\S+\s+)?(?:먹었|삼켰|먹어버렸)",
        r"overdos(?:ed|ing)|(?:took|taken|had|has\s+had)\s+an\s+overdose|took\s+(?:too\s+many|a\s+whole\s+bottle|the\s+whole\s+bottle|a\s+handful|all\s+(?:of\s+)?(?:my|the|his|her)\s+(?:pills|tablets|medication|medicine))|swallowed\s+(?:a\s+bunch\s+of|a\s+handful\s+of|too\s+many|the\s+whole|all\s+(?:of\s+)?(?:the|my|his|her))",
        r"(?:drank|swallowed|ingested|ate)\s+(?:some\s+)?(?:bleach|antifreeze|pesticide|poison|detergent|a\s+(?:button\s+)?battery|rat\s+poison|weed\s+killer)",
        r"(?:child|kid|son|daughter|toddler|baby)\s+(?:ate|swallowed|got\s+into)[^.!?]{0,25}(?:pills|medicine|medication|tablets|bleach|battery|batteries|detergent|pods?)",
    ),)),
    Rule("major_bleeding", (_rx(
        r"피를\s*(?:\S+\s+)?(?:토|토했|토해|쏟)|토혈|피가\s*섞인\s*(?:구토|토)|(?:피|출혈)(?:가|이)?\s*(?:\S+\s+)?(?:멈추지\s*(?:않|안)|안\s*멈|계속\s*(?:나|흘)|철철|콸콸|쏟아)|피를\s*많이\s*흘|출혈이\s*(?:\S+\s+)?(?:심|멈추지|안\s*멈)|대량\s*출혈",
        r"하혈(?:이|을)?\s*(?:\S+\s+)?(?:심|많이|계속)|임신[^.!?]{0,15}(?:출혈|피가\s*(?:나|비쳐)|하혈)|객혈(?:이|을)?\s*(?:\S+\s+)?(?:많|심)|기침할\s*때\s*피가\s*(?:많이|계속|한\s*컵)|혈변(?:이|을)?\s*(?:\S+\s+)?(?:많이|계속|심)|코피(?:가)?\s*(?:\S+\s+)?(?:멈추지|안\s*멈|30분|한\s*시간)",
        r"(?:새까만|검은|짜장\s*같은)\s*변[^.!?]{0,30}(?:어지|쓰러|기운이\s*없|식은땀)",
        r"vomit\w*\s+blood|throw\w*\s+up\s+blood|threw\s+up\s+blood|cough\w*\s+up\s+(?:a\s+lot\s+of\s+|lots\s+of\s+|a\s+cup\s+of\s+)?blood|bleeding\s+(?:won'?t|will\s+not|doesn'?t|does\s+not)\s+stop|can'?t\s+stop\s+(?:the\s+)?bleeding",
        r"heavy\s+bleeding|bleeding\s+heavily|soak\w*\s+(?:through\s+)?(?:a\s+|one\s+)?pads?|lots\s+of\s+blood|large\s+amount\s+of\s+blood|bleeding\s+(?:while|during)\s+pregnan\w*|pregnant\s+(?:and|with)\s+(?:heavy\s+)?bleeding|nosebleed\s+(?:that\s+)?(?:won'?t|will\s+not)\s+stop",
        r"black\s+(?:tarry\s+)?stools?\s+(?:and|with)\s+(?:dizz|faint|weak|lighthead)",
    ),)),
    Rule("worst_headache", (_rx(
        r"(?:생애|평생|태어나서|살면서|인생)\s*(?:\S+\s+)?(?:최악|처음|제일|가장)[^.!?]{0,15}(?:두통|머리가?\s*(?:아파|아픈|아프))|벼락\s*(?:같은\s*)?두통|(?:망치로|둔기로|방망이로)\s*(?:맞은|얻어맞은|때리는)\s*(?:것\s*같|듯)[^.!?]{0,15}(?:두통|머리)",
        r"갑자기[^.!?]{0,10}(?:머리가?\s*(?:\S+\s+)?(?:깨질|터질|쪼개질)|극심한\s*두통|심한\s*두통)|(?:극심한|심한)\s*두통[^.!?]{0,25}(?:목이\s*뻣뻣|구토|의식|말이\s*어눌|갑자기)|두통[^.!?]{0,20}목이\s*뻣뻣[^.!?]{0,20}열|목이\s*뻣뻣[^.!?]{0,20}(?:고열|열이)[^.!?]{0,20}두통",
        r"worst\s+headache|thunderclap|sudden\s+(?:severe|excruciating|explosive|terrible|intense)\s+headache|headache[^.!?]{0,30}(?:like|as\s+if)[^.!?]{0,15}(?:hit|struck)|(?:head|headache)\s+(?:is\s+)?exploding",
        r"headache\s+(?:with|and)\s+(?:a\s+)?stiff\s+neck[^.!?]{0,30}fever|stiff\s+neck[^.!?]{0,30}fever[^.!?]{0,30}headache|fever[^.!?]{0,30}stiff\s+neck[^.!?]{0,30}headache",
    ),)),
    Rule("seizure", (_rx(
        r"(?<!눈\s)(?<!눈)(?<!눈밑\s)(?<!눈꺼풀\s)(?:경련|발작|경기)(?:을|를)?\s*(?:하|했|해요|일으|하고|한다|중|하더니|하면서)|(?:경련|발작|경기)(?:이|가)\s*(?:났|나|멈추지|계속|있었|왔|시작)|온몸을\s*(?:떨|부들부들)|거품을\s*(?:물|무)|눈이\s*(?:뒤집|돌아가)|(?:의식을\s*잃고|쓰러져서)[^.!?]{0,10}(?:떨|경련)",
        r"(?:having|had|has|is\s+having|just\s+had)\s+a\s+(?:seizure|convulsion|fit)|\bseizing\b|convulsing|\bconvulsions\b|foaming\s+at\s+the\s+mouth|first\s+(?:ever\s+)?seizure|shaking\s+(?:all\s+over|uncontrollably)\s+and\s+(?:unresponsive|not\s+responding)|febrile\s+seizure",
    ),)),
)
RULES = tuple(Rule(rule.category, rule.patterns + ((_rx(*BROADER[rule.category]),) if rule.category in BROADER else ()))
              for rule in RULES)
_INFORMATIONAL_BEFORE = r"(?:what\s+is|what's|what\s+are|about|define|signs\s+of|symptoms\s+of|treat|treating|prevent|preventing|risk\s+of|causes?\s+of)\s+(?:an?\s+)?$"
_NOT_CONTEXT = {
    "anaphylaxis": re.compile(_INFORMATIONAL_BEFORE, re.I | re.ASCII),
    "seizure": re.compile(r"(?:축구|야구|농구|배구|테니스|게임|시합|운동|올림픽|경기도|경기장)[^.!?]{0,8}$|(?:눈|눈밑|눈꺼풀|종아리|다리|발|근육|얼굴\s*근육)\s*(?:밑\s*)?$"),
    "suicidal_thoughts": re.compile(r"(?:cause|causes|caused|increase|increases|risk|side\s+effects?|warning|부작용|위험|예방|통계|률|증가)[^.!?]{0,25}$", re.I | re.ASCII),
}
_NOT_CONTEXT_AFTER = {
    "anaphylaxis": re.compile(r"^\s*(?:가|이|는|은|란|이란)?\s*(?:뭔|뭐|무엇|무슨|어떤|란|이란|증상은|예방|치료법|\?)", re.I | re.ASCII),
    "suicidal_thoughts": re.compile(
        r"^[^.!?]{0,20}(?:예방|통계|률|생길\s*수|생기나|유발|일으킬|부작용|위험|사실인가|증가|늘어|"
        r"prevention|rate|statistics|risk|side\s+effect|warning)", re.I | re.ASCII),
}
# "가슴 통증은 없어요", and a verb negated by -지 않 ("피를 토하지는 않았어요"); never -지 못,
# which is the symptom itself ("숨을 쉬지 못해요").
# A past event ("a febrile seizure two years ago", "작년에 뇌경색이 있었고") is history, not an
# emergency now. Never applied to suicidal thoughts: there, over-alerting is the safe error.
_PAST_BEFORE = re.compile(
    r"(?:history\s+of|\bhx\s+of|\bin\s+(?:19|20)\d{2}|years?\s+ago|last\s+year)[^.!?,;]{0,30}$"
    r"|(?:예전에|작년에|재작년에?|\d+\s*년\s*전에?|몇\s*(?:년|달)\s*전에?|어릴\s*때)[^.!?,;]{0,25}$", re.I)
_PAST_AFTER = re.compile(
    r"^[^.!?,;]{0,40}?\b(?:(?:\d+|a|an|one|two|three|four|five|six|several|few|couple\s+of)\s+(?:years?|months?)\s+ago|"
    r"last\s+(?:year|month)|in\s+(?:19|20)\d{2})\b|^[^.!?,;]{0,15}(?:적이\s*있|했었|있었고|있었는데)"
    r"|^[^.!?,;]{0,20}\b(?:as\s+a\s+(?:teen(?:ager)?|child|kid|baby|toddler|student)|when\s+(?:i|he|she|they)\s+(?:was|were)\s+(?:young|little|small|a\s+\w+|\d+))\b", re.I)
_KOREAN_NEGATION_AFTER = re.compile(
    r"^\s*(?:은|는|이|가|도)?\s*(?:없|않|아니|안\s+(?:나|해|아파|들|쉬)|전혀|괜찮)"
    r"|^[가-힣]{0,3}지\s*(?:는|도|를|은)?\s*않")
_ENGLISH_NEGATION_BEFORE = re.compile(r"\b(?:no|not|never|denies|denied|without|don'?t|doesn'?t|didn'?t|isn'?t|wasn'?t|haven'?t|hasn'?t|nor)\b(?:\s+\S+){0,2}\s*$", re.I | re.ASCII)

MESSAGES = {
    "ko": {
        "unconscious": "의식이 없거나 깨워도 반응이 없으면 응급 상황입니다. 지금 바로 119에 전화하세요. 숨을 쉬지 않으면 119 안내에 따라 심폐소생술을 시작하세요.",
        "anaphylaxis": "목·입술·혀가 붓거나 숨쉬기 힘든 알레르기 반응은 아나필락시스일 수 있습니다. 에피네프린 자가주사(에피펜)가 있으면 바로 사용하고 지금 119에 전화하세요.",
        "breathing_difficulty": "숨을 제대로 쉴 수 없거나 입술이 파래지면 응급 상황입니다. 지금 바로 119에 전화하거나 응급실로 가세요. 음식이나 물건이 목에 걸려 말·기침·숨을 못 하면 등 두드리기와 복부 밀어내기(하임리히법)를 하세요. 1세 미만 아기는 등 두드리기와 가슴 밀어내기를 합니다.",
        "chest_pain": "가슴 통증이 팔·턱·등으로 퍼지거나 식은땀·숨참이 함께 있으면 심근경색일 수 있습니다. 지금 바로 119에 전화하세요. 직접 운전해서 가지 마세요.",
        "stroke": "얼굴 처짐, 한쪽 팔다리 힘 빠짐, 말이 어눌해지는 증상은 뇌졸중 신호입니다. 증상이 시작된 시각을 기억하고 지금 바로 119에 전화하세요.",
        "suicidal_thoughts": "지금 많이 힘드시군요. 혼자 견디지 마세요. 자살예방상담전화 109(24시간)나 정신건강위기상담 1577-0199, 위급하면 119에 지금 바로 연락하세요. 믿을 수 있는 사람에게 곁에 있어 달라고 부탁하세요.",
        "overdose": "약물 과다복용이나 중독이 의심되면 지금 바로 119에 전화하세요. 먹은 약이나 물질의 포장을 챙기고, 억지로 토하게 하지 마세요.",
        "major_bleeding": "피를 토하거나 멈추지 않는 심한 출혈은 응급 상황입니다. 지금 바로 119에 전화하거나 응급실로 가세요.",
        "worst_headache": "갑자기 시작된 생애 최악의 두통이나 목 경직을 동반한 두통은 뇌출혈·뇌수막염의 신호일 수 있습니다. 지금 바로 119에 전화하거나 응급실로 가세요.",
        "seizure": "경련이 5분 넘게 계속되거나 처음 생긴 경련이면 지금 바로 119에 전화하세요. 주변의 위험한 물건을 치우고 입에 아무것도 넣지 말고 옆으로 눕혀 주세요.",
        "infant_fever": "생후 3개월 미만 아기의 발열이나 영아의 고열·처짐은 응급 진료가 필요합니다. 지금 바로 소아 응급실로 가세요.",
        None: "응급 징후는 발견되지 않았습니다. 증상이 심해지거나 새로 생기면 의료진과 상담하세요.",
    },
    "en": {
        "unconscious": "Unconsciousness or no response is an emergency. Call emergency services now (119 in Korea, 911 in the US). If the person is not breathing, start CPR as the dispatcher instructs.",
        "anaphylaxis": "Swelling of the throat, lips or tongue or trouble breathing after an exposure can be anaphylaxis. Use an epinephrine auto-injector if available and call emergency services now.",
        "breathing_difficulty": "Being unable to breathe properly or blue lips is an emergency. Call emergency services or go to the emergency department now. If food or an object is stuck in the throat and the person cannot speak, cough or breathe, give back blows and abdominal thrusts (the Heimlich maneuver); for a baby under 1, back blows and chest thrusts.",
        "chest_pain": "Chest pain spreading to the arm, jaw or back, or with sweating or breathlessness, can be a heart attack. Call emergency services now; do not drive yourself.",
        "stroke": "Face drooping, weakness on one side or slurred speech are stroke signs. Note the time symptoms started and call emergency services now.",
        "suicidal_thoughts": "You don't have to face this alone. If you might act on these thoughts, call emergency services now, or a crisis line (Korea 109, US 988), and ask someone you trust to stay with you.",
        "overdose": "A suspected overdose or poisoning is an emergency. Call emergency services or poison control now; keep the packaging and do not force vomiting.",
        "major_bleeding": "Vomiting blood or bleeding that will not stop is an emergency. Call emergency services or go to the emergency department now.",
        "worst_headache": "A sudden 'worst ever' headache, or headache with a stiff neck and fever, can signal bleeding in the brain or meningitis. Go to the emergency department now.",
        "seizure": "Call emergency services if a seizure lasts more than 5 minutes or is a first seizure. Move dangerous objects away, put nothing in the mouth and turn the person on their side.",
        "infant_fever": "Fever in a baby under 3 months, or high fever or listlessness in an infant, needs emergency care. Go to a pediatric emergency department now.",
        None: "No emergency warning signs found. If symptoms get worse or new ones appear, contact a clinician.",
    },
}


def triage(text: str) -> dict:
    """`{"emergency", "category", "message"}`; the message is in the language of the text."""
    text = text or ""
    language = "ko" if is_korean(text) else "en"
    category = red_flag(text)
    return {"emergency": category is not None, "category": category, "message": MESSAGES[language][category]}


# A match of the similar-emergency check (engine.clinical.similar_emergencies) is a
# resemblance, not a recognised red flag: its guidance opens with this sentence.
RESEMBLES = {
    "en": "This message resembles descriptions of an emergency. If this is happening now: ",
    "ko": "응급 상황을 설명하는 말과 비슷한 내용이 있습니다. 지금 이런 상황이라면: ",
}


def guidance_messages(category: str | None, *, resembles: bool = False) -> dict[str, str]:
    """The guidance for `category` in every language (`{"en": ..., "ko": ...}`), opened by
    the "resembles an emergency" sentence for a similarity match; {} for an unknown category."""
    if category is None or category not in MESSAGES["en"]:
        return {}
    return {language: (RESEMBLES[language] if resembles else "") + messages[category]
            for language, messages in MESSAGES.items()}


def red_flag(text: str) -> str | None:
    """The most urgent red-flag category in `text`, or None."""
    for rule in RULES[:3]:
        if _fires(rule, text):
            return rule.category
    if _chest_pain_emergency(text):
        return "chest_pain"
    for rule in RULES[3:]:
        if _fires(rule, text):
            return rule.category
    if _infant_breathing(text):
        return "breathing_difficulty"
    if _infant_fever(text):
        return "infant_fever"
    return None


def _fires(rule: Rule, text: str) -> bool:
    return any(_unnegated(pattern, text, rule.category) for pattern in rule.patterns)


def _unnegated(pattern: re.Pattern, text: str, category: str = "") -> re.Match | None:
    for match in pattern.finditer(text):
        before, after = text[: match.start()], text[match.end():]
        if _ENGLISH_NEGATION_BEFORE.search(before[-40:]) or _KOREAN_NEGATION_AFTER.match(after):
            continue
        if category != "suicidal_thoughts" and (_PAST_BEFORE.search(before[-60:]) or _PAST_AFTER.match(after)):
            continue
        guard, guard_after = _NOT_CONTEXT.get(category), _NOT_CONTEXT_AFTER.get(category)
        if guard and guard.search(before[-30:]) or guard_after and guard_after.match(after):
            continue
        return match
    return None


def _chest_pain_emergency(text: str) -> bool:
    if _unnegated(HEART_ATTACK_NOW, text):
        return True
    if not _unnegated(CHEST_PAIN, text):
        return False
    return any(_unnegated(pattern, text) for pattern in (RADIATION, SWEAT, BREATHLESS, CHEST_SEVERE))


def _infant_breathing(text: str) -> bool:
    """A baby who struggles to breathe ("아기가 기침을 심하게 하고 숨쉬기 힘들어해요") needs care now; an adult's
    breathlessness does only when severe (the breathing rule)."""
    if not _unnegated(BREATHLESS, text):
        return False
    months = infant_age_in_months(text)
    if months is not None:
        return months < 12
    return bool(_unnegated(INFANT_WORDS, text) or _unnegated(BABY_WORDS, text))


def _infant_fever(text: str) -> bool:
    if not _unnegated(FEVER, text):
        return False
    months = infant_age_in_months(text)
    if months is not None:
        return months < 3 or (months < 12 and (_unnegated(HIGH_FEVER, text) or _unnegated(BABY_DANGER, text)))
    if _unnegated(INFANT_WORDS, text):
        return True
    return bool(_unnegated(BABY_WORDS, text) and (_unnegated(HIGH_FEVER, text) or _unnegated(BABY_DANGER, text)))
