"""The models of ``local/`` adapters, each loaded once per process (per context size) and shared.

A model is loaded on first use with its chat formatter, and kept with the lock that serialises its
calls (llama.cpp is not re-entrant) until interpreter shutdown, when every loaded model is freed.
"""

from __future__ import annotations

import atexit
import threading
from dataclasses import dataclass, field
from pathlib import Path

from harness.adapters.local_engine import LocalEngine
from harness.adapters.local_prompt import ChatFormatter


@dataclass
class LoadedModel:
    """A loaded model, its chat formatter, and the lock every call on it holds."""

    engine: LocalEngine
    formatter: ChatFormatter
    lock: threading.Lock = field(default_factory=threading.Lock)


_MODELS: dict[tuple[Path, int | None], LoadedModel] = {}
_MODELS_LOCK = threading.Lock()


def _close_all() -> None:
    """Free every loaded model before interpreter shutdown (llama.cpp's finalizers fail after it)."""
    with _MODELS_LOCK:
        for loaded in _MODELS.values():
            with loaded.lock:
                loaded.engine.llm.close()
        _MODELS.clear()


def load_model(path: Path, n_ctx: int | None, n_threads: int | None) -> LoadedModel:
    """The model at ``path`` with context ``n_ctx``: loaded on the first call, the same object on every later one."""
    with _MODELS_LOCK:
        loaded = _MODELS.get((path, n_ctx))
        if loaded is None:
            if not _MODELS:
                atexit.register(_close_all)
            engine = LocalEngine(path, n_ctx=n_ctx, n_threads=n_threads)
            llm = engine.llm
            bos = llm._model.token_get_text(llm.token_bos()) if llm.token_bos() >= 0 else ""
            eos = llm._model.token_get_text(llm.token_eos()) if llm.token_eos() >= 0 else ""
            formatter = ChatFormatter(
                llm.metadata.get("tokenizer.chat_template"),
                architecture=llm.metadata.get("general.architecture", ""),
                bos_token=bos,
                eos_token=eos,
            )
            loaded = _MODELS[(path, n_ctx)] = LoadedModel(engine, formatter)
        return loaded
