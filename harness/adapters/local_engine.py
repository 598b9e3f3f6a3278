"""Synchronous llama.cpp inference for the ``local/`` adapter: token generation and log-probabilities.

One ``LocalEngine`` wraps one ``llama_cpp.Llama``. It is not thread-safe: the
adapter serialises calls with a lock and runs them in a worker thread.

Log-probabilities are computed here from the raw logits (a log-softmax over the whole
vocabulary, before temperature, top-p or top-k), both for generated tokens and for
scored continuations, so the two agree for the same tokens. The model is created
with ``logits_all=False`` (keeping logits for every position would cost
``n_ctx x n_vocab`` floats: gigabytes for Gemma's 262k vocabulary); the logits of the
last evaluated position are read after each decode instead.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from harness.errors import AdapterError, ConfigError

DEFAULT_CONTEXT = 8192


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


class LocalEngine:
    """A GGUF model loaded in llama.cpp, with generation and continuation scoring."""

    def __init__(self, path: Path, n_ctx: int = DEFAULT_CONTEXT, n_threads: int | None = None) -> None:
        try:
            from llama_cpp import Llama
        except ImportError as exc:
            raise ConfigError(
                "local models need llama-cpp-python: pip install 'frontier-evals[local]' "
                f"({type(exc).__name__}: {exc})"
            ) from None
        if not path.is_file():
            raise ConfigError(f"local model file not found: {path}")
        self.path = path
        try:
            self.llm: Any = Llama(model_path=str(path), n_ctx=n_ctx, n_threads=n_threads or os.cpu_count() or 1,
                                  logits_all=False, verbose=False)
        except (ValueError, RuntimeError) as exc:
            raise ConfigError(f"llama.cpp could not load {path}: {exc}") from None
        self.n_ctx = int(self.llm.n_ctx())
        self.n_vocab = int(self.llm.n_vocab())

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
            raise AdapterError(f"{what} is {n_tokens} tokens, more than the context of {self.n_ctx} "
                               f"(raise it with the adapter option n_ctx)")

    def _load_prefix(self, tokens: Sequence[int]) -> None:
        """Evaluate ``tokens``, reusing the KV cache for the prefix shared with the last call."""
        llm = self.llm
        cached = llm.input_ids[: llm.n_tokens]
        shared = 0
        for old, new in zip(cached, tokens):
            if old != new:
                break
            shared += 1
        keep = min(shared, len(tokens) - 1)
        llm.n_tokens = keep
        llm.eval(list(tokens[keep:]))

    # -- public operations ----------------------------------------------------------------

    def continuation_logprobs(self, prefix: Sequence[int], continuation: Sequence[int], top: int = 0) -> TokenScores:
        """Log-probability of each token of ``continuation`` given ``prefix`` and the tokens before it."""
        if not prefix:
            raise AdapterError("scoring needs at least one prefix token (the BOS token)")
        scores = TokenScores()
        if not continuation:
            return scores
        self._check_length(len(prefix) + len(continuation), "prompt plus continuation")
        self._load_prefix(prefix)
        for index, token in enumerate(continuation):
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
        stream = llm.generate(list(prompt), temp=max(sampling.temperature, 0.0), top_p=sampling.top_p,
                              top_k=sampling.top_k, min_p=sampling.min_p, repeat_penalty=sampling.repeat_penalty)
        for token in stream:
            if self.is_end_of_generation(token):
                finish = "stop"
                break
            if logprobs:
                self._score(self._last_logprobs(), token, top, scores)
            tokens.append(token)
            text = self.detokenize(tokens, prev_tokens=prompt)
            if sampling.stop:
                text, stopped = _cut_at_stop(text, sampling.stop)
                if stopped:
                    finish = "stop"
                    break
            if len(tokens) >= budget:
                break
        stream.close()
        return Completion(text, tokens, finish, len(prompt), scores)
