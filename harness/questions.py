"""Question files (DESIGN.md, "Question files"), and the gold values they carry."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from harness.attempt import Question
from harness.errors import QuestionError


class Gold(BaseModel):
    model_config = ConfigDict(extra="forbid")
    sql: str | None = None
    """SQL over the raw tables returning one scalar."""
    tolerance: float = Field(default=0.005, ge=0)
    """Relative tolerance for numeric answers."""
    driver: str | None = None
    value: float | str | None = None
    """A literal gold value (instead of SQL)."""


class QuestionSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^[A-Za-z0-9_.-]{1,80}$")
    text: str = Field(min_length=1, max_length=2000)
    category: str
    answerable: bool
    gold: Gold | None = None

    @model_validator(mode="after")
    def _gold_when_answerable(self) -> QuestionSpec:
        if self.answerable and self.gold is None:
            raise ValueError("an answerable question needs a gold")
        return self

    def question(self) -> Question:
        return Question(self.id, self.text, self.category, self.answerable,
                        self.gold.model_dump(exclude_none=True) if self.gold else None)


class QuestionFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    warehouse: str = "demo"
    questions: list[QuestionSpec] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> QuestionFile:
        ids = [q.id for q in self.questions]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"duplicate question ids: {', '.join(dupes)}")
        return self


def bundled_path() -> Path:
    return Path(str(resources.files("harness") / "questions" / "demo.yaml"))


def load_questions(path: Path | None = None) -> QuestionFile:
    path = path or bundled_path()
    try:
        raw: Any = yaml.safe_load(path.read_text(encoding="utf-8"))
        return QuestionFile.model_validate(raw)
    except OSError as exc:
        raise QuestionError(f"Cannot read the question file {path}: {exc}") from exc
    except yaml.YAMLError as exc:
        raise QuestionError(f"{path} is not valid YAML: {exc}") from exc
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:8])
        raise QuestionError(f"{path}: {problems}") from exc
