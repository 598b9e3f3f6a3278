"""OpenAI's Batch API: ``POST /files`` (purpose ``batch``), ``POST /batches``, ``GET /batches/{id}``,
``GET /files/{id}/content`` for the output and error files.

Each input line is ``{custom_id, method, url, body}`` with a chat-completions body; a batch holds
at most 50,000 requests and 200 MB (OpenAI's limits).
"""

from __future__ import annotations

import json
from typing import Any

from harness.adapters.base import PROMPT_LOGPROBS_FLAG
from harness.adapters.openai_compatible import TRANSIENT_STATUS, max_response_bytes
from harness.adapters.openai_format import enforce_max_tokens, generation_from_openai, request_to_openai
from harness.batch.backend import BatchStatus, path_id
from harness.batch.http import BatchHTTP
from harness.batch.pricing import BatchPricing
from harness.batch.records import Answer, Failure, Outcome, Results, Unanswered, error_message
from harness.types import GenerateRequest, Generation

ENDPOINT = "/v1/chat/completions"
STATES = {
    "validating": "running",
    "in_progress": "running",
    "finalizing": "running",
    "cancelling": "running",
    "completed": "completed",
    "expired": "expired",
    "cancelled": "cancelled",
    "failed": "failed",
}
UNANSWERED_CODES = frozenset({"batch_expired", "batch_cancelled"})
METADATA_KEY = "frontier_submission"
FIND_PAGES = 10


def parse_record(record: dict[str, Any]) -> Outcome:
    """One line of an output or error file: the answer, the provider's error, or no answer (expired, cancelled)."""
    error = record.get("error")
    if isinstance(error, dict) and error.get("code") in UNANSWERED_CODES:
        return Unanswered(str(error.get("code")))
    if error is not None:
        return Failure(error_message(error))
    response = record["response"]
    status = response["status_code"]
    body = response.get("body")
    if not isinstance(status, int) or isinstance(status, bool):
        raise ValueError(f"status_code is {status!r}")
    if status != 200:
        return Failure(f"HTTP {status}: {error_message(body)}", transient=status in TRANSIENT_STATUS)
    if not isinstance(body, dict):
        raise ValueError("the response body is not a JSON object")
    return Answer(body)


class OpenAIBatchBackend:
    """Batches of chat completions for ``model`` at ``base_url`` (``.../v1``)."""

    provider = "openai"
    max_requests = 50_000
    max_bytes = 200 * 1024 * 1024

    def __init__(self, model: str, base_url: str, api_key: str | None, pricing: BatchPricing | None = None) -> None:
        self.model = model
        self.pricing = pricing
        self.price_note = pricing.note if pricing is not None else None
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.http = BatchHTTP(base_url, headers)

    def refuses(self, request: GenerateRequest) -> str | None:
        """Prompt-logprob and reasoning-budget requests have no batch form here."""
        if request.extra.get(PROMPT_LOGPROBS_FLAG):
            return "prompt log-probabilities are scored through /completions"
        if request.reasoning_budget is not None:
            return "a reasoning budget has no chat-completions batch form"
        return None

    def line(self, custom_id: str, request: GenerateRequest) -> dict[str, Any]:
        """``{custom_id, method, url, body}`` with the chat-completions body."""
        body = request_to_openai(request)
        body["model"] = self.model
        return {"custom_id": custom_id, "method": "POST", "url": ENDPOINT, "body": body}

    async def submit(self, lines: list[dict[str, Any]], token: str) -> str:
        """Upload the JSONL input file, then create the batch on it, ``token`` in its metadata."""
        content = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines).encode()
        uploaded = await self.http.upload("files", {"purpose": "batch"}, "batch-input.jsonl", content)
        file_id = path_id(uploaded.get("id"), "the uploaded file's id")
        body = {
            "input_file_id": file_id,
            "endpoint": ENDPOINT,
            "completion_window": "24h",
            "metadata": {METADATA_KEY: token},
        }
        created = await self.http.json("POST", "batches", body)
        return path_id(created.get("id"), "the batch id")

    async def find(self, token: str) -> str | None:
        """The batch whose metadata holds ``token``, among the newest ``FIND_PAGES`` pages of ``GET /batches``."""
        after: str | None = None
        for _ in range(FIND_PAGES):
            page = await self.http.json("GET", "batches?limit=100" + (f"&after={after}" if after else ""))
            data = page.get("data")
            if not isinstance(data, list) or not data:
                return None
            for batch in data:
                metadata = batch.get("metadata") if isinstance(batch, dict) else None
                if isinstance(metadata, dict) and metadata.get(METADATA_KEY) == token:
                    return path_id(batch.get("id"), "the batch id")
            if page.get("has_more") is not True:
                return None
            last = data[-1]
            after = path_id(last.get("id") if isinstance(last, dict) else None, "the last batch id")
        return None

    async def status(self, batch_id: str) -> BatchStatus:
        """``GET /batches/{id}``; an unknown status word counts as failed (never polled for ever)."""
        body = await self.http.json("GET", f"batches/{path_id(batch_id, 'the batch id')}")
        raw = str(body.get("status"))
        state = STATES.get(raw, "failed")
        paths = tuple(
            f"files/{path_id(body[key], key)}/content"
            for key in ("output_file_id", "error_file_id")
            if body.get(key) is not None
        )
        errors = body.get("errors")
        data = errors.get("data") if isinstance(errors, dict) else None
        message = "; ".join(error_message(item) for item in data[:3]) if isinstance(data, list) else ""
        if raw not in STATES:
            message = f"unknown batch status {raw[:40]!r}"
        return BatchStatus(state=state, raw=raw, result_paths=paths, message=message)

    async def results(self, status: BatchStatus, members: set[str]) -> Results:
        """The output file's and the error file's lines."""
        results = Results(members)
        for path in status.result_paths:
            await results.read(self.http.lines(path, max_response_bytes()), parse_record)
        return results

    def generation(self, request: GenerateRequest, body: dict[str, Any], latency_s: float) -> Generation:
        """The chat completion as a Generation, held to ``max_tokens``, costed at the batch price."""
        generation = generation_from_openai(body, latency_s=latency_s)
        if self.pricing is not None:
            generation = generation.model_copy(update={"cost_usd": self.pricing.cost(generation.usage)})
        return enforce_max_tokens(generation, request.max_tokens)

    async def aclose(self) -> None:
        """Close the HTTP session."""
        await self.http.aclose()
