"""Question files (DESIGN.md, "Question files"), and the gold values they carry."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    field_validator,
    model_validator,
)

from showwork.harness.errors import QuestionError
from showwork.harness.experiments.attempt import Question
from showwork.harness.project import DEMO, ProjectError, bundled_path, locate

ANSWER_KINDS = ("sql", "table_sql", "members", "value")
"""A gold gives at most one of these (a diagnostic may give only its driver)."""


class Gold(BaseModel):
    model_config = ConfigDict(extra="forbid")
    sql: str | None = None
    """SQL over the raw tables returning one scalar."""
    table_sql: str | None = None
    """SQL over the raw tables returning two columns, key and value (breakdowns, series)."""
    members: list[str] | None = Field(default=None, min_length=1)
    """The first N members of a ranking, in order."""
    tolerance: float = Field(default=0.005, ge=0)
    """Relative tolerance for numeric answers."""
    driver: str | None = None
    """The metric that explains the move (diagnostic questions)."""
    value: float | str | None = None
    """A literal gold value (instead of SQL)."""

    @field_validator("members", mode="before")
    @classmethod
    def _members_as_text(cls, value: Any) -> Any:
        """YAML reads `- 2019` as a number; a member is always text."""
        if isinstance(value, list):
            return [v if isinstance(v, str | bool) else str(v) for v in value]
        return value

    @model_validator(mode="after")
    def _one_answer(self) -> Gold:
        given = [k for k in ANSWER_KINDS if getattr(self, k) is not None]
        if len(given) > 1:
            raise ValueError(f"give one of {', '.join(ANSWER_KINDS)}, not {' and '.join(given)}")
        if not given and self.driver is None:
            raise ValueError(f"a gold needs one of {', '.join(ANSWER_KINDS)} or a driver")
        return self


class QuestionSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^[A-Za-z0-9_.-]{1,80}$")
    text: str = Field(min_length=1, max_length=2000)
    category: str
    answerable: bool
    gold: Gold | None = None
    paraphrases: list[str] = []
    """Other wordings of the same question, each with the same reading and the same answer
    (the gold is the question's)."""

    @field_validator("paraphrases")
    @classmethod
    def _paraphrases_differ(cls, value: list[str]) -> list[str]:
        seen: set[str] = set()
        for text in value:
            key = " ".join(text.split()).casefold()
            if not key or len(text) > 2000:
                raise ValueError("a paraphrase is a question of 1 to 2000 characters")
            if key in seen:
                raise ValueError(f"paraphrase given twice: {text!r}")
            seen.add(key)
        return value

    @model_validator(mode="after")
    def _gold_when_answerable(self) -> QuestionSpec:
        if self.answerable and self.gold is None:
            raise ValueError("an answerable question needs a gold")
        if " ".join(self.text.split()).casefold() in {" ".join(p.split()).casefold()
                                                       for p in self.paraphrases}:
            raise ValueError("a paraphrase repeats the question's text")
        return self

    def question(self) -> Question:
        return Question(self.id, self.text, self.category, self.answerable,
                        self.gold.model_dump(exclude_none=True) if self.gold else None)

    def paraphrased(self) -> list[Question]:
        """Each paraphrase as a question of its own (`<id>.p1`, `<id>.p2`, …), with the
        original's category, answerability and gold."""
        original = self.question()
        return [Question(f"{self.id}.p{n}", text, original.category, original.answerable,
                         original.gold) for n, text in enumerate(self.paraphrases, start=1)]


class QuestionFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    project: str | None = None
    """"demo", or a project folder relative to this file; None: whichever project is open."""
    warehouse: str | None = None
    """Older files' `warehouse: demo`, the same as `project: demo`."""
    questions: list[QuestionSpec] = Field(min_length=1)
    _source: Path | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _unique(self) -> QuestionFile:
        ids = [q.id for q in self.questions]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"duplicate question ids: {', '.join(dupes)}")
        if self.warehouse not in (None, DEMO):
            raise ValueError(f"warehouse: {self.warehouse!r}: only 'demo' (older files); name a "
                             "project folder with project: PATH")
        if self.project and self.warehouse:
            raise ValueError("give project: or warehouse: (older files), not both")
        return self

    @property
    def path(self) -> Path | None:
        """The file these questions were read from (None when built in code)."""
        return self._source

    def project_file(self) -> Path | None:
        """The showwork.yaml this file's questions are for; None when it names no project."""
        ref = self.project or self.warehouse
        if ref is None:
            return None
        if ref == DEMO:
            return locate(DEMO)
        base = self._source.parent if self._source else Path.cwd()
        try:
            return locate(base / ref)
        except ProjectError as exc:
            raise QuestionError(f"{self._source or 'question file'}: project: {ref}: "
                                f"{exc.message}") from exc


def load_questions(path: Path | None = None) -> QuestionFile:
    """A question file (default: the bundled demo questions); QuestionError saying where."""
    path = path or bundled_path()
    try:
        raw: Any = yaml.safe_load(path.read_text(encoding="utf-8"))
        qfile = QuestionFile.model_validate(raw)
        qfile._source = path
        return qfile
    except OSError as exc:
        raise QuestionError(f"Cannot read the question file {path}: {exc}") from exc
    except yaml.YAMLError as exc:
        raise QuestionError(f"{path} is not valid YAML: {exc}") from exc
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:8])
        raise QuestionError(f"{path}: {problems}") from exc
