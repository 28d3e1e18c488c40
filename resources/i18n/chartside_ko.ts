<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ko_KR" sourcelanguage="en">
<context>
    <name>AboutDialog</name>
    <message>
        <source>About Chartside</source>
        <translation>Chartside 정보</translation>
    </message>
    <message>
        <source>An offline medical-knowledge assistant. Questions, answers and patient data stay on this computer; patient data is kept only in the encrypted store.</source>
        <translation>오프라인 의학 지식 도우미입니다. 질문, 답변, 환자 정보는 이 컴퓨터를 떠나지 않으며, 환자 정보는 암호화된 저장소에만 보관됩니다.</translation>
    </message>
    <message>
        <source>Chartside does not replace a clinical assessment.</source>
        <translation>Chartside는 진료를 대신하지 않습니다.</translation>
    </message>
    <message>
        <source>Knowledge base</source>
        <translation>지식 베이스</translation>
    </message>
    <message>
        <source>Default language model</source>
        <translation>기본 언어 모델</translation>
    </message>
    <message>
        <source>Embeddings</source>
        <translation>임베딩</translation>
    </message>
    <message>
        <source>Font</source>
        <translation>글꼴</translation>
    </message>
    <message>
        <source>writing answers: the question, the patient facts on file, earlier turns of the conversation and the retrieved passages</source>
        <translation>답변 작성: 질문, 기록된 환자 정보, 이 대화의 이전 내용, 검색된 문단</translation>
    </message>
    <message>
        <source>classifying questions: the question</source>
        <translation>질문 분류: 질문</translation>
    </message>
    <message>
        <source>checking answers: the question, the answer and the retrieved passages</source>
        <translation>답변 검토: 질문, 답변, 검색된 문단</translation>
    </message>
    <message>
        <source>summaries: earlier turns of the conversation and long passages</source>
        <translation>요약: 이 대화의 이전 내용과 긴 문단</translation>
    </message>
    <message>
        <source>Everything else stays on this computer; patient data is stored only in the encrypted store.</source>
        <translation>그 밖의 모든 것은 이 컴퓨터에 남으며, 환자 정보는 암호화된 저장소에만 저장됩니다.</translation>
    </message>
    <message>
        <source>When the server fails, this computer&apos;s model answers.</source>
        <translation>서버에 문제가 생기면 이 컴퓨터의 모델이 답합니다.</translation>
    </message>
    <message>
        <source>A medical-knowledge assistant. A clinic model server is enabled (Settings → Models), so some data leave this computer: what the model prompts hold is sent to %1 for</source>
        <translation>의학 지식 도우미입니다. 병원 모델 서버가 켜져 있어(설정 → 모델) 일부 데이터가 이 컴퓨터 밖으로 나갑니다. 다음 작업에서 모델 프롬프트에 담긴 내용이 %1(으)로 전송됩니다:</translation>
    </message>
</context>
<context>
    <name>AlertBanner</name>
    <message>
        <source>Emergency</source>
        <translation>응급</translation>
    </message>
    <message>
        <source>Call emergency services (119) or go to the nearest emergency department now.</source>
        <translation>지금 119에 전화하거나 가장 가까운 응급실로 가세요.</translation>
    </message>
    <message>
        <source>What to do now:</source>
        <translation>지금 할 일:</translation>
    </message>
    <message>
        <source>Allergy</source>
        <translation>알레르기</translation>
    </message>
    <message>
        <source>Drug interaction</source>
        <translation>약물 상호작용</translation>
    </message>
    <message>
        <source>Contraindication</source>
        <translation>금기</translation>
    </message>
    <message>
        <source>Caution</source>
        <translation>주의</translation>
    </message>
</context>
<context>
    <name>ChatPanel</name>
    <message>
        <source>Ask a question (Korean or English). Enter sends, Shift+Enter adds a line.</source>
        <translation>질문을 입력하세요 (한국어 또는 영어). Enter로 보내고 Shift+Enter로 줄을 바꿉니다.</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>보내기</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>중지</translation>
    </message>
    <message>
        <source>General question (no patient selected, nothing is saved)</source>
        <translation>일반 질문 (선택된 환자 없음, 저장되지 않음)</translation>
    </message>
    <message>
        <source>Patient: %1</source>
        <translation>환자: %1</translation>
    </message>
    <message>
        <source>Chartside answers from the local knowledge base and shows its sources. It does not replace a clinical assessment.</source>
        <translation>Chartside는 이 컴퓨터의 지식 베이스를 근거로 답하고 출처를 보여 줍니다. 진료를 대신하지 않습니다.</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>중지하는 중…</translation>
    </message>
    <message>
        <source>Step: %1</source>
        <translation>단계: %1</translation>
    </message>
</context>
<context>
    <name>EngineErrors</name>
    <message>
        <source>Chartside could not complete the request.</source>
        <translation>Chartside가 요청을 처리하지 못했습니다.</translation>
    </message>
    <message>
        <source>The settings file is invalid. Fix it or delete it to restore defaults.</source>
        <translation>설정 파일이 올바르지 않습니다. 고치거나 삭제하면 기본값으로 돌아갑니다.</translation>
    </message>
    <message>
        <source>The language model is not installed or could not be loaded.</source>
        <translation>언어 모델이 설치되지 않았거나 불러오지 못했습니다.</translation>
    </message>
    <message>
        <source>A model file failed its integrity check (sha256). Reinstall the model.</source>
        <translation>모델 파일의 무결성 검사(sha256)에 실패했습니다. 모델을 다시 설치하세요.</translation>
    </message>
    <message>
        <source>The model returned an answer in an unexpected format.</source>
        <translation>모델이 예상하지 못한 형식으로 답했습니다.</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>중지했습니다.</translation>
    </message>
    <message>
        <source>Generation was stopped.</source>
        <translation>답변 생성을 중지했습니다.</translation>
    </message>
    <message>
        <source>Wrong passphrase. Nothing was opened or changed.</source>
        <translation>암호문이 틀렸습니다. 아무것도 열거나 바꾸지 않았습니다.</translation>
    </message>
    <message>
        <source>The encrypted patient store could not be used.</source>
        <translation>암호화된 환자 저장소를 사용할 수 없습니다.</translation>
    </message>
    <message>
        <source>The knowledge base index is missing or out of date; rebuild it.</source>
        <translation>지식 베이스 색인이 없거나 오래되었습니다. 다시 만드세요.</translation>
    </message>
    <message>
        <source>The input could not be processed.</source>
        <translation>입력을 처리하지 못했습니다.</translation>
    </message>
    <message>
        <source>Building the knowledge base was cancelled; nothing partial was kept.</source>
        <translation>지식 베이스 만들기를 취소했습니다. 일부만 만들어진 내용은 남기지 않았습니다.</translation>
    </message>
    <message>
        <source>The clinical concept pack is missing or could not be built; run `chartside clinical build-pack`.</source>
        <translation>임상 개념 팩이 없거나 만들지 못했습니다. `chartside clinical build-pack`을 실행하세요.</translation>
    </message>
    <message>
        <source>The conversation is too long for the model&apos;s context. Start a new session or shorten the question.</source>
        <translation>대화가 모델이 처리할 수 있는 길이를 넘었습니다. 새 대화를 시작하거나 질문을 줄이세요.</translation>
    </message>
    <message>
        <source>The question is too long for the model&apos;s context. Shorten it.</source>
        <translation>질문이 모델이 처리할 수 있는 길이를 넘었습니다. 질문을 줄이세요.</translation>
    </message>
    <message>
        <source>There is no patient store yet. Create one first.</source>
        <translation>아직 환자 저장소가 없습니다. 먼저 만드세요.</translation>
    </message>
    <message>
        <source>No encrypted patient store exists yet.</source>
        <translation>아직 암호화된 환자 저장소가 없습니다.</translation>
    </message>
    <message>
        <source>Unlock the patient store first.</source>
        <translation>먼저 환자 저장소의 잠금을 해제하세요.</translation>
    </message>
    <message>
        <source>The patient store is locked.</source>
        <translation>환자 저장소가 잠겨 있습니다.</translation>
    </message>
    <message>
        <source>The patient store was written by a newer or different Chartside version.</source>
        <translation>환자 저장소가 더 새롭거나 다른 Chartside 버전으로 만들어졌습니다.</translation>
    </message>
    <message>
        <source>The passphrase must not be empty.</source>
        <translation>암호문을 비워 둘 수 없습니다.</translation>
    </message>
    <message>
        <source>The passphrase contains an invalid character.</source>
        <translation>암호문에 쓸 수 없는 문자가 있습니다.</translation>
    </message>
    <message>
        <source>The two passphrases differ.</source>
        <translation>두 암호문이 다릅니다.</translation>
    </message>
    <message>
        <source>That patient does not exist.</source>
        <translation>해당 환자가 없습니다.</translation>
    </message>
    <message>
        <source>That conversation does not exist.</source>
        <translation>해당 대화가 없습니다.</translation>
    </message>
    <message>
        <source>That conversation belongs to another patient.</source>
        <translation>이 대화는 다른 환자의 대화입니다.</translation>
    </message>
    <message>
        <source>Type a question first.</source>
        <translation>먼저 질문을 입력하세요.</translation>
    </message>
    <message>
        <source>The model file was not found.</source>
        <translation>모델 파일을 찾지 못했습니다.</translation>
    </message>
    <message>
        <source>This file is not a GGUF model.</source>
        <translation>이 파일은 GGUF 모델이 아닙니다.</translation>
    </message>
    <message>
        <source>Export format must be JSON, Markdown or PDF.</source>
        <translation>내보내기 형식은 JSON, Markdown, PDF 중 하나여야 합니다.</translation>
    </message>
    <message>
        <source>Export format must be Markdown or PDF.</source>
        <translation>내보내기 형식은 Markdown 또는 PDF여야 합니다.</translation>
    </message>
    <message>
        <source>Export format must be JSON or Markdown.</source>
        <translation>내보내기 형식은 JSON 또는 Markdown이어야 합니다.</translation>
    </message>
    <message>
        <source>These documents look like patient records, so nothing was added: the knowledge base is not encrypted and bundles copy it to other desktops. Remove the lines listed, or override explicitly (recorded in the audit log).</source>
        <translation>이 문서는 환자 기록으로 보여 아무것도 추가하지 않았습니다. 지식 베이스는 암호화되지 않으며 번들로 다른 PC에 복사됩니다. 표시된 줄을 지우거나, 명시적으로 예외를 허용하세요(감사 기록에 남습니다).</translation>
    </message>
    <message>
        <source>Unlock the patient store first: adding documents that look like patient data is recorded in its audit log. Nothing was added.</source>
        <translation>먼저 환자 저장소의 잠금을 해제하세요. 환자 정보로 보이는 문서를 추가하면 그 감사 기록에 남습니다. 아무것도 추가하지 않았습니다.</translation>
    </message>
    <message>
        <source>The knowledge-base bundle was refused. Nothing was changed.</source>
        <translation>지식 베이스 번들을 거부했습니다. 아무것도 바꾸지 않았습니다.</translation>
    </message>
    <message>
        <source>This file is not a Chartside knowledge-base bundle. Nothing was changed.</source>
        <translation>이 파일은 Chartside 지식 베이스 번들이 아닙니다. 아무것도 바꾸지 않았습니다.</translation>
    </message>
    <message>
        <source>This bundle was made by a Chartside version this desktop does not know; update Chartside here, or export the bundle again. Nothing was changed.</source>
        <translation>이 번들은 이 PC가 모르는 Chartside 버전에서 만들어졌습니다. 이 PC의 Chartside를 업데이트하거나 번들을 다시 내보내세요. 아무것도 바꾸지 않았습니다.</translation>
    </message>
    <message>
        <source>The bundle is damaged or was altered: its files do not match their sha256 manifest. Copy or export it again. Nothing was changed.</source>
        <translation>번들이 손상되었거나 변경되었습니다. 파일이 sha256 목록과 맞지 않습니다. 다시 복사하거나 내보내세요. 아무것도 바꾸지 않았습니다.</translation>
    </message>
    <message>
        <source>The bundle was built with another embedding model (or embedding settings) than this desktop uses, so its vectors cannot be searched here. Nothing was changed.</source>
        <translation>이 번들은 이 PC와 다른 임베딩 모델(또는 임베딩 설정)로 만들어져 여기서 벡터를 검색할 수 없습니다. 아무것도 바꾸지 않았습니다.</translation>
    </message>
    <message>
        <source>The bundle was built with other index settings (or another default corpus) than this desktop&apos;s, so it would be rebuilt rather than used. Nothing was changed.</source>
        <translation>이 번들은 이 PC와 다른 색인 설정(또는 다른 기본 자료)으로 만들어져 그대로 쓰이지 않고 다시 만들어지게 됩니다. 아무것도 바꾸지 않았습니다.</translation>
    </message>
    <message>
        <source>Not enough disk space to import the bundle beside the current index. Nothing was changed.</source>
        <translation>현재 색인 옆에 번들을 가져올 디스크 공간이 부족합니다. 아무것도 바꾸지 않았습니다.</translation>
    </message>
    <message>
        <source>The model server&apos;s reply was not understood.</source>
        <translation>모델 서버의 응답을 이해할 수 없습니다.</translation>
    </message>
    <message>
        <source>The model server stopped in the middle of the answer.</source>
        <translation>모델 서버가 답변 도중에 멈췄습니다.</translation>
    </message>
    <message>
        <source>The model server sent a reply that is not valid JSON.</source>
        <translation>모델 서버가 올바른 JSON이 아닌 응답을 보냈습니다.</translation>
    </message>
    <message>
        <source>The model server answered with a redirect, which Chartside does not follow.</source>
        <translation>모델 서버가 리디렉션으로 응답했습니다. Chartside는 리디렉션을 따르지 않습니다.</translation>
    </message>
    <message>
        <source>The model server refused the access token. Set the token again in Settings → Models.</source>
        <translation>모델 서버가 액세스 토큰을 거부했습니다. 설정 → 모델에서 토큰을 다시 설정하세요.</translation>
    </message>
    <message>
        <source>The model server has no such model or address. Check the URL and model name.</source>
        <translation>모델 서버에 해당 모델이나 주소가 없습니다. URL과 모델 이름을 확인하세요.</translation>
    </message>
    <message>
        <source>The model server did not answer in time.</source>
        <translation>모델 서버가 제시간에 응답하지 않았습니다.</translation>
    </message>
    <message>
        <source>The model server&apos;s certificate is not the clinic&apos;s. Nothing was sent.</source>
        <translation>모델 서버의 인증서가 병원의 인증서가 아닙니다. 아무것도 보내지 않았습니다.</translation>
    </message>
    <message>
        <source>The model server cannot be reached.</source>
        <translation>모델 서버에 연결할 수 없습니다.</translation>
    </message>
    <message>
        <source>The bundle file was not found. Nothing was changed.</source>
        <translation>번들 파일을 찾을 수 없습니다. 아무것도 바꾸지 않았습니다.</translation>
    </message>
    <message>
        <source>The folder to export the bundle to does not exist.</source>
        <translation>번들을 내보낼 폴더가 없습니다.</translation>
    </message>
</context>
<context>
    <name>EngineStatus</name>
    <message>
        <source>Preparing the answer…</source>
        <translation>답변을 준비하는 중…</translation>
    </message>
    <message>
        <source>Loading the language model…</source>
        <translation>언어 모델을 불러오는 중…</translation>
    </message>
    <message>
        <source>The language model is unavailable: answering with the alerts and retrieved passages only.</source>
        <translation>언어 모델을 사용할 수 없어 경고와 검색된 문단만으로 답합니다.</translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <source>Something went wrong inside Chartside. Your data was not changed. If this keeps happening, restart the app and tell your administrator.</source>
        <translation>Chartside 내부에서 문제가 생겼습니다. 데이터는 바뀌지 않았습니다. 계속 이러면 앱을 다시 시작하고 관리자에게 알려 주세요.</translation>
    </message>
    <message>
        <source>Chartside</source>
        <translation>Chartside</translation>
    </message>
</context>
<context>
    <name>Export</name>
    <message>
        <source>Export conversation</source>
        <translation>대화 내보내기</translation>
    </message>
    <message>
        <source>Export patient record</source>
        <translation>환자 기록 내보내기</translation>
    </message>
</context>
<context>
    <name>FactEditDialog</name>
    <message>
        <source>Name</source>
        <translation>이름</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>값</translation>
    </message>
    <message>
        <source>Systolic</source>
        <translation>수축기</translation>
    </message>
    <message>
        <source>Diastolic</source>
        <translation>이완기</translation>
    </message>
    <message>
        <source>Unit</source>
        <translation>단위</translation>
    </message>
    <message>
        <source>Dose</source>
        <translation>용량</translation>
    </message>
    <message>
        <source>Frequency</source>
        <translation>복용 횟수</translation>
    </message>
    <message>
        <source>Edit profile entry</source>
        <translation>프로필 항목 수정</translation>
    </message>
    <message>
        <source>Negated (the patient does not have this)</source>
        <translation>부정 (환자에게 해당하지 않음)</translation>
    </message>
    <message>
        <source>The change is recorded in the audit log.</source>
        <translation>변경 내용은 감사 기록에 남습니다.</translation>
    </message>
</context>
<context>
    <name>KnowledgeAttribution</name>
    <message>
        <source>Documents added by this clinic</source>
        <translation>이 병원에서 추가한 문서</translation>
    </message>
</context>
<context>
    <name>KnowledgeBaseDialog</name>
    <message>
        <source>Documents</source>
        <translation>문서</translation>
    </message>
    <message>
        <source>Passages (chunks)</source>
        <translation>문단 (청크)</translation>
    </message>
    <message>
        <source>Built-in documents</source>
        <translation>기본 문서</translation>
    </message>
    <message>
        <source>Your documents</source>
        <translation>추가한 문서</translation>
    </message>
    <message>
        <source>Embedding model</source>
        <translation>임베딩 모델</translation>
    </message>
    <message>
        <source>Knowledge base</source>
        <translation>지식 베이스</translation>
    </message>
    <message>
        <source>State</source>
        <translation>상태</translation>
    </message>
    <message>
        <source>Add files…</source>
        <translation>파일 추가…</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>폴더 추가…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>제거</translation>
    </message>
    <message>
        <source>Rebuild index</source>
        <translation>색인 다시 만들기</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Documents you added:</source>
        <translation>추가한 문서:</translation>
    </message>
    <message>
        <source>Reading…</source>
        <translation>읽는 중…</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>준비됨</translation>
    </message>
    <message>
        <source>Not built yet</source>
        <translation>아직 만들어지지 않음</translation>
    </message>
    <message>
        <source>Add documents</source>
        <translation>문서 추가</translation>
    </message>
    <message>
        <source>Documents (%1)</source>
        <translation>문서 (%1)</translation>
    </message>
    <message>
        <source>Add a folder of documents</source>
        <translation>문서 폴더 추가</translation>
    </message>
    <message>
        <source>Adding documents…</source>
        <translation>문서를 추가하는 중…</translation>
    </message>
    <message>
        <source>Rebuilding the index…</source>
        <translation>색인을 다시 만드는 중…</translation>
    </message>
    <message>
        <source>Stopping after the current document…</source>
        <translation>지금 처리 중인 문서를 마치고 멈춥니다…</translation>
    </message>
    <message>
        <source>about %1 left</source>
        <translation>약 %1 남음</translation>
    </message>
    <message>
        <source>Stopped. What was indexed so far is kept.</source>
        <translation>중지했습니다. 지금까지 색인한 내용은 유지됩니다.</translation>
    </message>
    <message>
        <source>Done.</source>
        <translation>완료했습니다.</translation>
    </message>
    <message>
        <source>resident registration number</source>
        <translation>주민등록번호</translation>
    </message>
    <message>
        <source>phone number</source>
        <translation>전화번호</translation>
    </message>
    <message>
        <source>chart number</source>
        <translation>차트 번호</translation>
    </message>
    <message>
        <source>date of birth</source>
        <translation>생년월일</translation>
    </message>
    <message>
        <source>name beside a date</source>
        <translation>이름과 날짜</translation>
    </message>
    <message>
        <source>Reading documents…</source>
        <translation>문서를 읽는 중…</translation>
    </message>
    <message>
        <source>Splitting documents into passages…</source>
        <translation>문서를 문단으로 나누는 중…</translation>
    </message>
    <message>
        <source>Indexing the passages&apos; words…</source>
        <translation>문단의 단어를 색인하는 중…</translation>
    </message>
    <message>
        <source>Embedding passages…</source>
        <translation>문단을 임베딩하는 중…</translation>
    </message>
    <message>
        <source>Building the search index…</source>
        <translation>검색 색인을 만드는 중…</translation>
    </message>
    <message>
        <source>Writing the bundle…</source>
        <translation>번들을 쓰는 중…</translation>
    </message>
    <message>
        <source>Verifying the bundle…</source>
        <translation>번들을 확인하는 중…</translation>
    </message>
    <message>
        <source>Installing the bundle…</source>
        <translation>번들을 설치하는 중…</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>내보내기…</translation>
    </message>
    <message>
        <source>Import…</source>
        <translation>가져오기…</translation>
    </message>
    <message>
        <source>Write the knowledge base, with your documents, to a bundle file for the clinic&apos;s other desktops.</source>
        <translation>추가한 문서를 포함한 지식 베이스를 병원의 다른 PC용 번들 파일로 저장합니다.</translation>
    </message>
    <message>
        <source>Replace this desktop&apos;s knowledge base by a bundle exported on another desktop. The bundle is verified first.</source>
        <translation>이 PC의 지식 베이스를 다른 PC에서 내보낸 번들로 바꿉니다. 번들은 먼저 검증됩니다.</translation>
    </message>
    <message>
        <source>The knowledge base is not encrypted, and Export copies it to other desktops: add clinic reference documents (protocols, leaflets), never patient records.</source>
        <translation>지식 베이스는 암호화되지 않으며 내보내기로 다른 PC에 복사됩니다. 진료 지침이나 안내문 같은 참고 문서만 추가하고, 환자 기록은 절대 추가하지 마세요.</translation>
    </message>
    <message>
        <source>Add even if a document looks like patient data (recorded in the audit log)</source>
        <translation>환자 정보로 보여도 추가(감사 기록에 남습니다)</translation>
    </message>
    <message>
        <source>Other desktops:</source>
        <translation>다른 PC:</translation>
    </message>
    <message>
        <source>Knowledge base: %1
Shown with every answer that uses it.</source>
        <translation>지식 베이스: %1
이 자료를 사용한 답변마다 함께 표시됩니다.</translation>
    </message>
    <message>
        <source>Export the knowledge base</source>
        <translation>지식 베이스 내보내기</translation>
    </message>
    <message>
        <source>Knowledge-base bundles (%1)</source>
        <translation>지식 베이스 번들 (%1)</translation>
    </message>
    <message>
        <source>Exporting the knowledge base…</source>
        <translation>지식 베이스를 내보내는 중…</translation>
    </message>
    <message>
        <source>Import a knowledge base</source>
        <translation>지식 베이스 가져오기</translation>
    </message>
    <message>
        <source>Replace this desktop&apos;s knowledge base, including the documents added here, by the bundle? It is verified before anything is replaced.</source>
        <translation>이 PC에서 추가한 문서를 포함한 지식 베이스를 번들로 바꿀까요? 바꾸기 전에 먼저 검증합니다.</translation>
    </message>
    <message>
        <source>Verifying and importing the bundle…</source>
        <translation>번들을 검증하고 가져오는 중…</translation>
    </message>
    <message>
        <source>%1: looks like patient data</source>
        <translation>%1: 환자 정보로 보입니다</translation>
    </message>
    <message>
        <source>line %1: %2: %3</source>
        <translation>%1번째 줄: %2: %3</translation>
    </message>
    <message>
        <source>… and %1 more</source>
        <translation>… 외 %1개</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Loading model…</source>
        <translation>모델 불러오는 중…</translation>
    </message>
    <message>
        <source>Opening the knowledge base…</source>
        <translation>지식 베이스 여는 중…</translation>
    </message>
    <message>
        <source>Loading the search model…</source>
        <translation>검색 모델 불러오는 중…</translation>
    </message>
    <message>
        <source>Loading the clinical checks…</source>
        <translation>임상 점검 기능 불러오는 중…</translation>
    </message>
    <message>
        <source>Some services could not be loaded; answers may be limited.</source>
        <translation>일부 기능을 불러오지 못했습니다. 답변이 제한될 수 있습니다.</translation>
    </message>
    <message>
        <source>Lock now</source>
        <translation>지금 잠그기</translation>
    </message>
    <message>
        <source>Export conversation…</source>
        <translation>대화 내보내기…</translation>
    </message>
    <message>
        <source>Export patient record…</source>
        <translation>환자 기록 내보내기…</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>끝내기</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>설정…</translation>
    </message>
    <message>
        <source>Knowledge base…</source>
        <translation>지식 베이스…</translation>
    </message>
    <message>
        <source>About Chartside</source>
        <translation>Chartside 정보</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>파일(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>도구(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>도움말(&amp;H)</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>주 도구 모음</translation>
    </message>
    <message>
        <source>Model: unavailable</source>
        <translation>모델: 사용할 수 없음</translation>
    </message>
    <message>
        <source>Knowledge base: ready</source>
        <translation>지식 베이스: 준비됨</translation>
    </message>
    <message>
        <source>Knowledge base: not built (Tools → Knowledge base)</source>
        <translation>지식 베이스: 아직 없음 (도구 → 지식 베이스)</translation>
    </message>
    <message>
        <source>GPU (%1 layers)</source>
        <translation>GPU (%1개 층)</translation>
    </message>
    <message>
        <source>all</source>
        <translation>전체</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>server %1</source>
        <translation>서버 %1</translation>
    </message>
    <message>
        <source>Model: %1 · %2</source>
        <translation>모델: %1 · %2</translation>
    </message>
    <message>
        <source>this desktop</source>
        <translation>이 컴퓨터</translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>처리 중…</translation>
    </message>
    <message>
        <source>Select a conversation to export.</source>
        <translation>내보낼 대화를 선택하세요.</translation>
    </message>
    <message>
        <source>Select a patient to export.</source>
        <translation>내보낼 환자를 선택하세요.</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1에 저장했습니다</translation>
    </message>
</context>
<context>
    <name>PatientsPanel</name>
    <message>
        <source>Patients</source>
        <translation>환자</translation>
    </message>
    <message>
        <source>Search patients</source>
        <translation>환자 검색</translation>
    </message>
    <message>
        <source>New</source>
        <translation>새 환자</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>이름 바꾸기</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>삭제</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>대화</translation>
    </message>
    <message>
        <source>New conversation</source>
        <translation>새 대화</translation>
    </message>
    <message>
        <source>Rename conversation…</source>
        <translation>대화 이름 바꾸기…</translation>
    </message>
    <message>
        <source>Last change: %1</source>
        <translation>마지막 변경: %1</translation>
    </message>
    <message>
        <source>New patient</source>
        <translation>새 환자</translation>
    </message>
    <message>
        <source>Name or chart number:</source>
        <translation>이름 또는 차트 번호:</translation>
    </message>
    <message>
        <source>Rename patient</source>
        <translation>환자 이름 바꾸기</translation>
    </message>
    <message>
        <source>New name:</source>
        <translation>새 이름:</translation>
    </message>
    <message>
        <source>Delete %1 and all of their conversations and profile? This cannot be undone.</source>
        <translation>%1 환자와 그 환자의 모든 대화와 프로필을 삭제할까요? 되돌릴 수 없습니다.</translation>
    </message>
    <message>
        <source>Delete patient</source>
        <translation>환자 삭제</translation>
    </message>
    <message>
        <source>Rename conversation</source>
        <translation>대화 이름 바꾸기</translation>
    </message>
    <message>
        <source>Title:</source>
        <translation>제목:</translation>
    </message>
</context>
<context>
    <name>PipelineSteps</name>
    <message>
        <source>checking for emergencies and drug alerts</source>
        <translation>응급 징후와 약물 경고 확인</translation>
    </message>
    <message>
        <source>noting the patient&apos;s facts</source>
        <translation>환자 정보 기록</translation>
    </message>
    <message>
        <source>looking for an earlier answer</source>
        <translation>이전 답변 찾기</translation>
    </message>
    <message>
        <source>understanding the question</source>
        <translation>질문 파악</translation>
    </message>
    <message>
        <source>gathering the patient&apos;s context</source>
        <translation>환자 맥락 모으기</translation>
    </message>
    <message>
        <source>searching the knowledge base</source>
        <translation>지식 베이스 검색</translation>
    </message>
    <message>
        <source>writing the answer</source>
        <translation>답변 작성</translation>
    </message>
    <message>
        <source>checking the answer</source>
        <translation>답변 검토</translation>
    </message>
    <message>
        <source>deciding whether to search again</source>
        <translation>다시 검색할지 판단</translation>
    </message>
    <message>
        <source>finishing</source>
        <translation>마무리</translation>
    </message>
</context>
<context>
    <name>ProfilePanel</name>
    <message>
        <source>Allergies</source>
        <translation>알레르기</translation>
    </message>
    <message>
        <source>Contraindications</source>
        <translation>금기</translation>
    </message>
    <message>
        <source>Conditions</source>
        <translation>질환</translation>
    </message>
    <message>
        <source>Medications</source>
        <translation>복용 약</translation>
    </message>
    <message>
        <source>Symptoms</source>
        <translation>증상</translation>
    </message>
    <message>
        <source>Vital signs</source>
        <translation>활력 징후</translation>
    </message>
    <message>
        <source>Laboratory results</source>
        <translation>검사 결과</translation>
    </message>
    <message>
        <source>Age</source>
        <translation>나이</translation>
    </message>
    <message>
        <source>Age group</source>
        <translation>연령대</translation>
    </message>
    <message>
        <source>Sex</source>
        <translation>성별</translation>
    </message>
    <message>
        <source>Pregnant</source>
        <translation>임신</translation>
    </message>
    <message>
        <source>infant</source>
        <translation>영아</translation>
    </message>
    <message>
        <source>child</source>
        <translation>어린이</translation>
    </message>
    <message>
        <source>adolescent</source>
        <translation>청소년</translation>
    </message>
    <message>
        <source>adult</source>
        <translation>성인</translation>
    </message>
    <message>
        <source>older adult</source>
        <translation>노인</translation>
    </message>
    <message>
        <source>active</source>
        <translation>활성</translation>
    </message>
    <message>
        <source>to confirm</source>
        <translation>확인 필요</translation>
    </message>
    <message>
        <source>retracted</source>
        <translation>철회됨</translation>
    </message>
    <message>
        <source>no %1</source>
        <translation>%1 없음</translation>
    </message>
    <message>
        <source>turn %1</source>
        <translation>%1번째 대화</translation>
    </message>
    <message>
        <source>Fact</source>
        <translation>항목</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>값</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>날짜</translation>
    </message>
    <message>
        <source>Said in</source>
        <translation>언급한 곳</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>상태</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>수정…</translation>
    </message>
    <message>
        <source>Retract</source>
        <translation>철회</translation>
    </message>
    <message>
        <source>Select a patient to see the profile.</source>
        <translation>프로필을 보려면 환자를 선택하세요.</translation>
    </message>
    <message>
        <source>Emergency alerts (%1)</source>
        <translation>응급 경보 (%1)</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>중단됨</translation>
    </message>
    <message>
        <source>shown</source>
        <translation>표시됨</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>예</translation>
    </message>
    <message>
        <source>no</source>
        <translation>아니요</translation>
    </message>
    <message>
        <source>female</source>
        <translation>여성</translation>
    </message>
    <message>
        <source>male</source>
        <translation>남성</translation>
    </message>
    <message>
        <source>%1s</source>
        <translation>%1대</translation>
    </message>
    <message>
        <source>No demographics recorded yet.</source>
        <translation>아직 기록된 인적 정보가 없습니다.</translation>
    </message>
    <message>
        <source>Please confirm: the patient mentioned these. Alerts already use them.</source>
        <translation>확인해 주세요: 환자가 언급한 내용입니다. 경고에는 이미 반영됩니다.</translation>
    </message>
    <message>
        <source>Confirm</source>
        <translation>확인</translation>
    </message>
    <message>
        <source>Reject</source>
        <translation>거부</translation>
    </message>
    <message>
        <source>Retract “%1” from the profile? It stays in the audit log.</source>
        <translation>프로필에서 “%1” 항목을 철회할까요? 감사 기록에는 남습니다.</translation>
    </message>
    <message>
        <source>Retract fact</source>
        <translation>항목 철회</translation>
    </message>
</context>
<context>
    <name>Prompts</name>
    <message>
        <source>OK</source>
        <translation>확인</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation>다음에서 찾기(&amp;L):</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>파일 형식(&amp;T):</translation>
    </message>
</context>
<context>
    <name>RemoteServerBox</name>
    <message>
        <source>Answers</source>
        <translation>답변</translation>
    </message>
    <message>
        <source>Question triage</source>
        <translation>질문 분류</translation>
    </message>
    <message>
        <source>Answer checking</source>
        <translation>답변 검토</translation>
    </message>
    <message>
        <source>Summaries</source>
        <translation>요약</translation>
    </message>
    <message>
        <source>Patient data leaves this desktop: for the roles chosen here, each prompt crosses the clinic network to the server — the question, the patient&apos;s profile summary (allergies, medications, conditions, recent vitals), recent conversation turns and the retrieved passages. Use only a server inside the clinic, with TLS.</source>
        <translation>환자 정보가 이 컴퓨터 밖으로 나갑니다. 여기서 고른 역할의 프롬프트는 병원 네트워크를 거쳐 서버로 전송됩니다. 질문, 환자 프로필 요약(알레르기, 복용 약, 질환, 최근 활력 징후), 최근 대화, 검색된 문서가 포함됩니다. 병원 안에 있는 서버만, TLS로 연결해 사용하세요.</translation>
    </message>
    <message>
        <source>Model server on the clinic network</source>
        <translation>병원 네트워크의 모델 서버</translation>
    </message>
    <message>
        <source>Use a model server for some roles</source>
        <translation>일부 역할에 모델 서버 사용</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>선택…</translation>
    </message>
    <message>
        <source>Answer on this desktop when the server fails</source>
        <translation>서버에 문제가 있으면 이 컴퓨터에서 답변</translation>
    </message>
    <message>
        <source>Keep the token in the vault</source>
        <translation>토큰을 암호화 저장소에 보관</translation>
    </message>
    <message>
        <source>Test the connection</source>
        <translation>연결 시험</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>주소</translation>
    </message>
    <message>
        <source>Server software</source>
        <translation>서버 소프트웨어</translation>
    </message>
    <message>
        <source>Model name on the server</source>
        <translation>서버의 모델 이름</translation>
    </message>
    <message>
        <source>Roles on the server</source>
        <translation>서버가 맡을 역할</translation>
    </message>
    <message>
        <source>Certificate sha256 pin</source>
        <translation>인증서 sha256 고정값</translation>
    </message>
    <message>
        <source>Clinic CA file</source>
        <translation>병원 CA 파일</translation>
    </message>
    <message>
        <source>Longest silence</source>
        <translation>최대 무응답 시간</translation>
    </message>
    <message>
        <source>Access token</source>
        <translation>접근 토큰</translation>
    </message>
    <message>
        <source>Unlock the patient store to set the token</source>
        <translation>토큰을 설정하려면 환자 저장소를 잠금 해제하세요</translation>
    </message>
    <message>
        <source>Choose the clinic CA certificate</source>
        <translation>병원 CA 인증서 선택</translation>
    </message>
    <message>
        <source>Certificates (*.pem *.crt)</source>
        <translation>인증서 (*.pem *.crt)</translation>
    </message>
    <message>
        <source>The token is kept in the vault.</source>
        <translation>토큰을 암호화 저장소에 보관했습니다.</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>연결 중…</translation>
    </message>
    <message>
        <source>Reached %1 in %2 ms.</source>
        <translation>%1에 %2ms 만에 연결했습니다.</translation>
    </message>
    <message>
        <source>The server does not offer this model name.</source>
        <translation>서버에 이 이름의 모델이 없습니다.</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Answers</source>
        <translation>답변</translation>
    </message>
    <message>
        <source>Question triage (complexity)</source>
        <translation>질문 분류 (복잡도)</translation>
    </message>
    <message>
        <source>Answer checking (judge)</source>
        <translation>답변 검증 (평가)</translation>
    </message>
    <message>
        <source>Conversation summaries</source>
        <translation>대화 요약</translation>
    </message>
    <message>
        <source>Reuse answers to the same question (cache)</source>
        <translation>같은 질문에는 이전 답변 재사용 (캐시)</translation>
    </message>
    <message>
        <source>Decide per question whether to search</source>
        <translation>질문마다 검색 여부 판단</translation>
    </message>
    <message>
        <source>Extract clinical facts from messages</source>
        <translation>메시지에서 임상 정보 추출</translation>
    </message>
    <message>
        <source>Keep a patient profile</source>
        <translation>환자 프로필 유지</translation>
    </message>
    <message>
        <source>Summarise long conversations</source>
        <translation>긴 대화 요약</translation>
    </message>
    <message>
        <source>Use the profile in searches</source>
        <translation>검색에 프로필 반영</translation>
    </message>
    <message>
        <source>Expand searches with synonyms and Korean terms</source>
        <translation>동의어와 한국어 용어로 검색 확장</translation>
    </message>
    <message>
        <source>Keyword search (BM25)</source>
        <translation>키워드 검색 (BM25)</translation>
    </message>
    <message>
        <source>Meaning search (embeddings)</source>
        <translation>의미 검색 (임베딩)</translation>
    </message>
    <message>
        <source>Shorten long documents to fit</source>
        <translation>긴 문서를 줄여서 넣기</translation>
    </message>
    <message>
        <source>Check answers and search again when weak</source>
        <translation>답변을 검증하고 부족하면 다시 검색</translation>
    </message>
    <message>
        <source>Rule-based checking for small models</source>
        <translation>작은 모델에는 규칙 기반 검증</translation>
    </message>
    <message>
        <source>Emergency warnings</source>
        <translation>응급 경고</translation>
    </message>
    <message>
        <source>Allergy and interaction warnings</source>
        <translation>알레르기 및 상호작용 경고</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>설정</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>모델</translation>
    </message>
    <message>
        <source>Performance</source>
        <translation>성능</translation>
    </message>
    <message>
        <source>Features</source>
        <translation>기능</translation>
    </message>
    <message>
        <source>General</source>
        <translation>일반</translation>
    </message>
    <message>
        <source>Search embeddings</source>
        <translation>검색 임베딩</translation>
    </message>
    <message>
        <source>Add a GGUF model file…</source>
        <translation>GGUF 모델 파일 추가…</translation>
    </message>
    <message>
        <source>Every model file is checked against its sha256 before it is used. Models never download anything.</source>
        <translation>모든 모델 파일은 사용하기 전에 sha256으로 검증합니다. 모델은 아무것도 내려받지 않습니다.</translation>
    </message>
    <message>
        <source>automatic</source>
        <translation>자동</translation>
    </message>
    <message>
        <source>all layers</source>
        <translation>모든 층</translation>
    </message>
    <message>
        <source>Detecting…</source>
        <translation>확인하는 중…</translation>
    </message>
    <message>
        <source>CPU threads</source>
        <translation>CPU 스레드</translation>
    </message>
    <message>
        <source>GPU layers (0 = CPU only)</source>
        <translation>GPU 층 수 (0 = CPU만 사용)</translation>
    </message>
    <message>
        <source>Context size (tokens)</source>
        <translation>컨텍스트 크기 (토큰)</translation>
    </message>
    <message>
        <source>Longest answer (tokens)</source>
        <translation>최대 답변 길이 (토큰)</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>장치</translation>
    </message>
    <message>
        <source>Full assistant (agent)</source>
        <translation>전체 도우미 (에이전트)</translation>
    </message>
    <message>
        <source>Plain chat with the model (llm)</source>
        <translation>모델과 단순 대화 (LLM)</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>모드</translation>
    </message>
    <message>
        <source>Thresholds</source>
        <translation>기준값</translation>
    </message>
    <message>
        <source>Cache similarity</source>
        <translation>캐시 유사도</translation>
    </message>
    <message>
        <source>Minimum answer quality</source>
        <translation>최소 답변 품질</translation>
    </message>
    <message>
        <source>Most refine rounds</source>
        <translation>최대 보완 횟수</translation>
    </message>
    <message>
        <source>Token budget per turn</source>
        <translation>대화당 토큰 예산</translation>
    </message>
    <message>
        <source>never</source>
        <translation>사용 안 함</translation>
    </message>
    <message>
        <source> min</source>
        <translation>분</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>언어</translation>
    </message>
    <message>
        <source>Lock after idle</source>
        <translation>미사용 시 잠금</translation>
    </message>
    <message>
        <source>not verified</source>
        <translation>검증 안 됨</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>없음</translation>
    </message>
    <message>
        <source>GPU offload available: %1</source>
        <translation>GPU 가속 사용 가능: %1</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>예</translation>
    </message>
    <message>
        <source>no</source>
        <translation>아니요</translation>
    </message>
    <message>
        <source>Answer model: %1</source>
        <translation>답변 모델: %1</translation>
    </message>
    <message>
        <source>Choose a GGUF model</source>
        <translation>GGUF 모델 선택</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf)</source>
        <translation>GGUF 모델 (*.gguf)</translation>
    </message>
    <message>
        <source>Checking the model file…</source>
        <translation>모델 파일을 검증하는 중…</translation>
    </message>
    <message>
        <source>Added %1.</source>
        <translation>%1을(를) 추가했습니다.</translation>
    </message>
</context>
<context>
    <name>SourceCard</name>
    <message>
        <source>Show the whole passage</source>
        <translation>문단 전체 보기</translation>
    </message>
    <message>
        <source>Show less</source>
        <translation>접기</translation>
    </message>
    <message>
        <source>Focus</source>
        <translation>주제</translation>
    </message>
    <message>
        <source>Relevance score</source>
        <translation>관련도 점수</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>라이선스</translation>
    </message>
</context>
<context>
    <name>SourcesPanel</name>
    <message>
        <source>No sources for this answer.</source>
        <translation>이 답변에는 출처가 없습니다.</translation>
    </message>
    <message>
        <source>Knowledge base: %1</source>
        <translation>지식 베이스: %1</translation>
    </message>
</context>
<context>
    <name>SupportCheck</name>
    <message>
        <source>no passages</source>
        <translation>검색된 문단이 없음</translation>
    </message>
    <message>
        <source>no concept to compare across languages</source>
        <translation>언어가 달라 비교할 개념이 없음</translation>
    </message>
    <message>
        <source>negation differs from the source</source>
        <translation>부정 표현이 출처와 다름</translation>
    </message>
    <message>
        <source>too few of its words are in the source</source>
        <translation>문장의 단어가 출처에 너무 적음</translation>
    </message>
    <message>
        <source>below the support threshold</source>
        <translation>뒷받침 점수가 기준 미만</translation>
    </message>
    <message>
        <source>no matching sentence</source>
        <translation>일치하는 출처 문장이 없음</translation>
    </message>
    <message>
        <source>number %1 not in the source</source>
        <translation>숫자 %1이(가) 출처에 없음</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not in the source</source>
        <translation>&apos;%1&apos;이(가) 출처에 없음</translation>
    </message>
</context>
<context>
    <name>TracePanel</name>
    <message>
        <source>Step</source>
        <translation>단계</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>모드</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>모델</translation>
    </message>
    <message>
        <source>Cache hit</source>
        <translation>캐시 적중</translation>
    </message>
    <message>
        <source>Complexity</source>
        <translation>복잡도</translation>
    </message>
    <message>
        <source>Searched for</source>
        <translation>검색어</translation>
    </message>
    <message>
        <source>Documents (k)</source>
        <translation>문서 수 (k)</translation>
    </message>
    <message>
        <source>Refine iterations</source>
        <translation>보완 반복</translation>
    </message>
    <message>
        <source>Quality score</source>
        <translation>품질 점수</translation>
    </message>
    <message>
        <source>Judge</source>
        <translation>평가</translation>
    </message>
    <message>
        <source>Total time (ms)</source>
        <translation>전체 시간 (ms)</translation>
    </message>
    <message>
        <source>Tokens / budget</source>
        <translation>토큰 / 예산</translation>
    </message>
    <message>
        <source>This answer</source>
        <translation>이 답변</translation>
    </message>
    <message>
        <source>Support check</source>
        <translation>근거 확인</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>횟수</translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation>처리 흐름</translation>
    </message>
    <message>
        <source>Graph (Mermaid):</source>
        <translation>그래프 (Mermaid):</translation>
    </message>
    <message>
        <source>%1 prompt + %2 answer of %3</source>
        <translation>프롬프트 %1 + 답변 %2 / %3</translation>
    </message>
    <message>
        <source>%1 of %2 sentences backed by a source</source>
        <translation>%2문장 중 %1문장이 출처로 뒷받침됨</translation>
    </message>
    <message numerus="yes">
        <source>%n left out of the answer:</source>
        <translation>
            <numerusform>%n문장은 답변에서 뺌:</numerusform>
        </translation>
    </message>
    <message>
        <source>best match %1</source>
        <translation>최고 일치도 %1</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more (point at this list to see them all).</source>
        <translation>
            <numerusform>… 외 %n문장 (목록에 마우스를 올리면 모두 보입니다).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TraceValues</name>
    <message>
        <source>agent</source>
        <translation>에이전트</translation>
    </message>
    <message>
        <source>plain model (llm)</source>
        <translation>모델 단독 (llm)</translation>
    </message>
    <message>
        <source>simple</source>
        <translation>단순</translation>
    </message>
    <message>
        <source>moderate</source>
        <translation>보통</translation>
    </message>
    <message>
        <source>complex</source>
        <translation>복잡</translation>
    </message>
    <message>
        <source>grounding</source>
        <translation>근거성</translation>
    </message>
    <message>
        <source>completeness</source>
        <translation>완전성</translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation>정확성</translation>
    </message>
    <message>
        <source>overall</source>
        <translation>종합</translation>
    </message>
</context>
<context>
    <name>TurnView</name>
    <message>
        <source>Copy</source>
        <translation>복사</translation>
    </message>
    <message>
        <source>Searching the sources and preparing the answer… %1 s</source>
        <translation>자료를 찾고 답변을 준비하는 중… %1초</translation>
    </message>
    <message numerus="yes">
        <source>Writing: %n tokens so far</source>
        <translation>
            <numerusform>작성 중: 지금까지 %n토큰</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 tokens/s</source>
        <translation>초당 %1토큰</translation>
    </message>
    <message>
        <source>at most about %1 s left</source>
        <translation>남은 시간 최대 약 %1초</translation>
    </message>
    <message numerus="yes">
        <source>Sentences left out of this answer because no source supported them: %n (see the Trace tab).</source>
        <translation>
            <numerusform>출처로 뒷받침되지 않아 이 답변에서 뺀 문장: %n개 (추적 탭 참고).</numerusform>
        </translation>
    </message>
    <message>
        <source>Some statements could not be matched to a source: check them.</source>
        <translation>일부 내용은 출처와 일치하는 문장을 찾지 못했습니다. 직접 확인하세요.</translation>
    </message>
    <message>
        <source>No statement of this answer was checked against a source: check them.</source>
        <translation>이 답변의 어떤 내용도 출처와 대조하지 않았습니다. 직접 확인하세요.</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>중지됨.</translation>
    </message>
    <message>
        <source>From the answer cache.</source>
        <translation>캐시된 답변입니다.</translation>
    </message>
    <message>
        <source>this desktop</source>
        <translation>이 컴퓨터</translation>
    </message>
    <message>
        <source>Answered by %1 on %2.</source>
        <translation>%2의 %1 모델이 답했습니다.</translation>
    </message>
    <message numerus="yes">
        <source>%n tokens in %1 s.</source>
        <translation>
            <numerusform>%1초 동안 %n토큰.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>UnlockPage</name>
    <message>
        <source>Create the patient store</source>
        <translation>환자 저장소 만들기</translation>
    </message>
    <message>
        <source>Chartside keeps patient profiles and conversations in an encrypted store on this computer. Choose a passphrase to protect it.</source>
        <translation>Chartside는 환자 프로필과 대화를 이 컴퓨터의 암호화된 저장소에 보관합니다. 저장소를 보호할 암호문을 정하세요.</translation>
    </message>
    <message>
        <source>Create store</source>
        <translation>저장소 만들기</translation>
    </message>
    <message>
        <source>Unlock Chartside</source>
        <translation>Chartside 잠금 해제</translation>
    </message>
    <message>
        <source>Enter the passphrase of the patient store on this computer.</source>
        <translation>이 컴퓨터에 있는 환자 저장소의 암호문을 입력하세요.</translation>
    </message>
    <message>
        <source>Unlock</source>
        <translation>잠금 해제</translation>
    </message>
    <message>
        <source>Passphrase</source>
        <translation>암호문</translation>
    </message>
    <message>
        <source>Repeat passphrase</source>
        <translation>암호문 확인</translation>
    </message>
    <message>
        <source>Write the passphrase down and keep it safe. If it is lost, the patient data cannot be recovered by anyone, including the Chartside team.</source>
        <translation>암호문을 적어 안전한 곳에 보관하세요. 암호문을 잃어버리면 Chartside 팀을 포함해 누구도 환자 데이터를 복구할 수 없습니다.</translation>
    </message>
    <message numerus="yes">
        <source>Weak: use at least %n characters, or several unrelated words.</source>
        <translation>
            <numerusform>약함: %n자 이상이나 서로 관계없는 단어 여러 개를 쓰세요.</numerusform>
        </translation>
    </message>
    <message>
        <source>Fair: longer is better.</source>
        <translation>보통: 더 길수록 좋습니다.</translation>
    </message>
    <message>
        <source>Good.</source>
        <translation>좋음.</translation>
    </message>
    <message>
        <source>Strong.</source>
        <translation>강함.</translation>
    </message>
    <message>
        <source>Enter the passphrase.</source>
        <translation>암호문을 입력하세요.</translation>
    </message>
    <message numerus="yes">
        <source>The passphrase needs at least %n characters.</source>
        <translation>
            <numerusform>암호문은 %n자 이상이어야 합니다.</numerusform>
        </translation>
    </message>
    <message>
        <source>The two passphrases do not match.</source>
        <translation>두 암호문이 다릅니다.</translation>
    </message>
    <message>
        <source>Opening…</source>
        <translation>여는 중…</translation>
    </message>
</context>
<context>
    <name>Workspace</name>
    <message>
        <source>Sources</source>
        <translation>출처</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>프로필</translation>
    </message>
    <message>
        <source>Trace</source>
        <translation>추적</translation>
    </message>
</context>
</TS>
