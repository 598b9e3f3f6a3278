"""The ladder's Ltac, kept as Rocq source in ``.v`` files beside this module.

Each file holds the tactics and lemmas of one rung (or of the search's helpers); the backends
send them with the prelude, sentence by sentence, split where Rocq splits them
(``coins_rocq.sentences``). ``tests/coins_rocq/test_coins_ltac_files.py`` has ``coqc`` check
every file after the prelude, as the checker loads them.
"""

from __future__ import annotations

import functools
from importlib import resources

from coins_rocq.sentences import split_sentences


@functools.cache
def ltac_sentences(name: str) -> tuple[str, ...]:
    """The sentences of ``<name>.v`` (comments between sentences left out), in order."""
    text = resources.files(__package__).joinpath(f"{name}.v").read_text(encoding="utf-8")
    return tuple(sentence.text for sentence in split_sentences(text))
