"""LongCoT's data: questions (``question``), read from a folder of JSON files (``load``) or a ``datasets``
repository (``hub``). The names other code uses are re-exported here."""

from __future__ import annotations

from tasks.longcot.catalog import DOMAINS, HUB_ID, SPLITS
from tasks.longcot.data.load import ENV_VAR, MAX_FILE_BYTES, data_source, find_file, load_questions, read_file
from tasks.longcot.data.question import LongCotDataError, Question, parse_question

__all__ = [
    "DOMAINS",
    "ENV_VAR",
    "HUB_ID",
    "MAX_FILE_BYTES",
    "SPLITS",
    "LongCotDataError",
    "Question",
    "data_source",
    "find_file",
    "load_questions",
    "parse_question",
    "read_file",
]
