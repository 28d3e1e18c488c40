"""MedCAT components that let the stock vocabulary NER read Korean (and English faster).

MedCAT's regex tokenizer keeps a Hangul word as one token with its particles attached
("당뇨병이"), and the stock tagger marks every token without a-z/0-9 as punctuation, so
Korean names never match. Here every Hangul syllable is its own token, so a name such as
"당뇨병" (tokens 당~뇨~병) matches inside "당뇨병이" or "당뇨 병" and MedCAT's own
longest-prefix walk stops at the particle.

The stock tokenizer also finds an entity's first token with `list.index`, which is
quadratic in the length of a note; entities here are built from token positions.

`register()` must run before a pack is built or loaded: MedCAT looks the components up
by the names stored in the pack's config.
"""

from __future__ import annotations

import logging
import platform
import re
from bisect import bisect_left
from typing import Optional, Type

from medcat.cdb import CDB
from medcat.components.types import AbstractCoreComponent, CoreComponentType, register_core_component
from medcat.config import Config
from medcat.config.config import ComponentConfig
from medcat.tokenizing.regex_impl.tokenizer import Document, Entity, Token, _entity_from_tokens
from medcat.tokenizing.tokenizers import BaseTokenizer, register_tokenizer
from medcat.tokenizing.tokens import MutableDocument, MutableEntity, MutableToken
from medcat.utils.registry import MedCATRegistryException
from medcat.vocab import Vocab

from engine.text import HANGUL_SYLLABLE, concept_stem

TOKENIZER_NAME = "chartside_hangul"
TAGGER_NAME = "chartside_hangul_tagger"

TOKEN_PATTERN = re.compile(
    rf"([{HANGUL_SYLLABLE}]|[A-Za-z]+|[0-9]+|[^\s{HANGUL_SYLLABLE}A-Za-z0-9])(\s*)"
)
_WORDLIKE = re.compile(rf"[{HANGUL_SYLLABLE}A-Za-z0-9]")

# Whole Korean words that only intensify or hedge ("머리가 너무 아파요"): skipped so that
# a lay phrase still matches with them in between. They must not occur inside lexicon
# terms (a skipped word cannot be part of a name).
KOREAN_FILLERS = (
    "너무", "좀", "조금", "많이", "계속", "자꾸", "심하게", "아주", "매우", "살짝", "약간",
    "진짜", "정말", "엄청", "되게", "가끔", "요즘", "갑자기", "꽤", "좀더", "너무너무", "쫌",
    "넘", "완전", "며칠째", "계속해서", "점점", "한번씩", "많이요", "좀처럼", "전혀",
)
# Frequency words are skipped too, except before the few predicates where frequency is
# the finding itself ("소변을 자주 봐요" = frequent urination, "코가 자주 막혀요" = congestion,
# "자주 넘어지세요" = falls, not one fall).
KOREAN_FREQUENCY_WORDS = ("자주", "항상", "늘", "또", "다시", "아직", "매일", "종종", "이따금", "가끔씩", "맨날", "계속")
_FREQUENCY_PATTERN = re.compile(
    rf"(?<![{HANGUL_SYLLABLE}])(?:{'|'.join(KOREAN_FREQUENCY_WORDS)})(?![{HANGUL_SYLLABLE}])"
    rf"(?!\s+(?:봐|보|본|볼|가|갈|간|마려|마렵|소변|오줌|화장실|깨|싸|넘어지))"
)
_FILLER_PATTERN = re.compile(
    rf"(?<![{HANGUL_SYLLABLE}])(?:{'|'.join(sorted(map(re.escape, KOREAN_FILLERS), key=len, reverse=True))})(?![{HANGUL_SYLLABLE}])"
    r"(?!\s+넘어지)"
)


class HangulToken(Token):
    """A regex-tokenizer token whose normalised form can be set (spell fixes, stems)."""

    def __init__(self, *args, **kwargs) -> None:
        self._norm: Optional[str] = None
        super().__init__(*args, **kwargs)

    @property
    def norm(self) -> str:
        return self._norm if self._norm else self.lower

    @norm.setter
    def norm(self, new_val: str) -> None:
        self._norm = new_val or None

    @property
    def lemma(self) -> str:
        return concept_stem(self.lower)

    @property
    def text_versions(self) -> list[str]:
        norm, lower = self.norm, self.lower
        return [norm] if norm == lower else [norm, lower]


class HangulTokenizer(BaseTokenizer):
    """Hangul syllables, Latin words, digit runs and single punctuation marks as tokens."""

    def __call__(self, text: str) -> MutableDocument:
        doc = Document(text)
        tokens = doc._tokens
        for index, match in enumerate(TOKEN_PATTERN.finditer(text)):
            start = match.start()
            tokens.append(HangulToken(doc, match.group(1), match.group(0), start, index, False, False))
            doc._char_indices.append(start)
        return doc

    def create_entity(self, doc: MutableDocument, token_start_index: int, token_end_index: int,
                      label: str) -> MutableEntity:
        rdoc: Document = doc  # type: ignore[assignment]
        tokens = rdoc._tokens[token_start_index:token_end_index]
        return _entity_from_tokens(rdoc, tokens, token_start_index, token_end_index)

    def entity_from_tokens(self, tokens: list[MutableToken]) -> MutableEntity:
        if not tokens:
            raise ValueError("Need at least one token for an entity")
        first: HangulToken = tokens[0]  # type: ignore[assignment]
        return _entity_from_tokens(first._doc, tokens, first.index, tokens[-1].base.index + 1)

    def entity_from_tokens_in_doc(self, tokens: list[MutableToken], doc: MutableDocument) -> MutableEntity:
        return self.entity_from_tokens(tokens)

    @classmethod
    def create_new_tokenizer(cls, config: Config) -> "HangulTokenizer":
        return cls()

    def get_doc_class(self) -> Type[MutableDocument]:
        return Document

    def get_entity_class(self) -> Type[MutableEntity]:
        return Entity


class HangulTagger(AbstractCoreComponent):
    """Marks punctuation and filler words as skippable; Hangul counts as text."""

    name = TAGGER_NAME

    def __init__(self, words_to_skip: set[str], keep_punct: set[str]) -> None:
        self.words_to_skip = {w.lower() for w in words_to_skip}
        self.keep_punct = set(keep_punct)

    def get_type(self) -> CoreComponentType:
        return CoreComponentType.tagging

    def __call__(self, doc: MutableDocument) -> MutableDocument:
        for token in doc:
            text = token.base.text
            if not _WORDLIKE.search(text) and text not in self.keep_punct:
                token.is_punctuation = True
                token.to_skip = True
            elif token.base.lower in self.words_to_skip:
                token.to_skip = True
        self._skip_words(doc, _FILLER_PATTERN)
        self._skip_words(doc, _FREQUENCY_PATTERN)
        return doc

    @staticmethod
    def _skip_words(doc: MutableDocument, pattern: re.Pattern) -> None:
        """Skip the tokens of every match of `pattern` (whole filler words)."""
        rdoc: Document = doc  # type: ignore[assignment]
        if not rdoc._char_indices:
            return
        for match in pattern.finditer(rdoc.text):
            first = bisect_left(rdoc._char_indices, match.start())
            for token in rdoc._tokens[first:]:
                if token.base.char_index >= match.end():
                    break
                token.to_skip = True

    @classmethod
    def create_new_component(cls, cnf: ComponentConfig, tokenizer: BaseTokenizer, cdb: CDB,
                             vocab: Vocab, model_load_path: Optional[str]) -> "HangulTagger":
        preprocessing = cdb.config.preprocessing
        return cls(set(preprocessing.words_to_skip), set(preprocessing.keep_punct))


def register() -> None:
    """Register the tokenizer and tagger with MedCAT once per process.

    MedCAT's own loggers stay at WARNING: some of its debug messages quote the text
    being annotated, and patient text must not reach log files."""
    logging.getLogger("medcat").setLevel(logging.WARNING)
    skip_environment_snapshot_on_construction()
    try:
        register_tokenizer(TOKENIZER_NAME, HangulTokenizer.create_new_tokenizer)  # type: ignore[arg-type]
    except MedCATRegistryException:
        pass
    try:
        register_core_component(CoreComponentType.tagging, TAGGER_NAME,
                                HangulTagger.create_new_component)  # type: ignore[arg-type]
    except MedCATRegistryException:
        pass



def _placeholder_environment():
    from medcat.utils.envsnapshot import Environment

    return Environment(dependencies={}, transitive_deps={}, os=platform.platform(),
                       cpu_arcitecture=platform.machine(), python_version=platform.python_version())


def skip_environment_snapshot_on_construction() -> None:
    """Make `Config()` cheap: MedCAT's ModelMeta snapshots every installed package's
    metadata whenever a config is constructed (about 1 s per construction here, twice
    per pack load). The snapshot is overwritten by the stored one on load and taken
    afresh by `mark_saved_now()` on save, so a placeholder default loses nothing."""
    from medcat.config.config import ModelMeta

    field = ModelMeta.model_fields["saved_environ"]
    if field.default_factory is not _placeholder_environment:
        field.default_factory = _placeholder_environment
        ModelMeta.model_rebuild(force=True)


register()
