"""The base of every core record and the JSON text records are written as.

Text from a model or an imported file may hold a lone UTF-16 surrogate, which UTF-8 cannot encode:
:data:`ModelText` keeps it as its JSON escape text, and :func:`record_json` escapes one anywhere
else in a record instead of failing the write.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict
from pydantic_core import PydanticSerializationError

JsonDict = dict[str, Any]

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_lone_surrogates(text: str) -> str:
    """``text`` with each lone UTF-16 surrogate (U+D800 to U+DFFF, which UTF-8 cannot encode) written as the
    six characters of its JSON escape (``\\ud800``), the way a model's JSON reply carried it."""
    if text.isascii() or _LONE_SURROGATE.search(text) is None:
        return text
    return _LONE_SURROGATE.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


ModelText = Annotated[str, AfterValidator(escape_lone_surrogates)]
"""Text that came from a model or an imported file: stored with its lone surrogates escaped
(:func:`escape_lone_surrogates`), so it can be logged, cached and scored as what was sent."""


def _escaped_json(value: Any) -> Any:
    if isinstance(value, str):
        return escape_lone_surrogates(value)
    if isinstance(value, dict):
        return {escape_lone_surrogates(str(k)): _escaped_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_escaped_json(item) for item in value]
    return value


def record_json(record: BaseModel) -> str:
    """``record`` as JSON; a lone surrogate anywhere in it (a tool's data, a score's details) is escaped
    (:func:`escape_lone_surrogates`) instead of failing the write."""
    try:
        return record.model_dump_json()
    except PydanticSerializationError:
        data = _escaped_json(record.model_dump())  # the JSON mode would mangle a dictionary key's surrogate
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)


class Record(BaseModel):
    """Base of every core record: frozen, strict about unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")
