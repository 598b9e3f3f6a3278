"""The ``lm-eval/<model type>?<model args>`` adapter: any lm-eval ``LM`` through ``generate_until``.

``<model args>`` is lm-eval's own ``--model_args`` string (``k=v,k=v``), e.g.
``lm-eval/local-chat-completions?model=qwen,base_url=http://127.0.0.1:8000/v1/chat/completions``.
Chat messages go through the LM's ``apply_chat_template`` when it has one, else they are joined
as plain text. Calls are serialised: lm-eval models are not made for concurrent callers.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from harness.adapters.base import checked_options
from harness.errors import AdapterError, ConfigError, MissingCapability
from harness.types import GenerateRequest, Generation, Message


def _plain_prompt(messages: tuple[Message, ...]) -> str:
    return "\n\n".join(m.content or "" for m in messages)


class LmEvalAdapter:
    """Generate with an lm-eval LM, one ``generate_until`` instance per request."""

    capabilities = frozenset({"chat"})

    def __init__(self, lm: Any, name: str) -> None:
        self.lm = lm
        self.name = name
        self._lock = asyncio.Lock()

    def _context(self, messages: tuple[Message, ...]) -> Any:
        history = [{"role": m.role, "content": m.content or ""} for m in messages]
        try:
            return self.lm.apply_chat_template(history, add_generation_prompt=True)
        except (NotImplementedError, AttributeError, TypeError):
            return _plain_prompt(messages)

    def _gen_kwargs(self, request: GenerateRequest) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "until": list(request.stop),
            "temperature": request.temperature or 0.0,
            "do_sample": bool(request.temperature),
        }
        if request.max_tokens is not None:
            kwargs["max_gen_toks"] = request.max_tokens
        if request.top_p is not None:
            kwargs["top_p"] = request.top_p
        return kwargs

    async def generate(self, request: GenerateRequest) -> Generation:
        """One ``generate_until`` call in a worker thread."""
        from lm_eval.api.instance import Instance

        if request.tools or any(m.role == "tool" or m.tool_calls for m in request.messages):
            raise MissingCapability(f"{self.name} cannot use tools (lm-eval's generate_until is text in, text out)")
        instance = Instance(
            request_type="generate_until",
            doc={},
            idx=0,
            arguments=(self._context(request.messages), self._gen_kwargs(request)),
        )
        started = time.perf_counter()
        async with self._lock:
            try:
                texts = await asyncio.to_thread(self.lm.generate_until, [instance], True)
            except Exception as exc:
                raise AdapterError(f"{self.name}: {type(exc).__name__}: {exc}") from exc
        text = texts[0] if texts and isinstance(texts[0], str) else ""
        return Generation(text=text, latency_s=time.perf_counter() - started, model=self.name)


def create(rest: str, seed: int = 0, **options: object) -> LmEvalAdapter:
    """The adapter for ``lm-eval/<model type>?<model args>`` (its options are the model args, so ``-M`` is refused)."""
    checked_options("lm-eval", options, {})
    model_type, _, model_args = rest.partition("?")
    if not model_type:
        raise ConfigError(f"lm-eval spec must be 'lm-eval/<model type>?<model args>', got 'lm-eval/{rest}'")
    try:
        from lm_eval.api.registry import get_model
    except ImportError:
        raise ConfigError("the lm-eval/ adapter needs lm-eval: pip install 'frontier-evals[interop]'") from None
    try:
        lm = get_model(model_type).create_from_arg_string(model_args)
    except Exception as exc:
        raise ConfigError(
            f"lm-eval model {model_type!r} ({model_args!r}) cannot be created: {type(exc).__name__}: {exc}"
        ) from None
    safe = ",".join(p for p in model_args.split(",") if not any(s in p.split("=")[0].lower() for s in ("key", "token")))
    return LmEvalAdapter(lm, f"lm-eval/{model_type}?{safe}" if safe else f"lm-eval/{model_type}")
