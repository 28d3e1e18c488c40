"""Documents of the knowledge base: the default corpus from ../shared/data, and user files.

Default corpus = MedQuAD records that have an answer (`medquad.jsonl.gz`) plus the LiveQA
judged answers (`liveqa_judged_answers.jsonl.gz`). Stable ids, as ../shared/data/README.md
defines them:
- MedQuAD: `f"{collection}/{qid}"`. MedQuAD itself uses 8 ids (1_CancerGov_QA
  0000013_2-*, 0000013_3-*) for 42 different questions; the first keeps the id, later ones
  get `~2`, `~3`, ... in file order so every document id stays unique and stable.
- Judged answers: the `answer_id` as given. A judged answer that is the same text as a
  MedQuAD document (same question, same answer opening) is not stored twice: the MedQuAD
  document carries it in `aliases`, and benchmarks map judgments through aliases.

Every document keeps its source URL and the licence/attribution (CC BY 4.0).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from engine.errors import InputError, KnowledgeIndexError
from engine.paths import shared_data_dir

MEDQUAD_FILE = "medquad.jsonl.gz"
JUDGED_FILE = "liveqa_judged_answers.jsonl.gz"
CORPUS_CODE_VERSION = "default-1"  # bump when the way documents are derived changes

MEDQUAD_LICENCE = "CC BY 4.0"
MEDQUAD_ATTRIBUTION = (
    "MedQuAD (Ben Abacha & Demner-Fushman, \"A question-entailment approach to question "
    "answering\", BMC Bioinformatics 2019), from NIH websites; licensed CC BY 4.0."
)
USER_FILE_SUFFIXES = (".txt", ".md", ".markdown", ".pdf")
# A knowledge base's attribution: its sources' attributions joined by ATTRIBUTION_SEPARATOR,
# the documents a clinic added noted as CLINIC_DOCUMENTS (each of them carries its own
# "Added by this clinic from <file>").
ATTRIBUTION_SEPARATOR = " · "
CLINIC_DOCUMENTS = "Documents added by this clinic"


@dataclass
class Document:
    doc_id: str
    title: str
    text: str
    source: str = ""
    url: str = ""
    licence: str = ""
    attribution: str = ""
    origin: str = "default"  # "default" (MedQuAD / LiveQA) or "user"
    path: str = ""  # user files: where it was added from
    aliases: list[str] = field(default_factory=list)

    @property
    def content_hash(self) -> str:
        digest = hashlib.sha256()
        for part in (self.title, "\0", self.text):
            digest.update(part.encode("utf-8"))
        return digest.hexdigest()


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


# A MedQuAD document's title is its question, then its focus's other names:
# "What is (are) Croup ? (Also called: Spasmodic croup; Viral croup)".
ALSO_CALLED = " (Also called:"


def _medquad_title(record: dict) -> str:
    title = record["question"].strip()
    synonyms = [s for s in record.get("synonyms") or [] if s]
    if synonyms:
        title += f"{ALSO_CALLED} {'; '.join(synonyms)})"
    return title


def title_question(title: str) -> str:
    """A title without its "(Also called: …)" part: the document's question."""
    return title.partition(ALSO_CALLED)[0]


def _parse_judged(text: str) -> tuple[str, str, str]:
    """Judged answers look like 'Question: ...\\nURL: ...\\nAnswer: ...'."""
    title, url, body = "", "", text
    head, sep, rest = text.partition("\nAnswer:")
    if sep:
        body = rest.strip()
        for line in head.splitlines():
            if line.startswith("Question:"):
                title = line[len("Question:") :].strip()
            elif line.startswith("URL:"):
                url = line[len("URL:") :].strip()
    return title, url, body


def _dedupe_key(title: str, answer: str) -> str:
    question = title_question(title)
    return _norm(answer)[:200] + "|" + _norm(question)[:40]


def source_files(data_dir: Path | None = None) -> list[Path]:
    data_dir = data_dir or shared_data_dir()
    return [data_dir / MEDQUAD_FILE, data_dir / JUDGED_FILE]


def corpus_fingerprint(data_dir: Path | None = None) -> str:
    """Identifies the default corpus: the source files' contents and this module's rules."""
    digest = hashlib.sha256(CORPUS_CODE_VERSION.encode())
    for path in source_files(data_dir):
        if not path.exists():
            raise KnowledgeIndexError(
                f"default knowledge source {path} is missing (set CHARTSIDE_SHARED_DATA)"
            )
        stat = path.stat()
        digest.update(f"{path.name}:{stat.st_size}:".encode())
        with open(path, "rb") as handle:
            while block := handle.read(1 << 20):
                digest.update(block)
    return f"{CORPUS_CODE_VERSION}:{digest.hexdigest()[:16]}"


def load_default_documents(data_dir: Path | None = None) -> list[Document]:
    """All default documents, MedQuAD first, in a stable order."""
    medquad, judged = source_files(data_dir)
    docs: list[Document] = []
    by_key: dict[str, Document] = {}
    seen: dict[str, int] = {}
    with gzip.open(medquad, "rt", encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            if not record.get("answer", "").strip():
                continue
            base = f"{record['collection']}/{record['qid']}"
            seen[base] = seen.get(base, 0) + 1
            doc_id = base if seen[base] == 1 else f"{base}~{seen[base]}"
            doc = Document(
                doc_id=doc_id,
                title=_medquad_title(record),
                text=record["answer"],
                source=f"MedQuAD {record.get('source', '')}".strip(),
                url=record.get("url", ""),
                licence=MEDQUAD_LICENCE,
                attribution=MEDQUAD_ATTRIBUTION,
            )
            docs.append(doc)
            by_key.setdefault(_dedupe_key(doc.title, doc.text), doc)
    judged_ids: set[str] = set()
    with gzip.open(judged, "rt", encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            if record["answer_id"] in judged_ids:  # one answer judged for several questions
                continue
            judged_ids.add(record["answer_id"])
            title, url, body = _parse_judged(record["text"])
            if not body:
                continue
            twin = by_key.get(_dedupe_key(title, body))
            if twin is not None:
                twin.aliases.append(record["answer_id"])
                continue
            docs.append(
                Document(
                    doc_id=record["answer_id"],
                    title=title,
                    text=body,
                    source="MedQuAD (LiveQA judged answer) " + record["answer_id"].split("_")[0],
                    url=url,
                    licence=MEDQUAD_LICENCE,
                    attribution=MEDQUAD_ATTRIBUTION,
                )
            )
    return docs


# --- user files -------------------------------------------------------------------------


def read_user_file(path: Path) -> Document:
    """A txt/md/pdf file as a user document (id `user:<sha256 of the path>`)."""
    path = Path(path).resolve()
    suffix = path.suffix.lower()
    if suffix not in USER_FILE_SUFFIXES:
        raise InputError(f"{path.name}: only {', '.join(USER_FILE_SUFFIXES)} files can be added")
    try:
        if suffix == ".pdf":
            text = _read_pdf(path)
        else:
            text = decode_text_file(path.read_bytes(), path.name)
    except OSError as exc:
        raise InputError(f"{path}: {exc}") from exc
    title = path.stem.replace("_", " ")
    if suffix in (".md", ".markdown"):
        heading = re.search(r"^#\s+(.+)$", text, flags=re.MULTILINE)
        if heading:
            title = heading.group(1).strip()
        text = re.sub(r"^#{1,6}\s*", "", text, flags=re.MULTILINE)
    if not text.strip():
        raise InputError(f"{path.name}: no text could be read from this file")
    return Document(
        doc_id=user_doc_id(path),
        title=title,
        text=text,
        source="user file",
        url=path.as_uri(),
        licence="clinic document",
        attribution=f"Added by this clinic from {path.name}",
        origin="user",
        path=str(path),
    )


# Korean clinics keep older files in CP949 (EUC-KR); UTF-16 files carry a byte-order mark.
TEXT_ENCODINGS = ("utf-8-sig", "cp949")
BINARY_CONTROL_SHARE = 0.01


def decode_text_file(raw: bytes, name: str) -> str:
    """The text of a .txt/.md file: UTF-8 (or UTF-16 with a BOM, or CP949), else UTF-8 with
    replacement characters. A file that is not text (NUL bytes, many control characters:
    an image or a program renamed .txt) raises InputError instead of being indexed."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return raw.decode("utf-16", errors="replace")
    if b"\x00" in raw:
        raise InputError(f"{name}: binary content (NUL bytes)",
                         user_message=f"{name} is not a text file and was not added.")
    for encoding in TEXT_ENCODINGS:
        try:
            text = raw.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    else:
        text = raw.decode("utf-8", errors="replace")
    controls = sum(1 for ch in text if ord(ch) < 32 and ch not in "\t\n\r\f")
    if text and controls / len(text) > BINARY_CONTROL_SHARE:
        raise InputError(f"{name}: {controls} control characters in {len(text)}",
                         user_message=f"{name} is not a text file and was not added.")
    return text


def user_doc_id(path: Path) -> str:
    return "user:" + hashlib.sha256(str(Path(path).resolve()).encode()).hexdigest()[:16]


def _read_pdf(path: Path) -> str:
    from pypdf import PdfReader

    reader = PdfReader(str(path))
    return "\n\n".join((page.extract_text() or "") for page in reader.pages)


def expand_paths(paths: list[Path]) -> Iterator[Path]:
    """Files named, and supported files inside named folders (recursively, sorted)."""
    for path in paths:
        path = Path(path)
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                if child.is_file() and child.suffix.lower() in USER_FILE_SUFFIXES:
                    yield child
        else:
            yield path
