"""Anthropic's Message Batches: ``POST /v1/messages/batches``, ``GET /v1/messages/batches/{id}``, its ``results_url``.

Requests are translated to the Messages API by litellm's own Anthropic transformation (the one its
chat calls use); a batch holds at most 100,000 requests and 256 MB (Anthropic's limits).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from harness.adapters.openai_compatible import max_response_bytes
from harness.adapters.openai_format import enforce_max_tokens, request_to_openai, tool_arguments_text
from harness.batch.backend import BatchStatus, path_id
from harness.batch.http import BatchHTTP
from harness.batch.pricing import BatchPricing
from harness.batch.records import Answer, Failure, Outcome, Results, Unanswered, error_message
from harness.errors import AdapterError
from harness.types import GenerateRequest, Generation, ToolCall, Usage

API_VERSION = "2023-06-01"
DEFAULT_MAX_TOKENS = 4096
TRANSIENT_ERRORS = frozenset({"api_error", "overloaded_error", "rate_limit_error"})
STOP_REASONS = {"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length", "tool_use": "tool_calls"}


def parse_record(record: dict[str, Any]) -> Outcome:
    """One results line: ``succeeded`` (the message), ``errored`` (its error), ``canceled`` or ``expired``."""
    result = record["result"]
    kind = result["type"]
    if kind == "succeeded":
        message = result["message"]
        if not isinstance(message, dict):
            raise ValueError("the message is not a JSON object")
        return Answer(message)
    if kind == "errored":
        error = result.get("error")
        inner = error.get("error") if isinstance(error, dict) else None
        error_type = inner.get("type") if isinstance(inner, dict) else None
        return Failure(error_message(error), transient=error_type in TRANSIENT_ERRORS)
    if kind in ("canceled", "expired"):
        return Unanswered(str(kind))
    raise ValueError(f"unknown result type {str(kind)[:40]!r}")


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def anthropic_usage(raw: object) -> Usage:
    """A Messages API usage: input counts the cache reads and writes, as billed; a count that is not a
    whole number in range makes the usage unknown (as for every adapter, :class:`~harness.types.Usage`)."""
    if raw is None:
        return Usage()
    if not isinstance(raw, dict):
        return Usage(unknown=True)
    counted = Usage.model_validate(
        {
            "input_tokens": raw.get("input_tokens"),
            "output_tokens": raw.get("output_tokens"),
            "cached_tokens": raw.get("cache_read_input_tokens"),
        }
    )
    written = Usage.model_validate({"input_tokens": raw.get("cache_creation_input_tokens")})
    if counted.unknown or written.unknown:
        return Usage(unknown=True)
    return Usage(
        input_tokens=counted.input_tokens + counted.cached_tokens + written.input_tokens,
        output_tokens=counted.output_tokens,
        cached_tokens=counted.cached_tokens,
    )


def generation_from_anthropic(body: dict[str, Any], latency_s: float, pricing: BatchPricing | None) -> Generation:
    """A Messages API response as a Generation: its text blocks, tool uses, stop reason and usage."""
    content = body.get("content")
    if not isinstance(content, list):
        raise AdapterError("malformed response: no 'content' list")
    texts: list[str] = []
    calls: list[ToolCall] = []
    for index, block in enumerate(content):
        if not isinstance(block, dict):
            raise AdapterError(f"malformed response: content block {index} is not an object")
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
        elif block.get("type") == "tool_use":
            if not isinstance(block.get("name"), str):
                raise AdapterError(f"malformed response: tool use {index} has no name")
            arguments = tool_arguments_text(block.get("input"))
            calls.append(ToolCall(id=str(block.get("id") or f"call_{index}"), name=block["name"], arguments=arguments))
    usage = anthropic_usage(body.get("usage"))
    stop = body.get("stop_reason")
    return Generation(
        text="".join(texts),
        tool_calls=tuple(calls),
        finish_reason=STOP_REASONS.get(stop, stop) if isinstance(stop, str) else None,
        usage=usage,
        cost_usd=pricing.cost(usage) if pricing is not None else None,
        latency_s=latency_s,
        model=body.get("model") if isinstance(body.get("model"), str) else None,
    )


class AnthropicBatchBackend:
    """Message batches for ``model`` (without the ``anthropic/`` prefix) at ``base_url``."""

    provider = "anthropic"
    max_requests = 100_000
    max_bytes = 256 * 1024 * 1024

    def __init__(self, model: str, base_url: str, api_key: str | None, pricing: BatchPricing | None = None) -> None:
        self.model = model
        self.pricing = pricing
        self.price_note = pricing.note if pricing is not None else None
        headers = {"anthropic-version": API_VERSION, **({"x-api-key": api_key} if api_key else {})}
        self.http = BatchHTTP(base_url, headers)

    def refuses(self, request: GenerateRequest) -> str | None:
        """Several choices, log-probabilities and raw extras have no Messages API form."""
        if request.n != 1:
            return "the Messages API returns one choice"
        if request.logprobs or request.top_logprobs:
            return "the Messages API has no log-probabilities"
        if request.extra:
            return "provider-specific request extras are not translated"
        return None

    def line(self, custom_id: str, request: GenerateRequest) -> dict[str, Any]:
        """``{custom_id, params}`` with the Messages API parameters litellm's transformation makes."""
        from litellm.llms.anthropic.chat.transformation import AnthropicConfig

        from harness.adapters.litellm_adapter import import_litellm

        import_litellm()
        payload = request_to_openai(request)
        messages = payload.pop("messages")
        payload.setdefault("max_tokens", DEFAULT_MAX_TOKENS)
        config = AnthropicConfig()
        optional = config.map_openai_params(payload, {}, self.model, drop_params=True)
        if request.reasoning_budget is not None:
            optional["thinking"] = {"type": "enabled", "budget_tokens": request.reasoning_budget}
        try:
            params = config.transform_request(self.model, messages, optional, {}, {})
        except Exception as exc:  # litellm's own errors for requests the Messages API cannot express
            raise AdapterError(f"request has no Messages API form: {type(exc).__name__}: {str(exc)[:300]}") from None
        params["model"] = self.model
        return {"custom_id": custom_id, "params": params}

    async def submit(self, lines: list[dict[str, Any]], token: str) -> str:
        """``POST /v1/messages/batches`` with every request (a message batch takes no metadata for ``token``)."""
        created = await self.http.json("POST", "v1/messages/batches", {"requests": lines})
        return path_id(created.get("id"), "the batch id")

    async def find(self, token: str) -> str | None:
        """None: message batches carry no metadata, so a submission without a recorded id cannot be found."""
        return None

    async def status(self, batch_id: str) -> BatchStatus:
        """``GET /v1/messages/batches/{id}``: ``in_progress``/``canceling`` run; ``ended`` is cancelled, expired
        (some requests expired) or completed; any other word counts as failed."""
        body = await self.http.json("GET", f"v1/messages/batches/{path_id(batch_id, 'the batch id')}")
        raw = str(body.get("processing_status"))
        if raw in ("in_progress", "canceling"):
            return BatchStatus(state="running", raw=raw)
        if raw != "ended":
            return BatchStatus(state="failed", raw=raw, message=f"unknown processing status {raw[:40]!r}")
        given = body.get("request_counts")
        counts: dict[str, Any] = given if isinstance(given, dict) else {}
        state = (
            "cancelled"
            if body.get("cancel_initiated_at")
            else "expired"
            if _count(counts.get("expired"))
            else "completed"
        )
        url = body.get("results_url")
        if not isinstance(url, str) or not url:
            return BatchStatus(state="failed", raw=raw, message="the ended batch has no results_url")
        if urlsplit(url)[:2] != urlsplit(self.http.base_url)[:2]:
            return BatchStatus(state="failed", raw=raw, message=f"results_url {url[:100]!r} is not on the API host")
        return BatchStatus(state=state, raw=raw, result_paths=(url,))

    async def results(self, status: BatchStatus, members: set[str]) -> Results:
        """The lines of the batch's results file."""
        results = Results(members)
        for path in status.result_paths:
            await results.read(self.http.lines(path, max_response_bytes()), parse_record)
        return results

    def generation(self, request: GenerateRequest, body: dict[str, Any], latency_s: float) -> Generation:
        """The message as a Generation, held to ``max_tokens``, costed at the batch price."""
        return enforce_max_tokens(generation_from_anthropic(body, latency_s, self.pricing), request.max_tokens)

    async def aclose(self) -> None:
        """Close the HTTP session."""
        await self.http.aclose()
