"""Synchronous llama.cpp inference for the ``local/`` adapter: token generation and log-probabilities.

One ``LocalEngine`` wraps one ``llama_cpp.Llama``. It is not thread-safe: the
adapter serialises calls with a lock and runs them in a worker thread.

Log-probabilities are computed here from the raw logits (a log-softmax over the whole
vocabulary, before temperature, top-p or top-k), both for generated tokens and for
scored continuations, so the two agree for the same tokens. The model is created
with ``logits_all=False`` (keeping logits for every position would cost
``n_ctx x n_vocab`` floats: gigabytes for Gemma's 262k vocabulary); the logits of the
last evaluated position are read after each decode instead.

llama.cpp's logits depend on how tokens were split into decode batches (on Gemma 3
270M a log-probability moves by up to ~0.3 between a prompt decoded in one batch and
token by token). So every call starts from an empty context (no KV-cache reuse
between calls): the prompt is decoded in chunks of ``PROMPT_CHUNK`` tokens and every later
token on its own, in generation and in scoring alike. Results then depend only on
the request, not on what ran before, and scored continuations reproduce the
log-probabilities that generation reported for the same tokens.

A call stops early, between two tokens or prompt chunks, once its ``stop_flag`` (a ``threading.Event``
the adapter sets when the call is cancelled: Ctrl-C, a timeout) is set; its finish
reason is then ``"cancelled"``.

llama.cpp's extra buffer types (weight repacking, AMX kernels) are turned off on CPUs
that report AMX: in some virtual machines (Firecracker) the CPU reports AMX but its
tile instructions fault (SIGILL) at the first generated token. Set
``FRONTIER_LLAMA_EXTRA_BUFFERS=1`` to keep them on, ``=0`` to turn them off anywhere.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from harness.errors import AdapterError, ConfigError

MAX_DEFAULT_CONTEXT = 32768
EXTRA_BUFFERS_ENV = "FRONTIER_LLAMA_EXTRA_BUFFERS"
PROMPT_CHUNK = 64  # tokens per prompt decode: small enough that a stop request is seen within a second or two
log = logging.getLogger(__name__)
_LOG_CALLBACK: Any = None


@dataclass(frozen=True)
class Sampling:
    """How to pick tokens: temperature 0 is greedy; the seed fixes the sampler's random stream."""

    max_tokens: int = 256
    temperature: float = 1.0
    top_p: float = 1.0
    top_k: int = 40
    min_p: float = 0.0
    repeat_penalty: float = 1.0
    seed: int = 0
    stop: tuple[str, ...] = ()


@dataclass
class TokenScores:
    """Per-token strings, log-probabilities and (when asked) the most likely alternatives."""

    tokens: list[str] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)
    top: list[dict[str, float]] = field(default_factory=list)


@dataclass
class Completion:
    """One sampled continuation: its text, tokens, why it stopped, and its token scores."""

    text: str
    token_ids: list[int]
    finish_reason: str
    prompt_tokens: int
    scores: TokenScores


def log_softmax(logits: np.ndarray) -> np.ndarray:
    """Numerically stable log-softmax in float64."""
    values = logits.astype(np.float64, copy=False)
    peak = float(values.max())
    return values - (peak + np.log(np.exp(values - peak).sum()))


def _cut_at_stop(text: str, stops: Sequence[str]) -> tuple[str, bool]:
    positions = [text.find(s) for s in stops if s and s in text]
    if not positions:
        return text, False
    return text[: min(positions)], True


def default_threads() -> int:
    """Threads for llama.cpp: the cores not already busy, at least one.

    A core counts as busy from 0.75 of the 1-minute load average (a busy process shows
    up there with a lag).

    llama.cpp's workers spin while they wait for each other, so asking for more threads
    than free cores is far slower (on a loaded 2-core machine, 2 threads ran at 1.5
    tokens/s where 1 thread ran at 20). The thread count does not change the results.
    """
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    busy = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    return max(1, min(cores, cores - math.floor(busy + 0.25)))


def _route_llama_logs() -> None:
    """Send llama.cpp's console messages to this module's logger (DEBUG) instead of stderr."""
    global _LOG_CALLBACK
    if _LOG_CALLBACK is not None:
        return
    import ctypes

    import llama_cpp

    @llama_cpp.llama_log_callback
    def forward(level: int, text: bytes, user_data: ctypes.c_void_p) -> None:
        log.debug("llama.cpp: %s", text.decode("utf-8", errors="replace").rstrip())

    llama_cpp.llama_log_set(forward, ctypes.c_void_p(0))
    _LOG_CALLBACK = forward


def extra_buffers_wanted() -> bool:
    """Whether llama.cpp may use its extra buffer types: ``$FRONTIER_LLAMA_EXTRA_BUFFERS``, else not on AMX CPUs."""
    choice = os.environ.get(EXTRA_BUFFERS_ENV, "").strip()
    if choice in {"0", "1"}:
        return choice == "1"
    try:
        flags = Path("/proc/cpuinfo").read_text(errors="replace")
    except OSError:
        return True
    return "amx_tile" not in flags


@contextlib.contextmanager
def _model_params(use_extra_buffers: bool) -> Iterator[None]:
    """While loading, llama.cpp's default model parameters with ``use_extra_bufts`` as asked."""
    import llama_cpp
    import llama_cpp.llama as llama_module

    original = llama_cpp.llama_model_default_params

    def params() -> Any:
        value = original()
        value.use_extra_bufts = use_extra_buffers
        return value

    llama_module.llama_cpp.llama_model_default_params = params
    try:
        yield
    finally:
        llama_module.llama_cpp.llama_model_default_params = original


class LocalEngine:
    """A GGUF model loaded in llama.cpp, with generation and continuation scoring."""

    def __init__(self, path: Path, n_ctx: int | None = None, n_threads: int | None = None) -> None:
        """Load ``path``; ``n_ctx`` defaults to the model's training context, at most 32768 tokens."""
        try:
            from llama_cpp import Llama
        except ImportError as exc:
            raise ConfigError(
                f"local models need llama-cpp-python: pip install 'frontier-evals[local]' ({type(exc).__name__}: {exc})"
            ) from None
        _route_llama_logs()
        if not path.is_file():
            raise ConfigError(f"local model file not found: {path}")
        self.path = path
        self.stop_flag: threading.Event | None = None
        threads = n_threads or default_threads()
        try:
            with _model_params(extra_buffers_wanted()):
                self._load(Llama, path, n_ctx, threads)
        except (ValueError, RuntimeError) as exc:
            raise ConfigError(f"llama.cpp could not load {path}: {exc}") from None
        self.n_ctx = int(self.llm.n_ctx())
        self.n_vocab = int(self.llm.n_vocab())

    def _load(self, llama_class: Any, path: Path, n_ctx: int | None, threads: int) -> None:
        """Create the model with ``n_ctx`` tokens of context, else its training context (at most 32768)."""
        self.llm: Any = llama_class(
            model_path=str(path), n_ctx=n_ctx or MAX_DEFAULT_CONTEXT, n_threads=threads, logits_all=False, verbose=False
        )
        trained = int(self.llm._model.n_ctx_train())
        if n_ctx is None and 0 < trained < MAX_DEFAULT_CONTEXT:
            self.llm.close()
            self.llm = llama_class(
                model_path=str(path), n_ctx=trained, n_threads=threads, logits_all=False, verbose=False
            )

    # -- tokens -----------------------------------------------------------------------------

    def tokenize(self, text: str, add_bos: bool, special: bool = False) -> list[int]:
        """Token ids of ``text``; ``special`` parses control tokens such as ``<start_of_turn>``."""
        return list(self.llm.tokenize(text.encode("utf-8"), add_bos=add_bos, special=special))

    def prompt_tokens(self, text: str, special: bool) -> list[int]:
        """Tokens of a prompt: control tokens parsed when ``special``, and BOS first when the model wants one."""
        tokens = self.tokenize(text, add_bos=False, special=special)
        bos = int(self.llm.token_bos())
        if bos >= 0 and self.llm._model.add_bos_token() and (not tokens or tokens[0] != bos):
            tokens.insert(0, bos)
        return tokens

    def detokenize(self, tokens: Sequence[int], prev_tokens: Sequence[int] | None = None) -> str:
        """Text of ``tokens`` (leading-space handling follows ``prev_tokens``); partial UTF-8 is dropped."""
        raw = self.llm.detokenize(list(tokens), prev_tokens=list(prev_tokens) if prev_tokens else None)
        return raw.decode("utf-8", errors="ignore")

    def piece(self, token: int) -> str:
        """The text of one token on its own (invalid UTF-8 fragments shown as U+FFFD)."""
        return self.llm.detokenize([token]).decode("utf-8", errors="replace")

    def is_end_of_generation(self, token: int) -> bool:
        """True for end-of-turn and end-of-sequence tokens."""
        import llama_cpp

        return bool(llama_cpp.llama_vocab_is_eog(self.llm._model.vocab, token))

    # -- logits -----------------------------------------------------------------------------

    def _last_logprobs(self) -> np.ndarray:
        import llama_cpp

        pointer = llama_cpp.llama_get_logits_ith(self.llm.ctx, -1)
        if not pointer:
            raise AdapterError("llama.cpp returned no logits for the last position")
        return log_softmax(np.ctypeslib.as_array(pointer, shape=(self.n_vocab,)))

    def _score(self, logprobs: np.ndarray, token: int, top: int, scores: TokenScores) -> None:
        scores.tokens.append(self.piece(token))
        scores.logprobs.append(float(logprobs[token]))
        if top > 0:
            best = np.argpartition(-logprobs, top)[:top]
            best = best[np.argsort(-logprobs[best])]
            scores.top.append({self.piece(int(t)): float(logprobs[t]) for t in best})

    def _check_length(self, n_tokens: int, what: str) -> None:
        if n_tokens > self.n_ctx:
            raise AdapterError(
                f"{what} is {n_tokens} tokens, more than the context of {self.n_ctx} "
                f"(raise it with the adapter option n_ctx)"
            )

    def _stopped(self) -> bool:
        return self.stop_flag is not None and self.stop_flag.is_set()

    def _clear(self) -> None:
        """Empty the context and its KV cache."""
        self.llm.reset()
        self.llm._ctx.kv_cache_clear()

    def _evaluate_fresh(self, tokens: Sequence[int]) -> bool:
        """Evaluate ``tokens`` from an empty context in ``PROMPT_CHUNK`` batches; False when stopped first."""
        self._clear()
        tokens = list(tokens)
        for start in range(0, len(tokens), PROMPT_CHUNK):
            if self._stopped():
                return False
            self.llm.eval(tokens[start : start + PROMPT_CHUNK])
        return True

    # -- public operations ----------------------------------------------------------------

    def continuation_logprobs(self, prefix: Sequence[int], continuation: Sequence[int], top: int = 0) -> TokenScores:
        """Log-probability of each token of ``continuation`` given ``prefix`` and the tokens before it."""
        if not prefix:
            raise AdapterError("scoring needs at least one prefix token (the BOS token)")
        scores = TokenScores()
        if not continuation:
            return scores
        self._check_length(len(prefix) + len(continuation), "prompt plus continuation")
        if not self._evaluate_fresh(prefix):
            raise AdapterError("scoring cancelled")
        for index, token in enumerate(continuation):
            if self._stopped():
                raise AdapterError("scoring cancelled")
            if not 0 <= token < self.n_vocab:
                raise AdapterError(f"token id {token} is outside the vocabulary of {self.n_vocab}")
            self._score(self._last_logprobs(), token, top, scores)
            if index + 1 < len(continuation):
                self.llm.eval([token])
        return scores

    def generate(self, prompt: Sequence[int], sampling: Sampling, logprobs: bool = False, top: int = 0) -> Completion:
        """Sample up to ``max_tokens`` after ``prompt``; stops at end-of-turn tokens and stop strings."""
        self._check_length(len(prompt), "the prompt")
        budget = min(sampling.max_tokens, self.n_ctx - len(prompt))
        llm = self.llm
        llm.set_seed(sampling.seed & 0xFFFFFFFF)
        scores = TokenScores()
        tokens: list[int] = []
        finish = "length"
        text = ""
        if budget <= 0:
            return Completion("", [], finish, len(prompt), scores)
        if not self._evaluate_fresh(prompt):
            return Completion("", [], "cancelled", len(prompt), scores)
        stream = llm.generate(
            list(prompt),
            temp=max(sampling.temperature, 0.0),
            top_p=sampling.top_p,
            top_k=sampling.top_k,
            min_p=sampling.min_p,
            repeat_penalty=sampling.repeat_penalty,
        )
        for token in stream:
            if self._stopped():
                finish = "cancelled"
                break
            if self.is_end_of_generation(token):
                finish = "stop"
                break
            if logprobs:
                self._score(self._last_logprobs(), token, top, scores)
            tokens.append(token)
            if sampling.stop:
                text, stopped = _cut_at_stop(self.detokenize(tokens, prev_tokens=prompt), sampling.stop)
                if stopped:
                    finish = "stop"
                    break
            if len(tokens) >= budget:
                break
        stream.close()
        if not sampling.stop:
            text = self.detokenize(tokens, prev_tokens=prompt)
        return Completion(text, tokens, finish, len(prompt), scores)
