"""OpenAI's Batch API and Anthropic's Message Batches on the loopback server, for tests and benchmarks.

:class:`BatchServer` is an :class:`~harness.testing.openai_server.OpenAIServer` (so chat completions
answer as usual) that also serves ``POST /v1/files``, ``POST /v1/batches``, ``GET /v1/batches/{id}``,
``GET /v1/files/{id}/content``, ``POST /v1/messages/batches``, ``GET /v1/messages/batches/{id}`` and its
``results_url``. A batch moves validating -> in_progress -> its ending as it is polled; what it ends
as, and which of its requests fail, is a :class:`BatchBehaviour`.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

from harness.testing.openai_server import OpenAIServer, Reply, Responder, count_tokens, echo_responder

ENDINGS = ("completed", "expired", "failed", "cancelled")


@dataclass
class BatchBehaviour:
    """How batches behave.

    ``polls``: status polls a batch answers as in progress before it ends. ``endings[n]``: how the
    n-th batch ends (``completed`` past the list). ``answered_share``: the share of an expired or
    cancelled batch's requests answered before it ended. In the first batch, every
    ``error_every``-th request is answered with HTTP 400 and every ``transient_every``-th with 500.
    ``hostile``: results files also hold a malformed line, a line for a custom_id nobody sent and
    a second copy of the first answer. ``paused``: batches stay in progress while True.
    ``status_error``: an HTTP status that every status poll is answered with instead (0: none).
    ``hang_after_create``: ``POST /v1/batches`` makes the batch, then never answers.
    """

    polls: int = 2
    endings: list[str] = field(default_factory=list)
    answered_share: float = 0.5
    error_every: int = 0
    transient_every: int = 0
    hostile: bool = False
    paused: bool = False
    status_error: int = 0
    hang_after_create: bool = False


def _text_of(content: object) -> str:
    """A message's content as text: a string, or the text of Anthropic content blocks."""
    if isinstance(content, list):
        return " ".join(str(block.get("text") or "") for block in content if isinstance(block, dict))
    return str(content or "")


class BatchServer(OpenAIServer):
    """The loopback server with both batch APIs; ``batches`` holds each batch's input lines by id, in order."""

    def __init__(self, responder: Responder = echo_responder, behaviour: BatchBehaviour | None = None) -> None:
        super().__init__(responder)
        self.behaviour = behaviour or BatchBehaviour()
        self.files: dict[str, bytes] = {}
        self.batches: dict[str, list[dict[str, Any]]] = {}
        self._state: dict[str, dict[str, Any]] = {}
        self._ids = itertools.count(1)

    def build_app(self) -> Any:
        """The chat routes plus the batch routes."""
        app = super().build_app()
        app.router.add_post("/v1/files", self._upload)
        app.router.add_get("/v1/files/{id}/content", self._file_content)
        app.router.add_post("/v1/batches", self._create_openai)
        app.router.add_get("/v1/batches", self._list_openai)
        app.router.add_get("/v1/batches/{id}", self._status_openai)
        app.router.add_post("/v1/messages/batches", self._create_anthropic)
        app.router.add_get("/v1/messages/batches/{id}", self._status_anthropic)
        app.router.add_get("/v1/messages/batches/{id}/results", self._anthropic_results)
        return app

    async def _upload(self, request: Any) -> Any:
        from aiohttp import web

        form = await request.post()
        upload = form.get("file")
        if form.get("purpose") != "batch" or upload is None or not hasattr(upload, "file"):
            return web.json_response({"error": {"message": "purpose=batch and a file are required"}}, status=400)
        file_id = f"file-{next(self._ids)}"
        self.files[file_id] = upload.file.read()
        return web.json_response(
            {"id": file_id, "object": "file", "purpose": "batch", "bytes": len(self.files[file_id])}
        )

    async def _file_content(self, request: Any) -> Any:
        from aiohttp import web

        content = self.files.get(request.match_info["id"])
        if content is None:
            return web.json_response({"error": {"message": "no such file"}}, status=404)
        return web.Response(body=content, content_type="application/jsonl")

    def _new_batch(self, kind: str, lines: list[dict[str, Any]]) -> str:
        number = len(self.batches)
        batch_id = f"{'batch' if kind == 'openai' else 'msgbatch'}_{next(self._ids)}"
        endings = self.behaviour.endings
        ending = endings[number] if number < len(endings) else "completed"
        self.batches[batch_id] = lines
        self._state[batch_id] = {"kind": kind, "number": number, "polls": 0, "ending": ending, "ended": False}
        return batch_id

    async def _create_openai(self, request: Any) -> Any:
        from aiohttp import web

        body = await request.json()
        content = self.files.get(str(body.get("input_file_id")))
        if content is None or body.get("endpoint") != "/v1/chat/completions" or body.get("completion_window") != "24h":
            return web.json_response({"error": {"message": "bad batch request"}}, status=400)
        lines = [json.loads(line) for line in content.decode().splitlines() if line.strip()]
        if any(line.get("method") != "POST" or line.get("url") != "/v1/chat/completions" for line in lines):
            return web.json_response({"error": {"message": "every line must POST /v1/chat/completions"}}, status=400)
        batch_id = self._new_batch("openai", lines)
        self._state[batch_id]["metadata"] = body.get("metadata")
        if self.behaviour.hang_after_create:
            await asyncio.sleep(3600)
        return web.json_response(self._openai_view(batch_id))

    async def _list_openai(self, request: Any) -> Any:
        """``GET /v1/batches?limit=&after=``: the OpenAI batches, newest first."""
        from aiohttp import web

        ids = [batch_id for batch_id in reversed(self.batches) if self._state[batch_id]["kind"] == "openai"]
        after = request.query.get("after")
        if after in ids:
            ids = ids[ids.index(after) + 1 :]
        limit = int(request.query.get("limit", "20"))
        page = [self._openai_view(batch_id) for batch_id in ids[:limit]]
        return web.json_response({"object": "list", "data": page, "has_more": len(ids) > limit})

    def _advance(self, batch_id: str) -> dict[str, Any]:
        state = self._state[batch_id]
        if not state["ended"] and not self.behaviour.paused:
            state["polls"] += 1
            if state["polls"] > self.behaviour.polls:
                self._finish(batch_id)
        return state

    def _answers(self, batch_id: str) -> list[tuple[str, str, Any]]:
        """``(custom_id, kind, payload)`` per request: ``ok`` (its body), ``error`` (status, type, text), ``none``."""
        state, lines, behaviour = self._state[batch_id], self.batches[batch_id], self.behaviour
        answered = len(lines) if state["ending"] == "completed" else int(len(lines) * behaviour.answered_share)
        out: list[tuple[str, str, Any]] = []
        for index, line in enumerate(lines):
            custom_id = str(line.get("custom_id"))
            first = state["number"] == 0
            if state["ending"] == "failed" or index >= answered:
                out.append((custom_id, "none", None))
            elif first and behaviour.error_every and (index + 1) % behaviour.error_every == 0:
                out.append((custom_id, "error", (400, "invalid_request_error", f"request {index} is invalid")))
            elif first and behaviour.transient_every and (index + 1) % behaviour.transient_every == 0:
                out.append((custom_id, "error", (500, "api_error", "internal error, try again")))
            else:
                body = line.get("body") or line.get("params") or {}
                out.append((custom_id, "ok", body))
        return out

    def _finish(self, batch_id: str) -> None:
        state = self._state[batch_id]
        state["ended"] = True
        answers = self._answers(batch_id)
        if state["kind"] == "openai":
            output, errors = self._openai_files(state["ending"], answers)
            for key, lines in (("output_file_id", output), ("error_file_id", errors)):
                if lines:
                    file_id = f"file-{next(self._ids)}"
                    self.files[file_id] = "".join(lines).encode()
                    state[key] = file_id
        else:
            self.files[f"results-{batch_id}"] = "".join(self._anthropic_lines(state["ending"], answers)).encode()

    def _hostile(self, first_line: str | None) -> list[str]:
        if not self.behaviour.hostile:
            return []
        extra = ["this is not json {\n", json.dumps({"custom_id": "nobody-sent-this", "result": {}}) + "\n"]
        return extra + ([first_line] if first_line else [])

    def _openai_files(self, ending: str, answers: list[tuple[str, str, Any]]) -> tuple[list[str], list[str]]:
        output: list[str] = []
        errors: list[str] = []
        for number, (custom_id, kind, payload) in enumerate(answers):
            if kind == "ok":
                response = {"status_code": 200, "request_id": f"req_{number}", "body": self.chat_body(payload, number)}
                output.append(
                    json.dumps({"id": f"br_{number}", "custom_id": custom_id, "response": response, "error": None})
                    + "\n"
                )
            elif kind == "error":
                status, error_type, message = payload
                response = {"status_code": status, "body": {"error": {"message": message, "type": error_type}}}
                errors.append(
                    json.dumps({"id": f"br_{number}", "custom_id": custom_id, "response": response, "error": None})
                    + "\n"
                )
            elif ending != "failed":
                code = "batch_expired" if ending == "expired" else "batch_cancelled"
                error = {"code": code, "message": f"not executed: the batch {ending}"}
                errors.append(
                    json.dumps({"id": f"br_{number}", "custom_id": custom_id, "response": None, "error": error}) + "\n"
                )
        return output + self._hostile(output[0] if output else None), errors

    def _openai_view(self, batch_id: str) -> dict[str, Any]:
        state = self._state[batch_id]
        status = state["ending"] if state["ended"] else "validating" if state["polls"] == 0 else "in_progress"
        view: dict[str, Any] = {
            "id": batch_id,
            "object": "batch",
            "endpoint": "/v1/chat/completions",
            "status": status,
            "output_file_id": state.get("output_file_id"),
            "error_file_id": state.get("error_file_id"),
            "request_counts": {"total": len(self.batches[batch_id])},
            "metadata": state.get("metadata"),
        }
        if status == "failed":
            view["errors"] = {"data": [{"code": "invalid_file", "message": "the input file failed validation"}]}
        return view

    async def _status_openai(self, request: Any) -> Any:
        from aiohttp import web

        batch_id = request.match_info["id"]
        if self._state.get(batch_id, {}).get("kind") != "openai":
            return web.json_response({"error": {"message": "no such batch"}}, status=404)
        if self.behaviour.status_error:
            return web.json_response({"error": {"message": "status unavailable"}}, status=self.behaviour.status_error)
        self._advance(batch_id)
        return web.json_response(self._openai_view(batch_id))

    async def _create_anthropic(self, request: Any) -> Any:
        from aiohttp import web

        body = await request.json()
        requests = body.get("requests")
        if not isinstance(requests, list) or not all(
            isinstance(r, dict) and isinstance(r.get("params"), dict) and r["params"].get("max_tokens")
            for r in requests
        ):
            return web.json_response(
                {"error": {"type": "invalid_request_error", "message": "bad requests"}}, status=400
            )
        return web.json_response(self._anthropic_view(self._new_batch("anthropic", requests)))

    def _anthropic_message(self, params: dict[str, Any], number: int) -> dict[str, Any]:
        messages = [{"role": m.get("role"), "content": _text_of(m.get("content"))} for m in params.get("messages", [])]
        reply = self.responder({**params, "messages": messages})
        text = reply.text if isinstance(reply, Reply) else str(reply)
        prompt = " ".join(m["content"] for m in messages)
        return {
            "id": f"msg_{number}",
            "type": "message",
            "role": "assistant",
            "model": params.get("model"),
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "usage": {"input_tokens": count_tokens(prompt), "output_tokens": count_tokens(text)},
        }

    def _anthropic_lines(self, ending: str, answers: list[tuple[str, str, Any]]) -> list[str]:
        lines: list[str] = []
        for number, (custom_id, kind, payload) in enumerate(answers):
            if kind == "ok":
                result: dict[str, Any] = {"type": "succeeded", "message": self._anthropic_message(payload, number)}
            elif kind == "error":
                _, error_type, message = payload
                result = {
                    "type": "errored",
                    "error": {"type": "error", "error": {"type": error_type, "message": message}},
                }
            else:
                result = {"type": "expired" if ending == "expired" else "canceled"}
            lines.append(json.dumps({"custom_id": custom_id, "result": result}) + "\n")
        ok = next((line for line in lines if '"succeeded"' in line), None)
        return lines + self._hostile(ok)

    def _anthropic_view(self, batch_id: str) -> dict[str, Any]:
        state = self._state[batch_id]
        view: dict[str, Any] = {
            "id": batch_id,
            "type": "message_batch",
            "processing_status": "ended" if state["ended"] else "in_progress",
            "request_counts": {"processing": 0 if state["ended"] else len(self.batches[batch_id])},
            "results_url": None,
            "cancel_initiated_at": None,
        }
        if state["ended"]:
            kinds = [kind for _, kind, _ in self._answers(batch_id)]
            view["request_counts"] = {
                "succeeded": kinds.count("ok"),
                "errored": kinds.count("error"),
                "expired": kinds.count("none") if state["ending"] == "expired" else 0,
                "canceled": kinds.count("none") if state["ending"] == "cancelled" else 0,
            }
            view["results_url"] = f"http://{self.host}:{self.port}/v1/messages/batches/{batch_id}/results"
            if state["ending"] == "cancelled":
                view["cancel_initiated_at"] = "2026-01-01T00:00:00Z"
        return view

    async def _status_anthropic(self, request: Any) -> Any:
        from aiohttp import web

        batch_id = request.match_info["id"]
        if self._state.get(batch_id, {}).get("kind") != "anthropic":
            return web.json_response({"error": {"type": "not_found_error", "message": "no such batch"}}, status=404)
        self._advance(batch_id)
        return web.json_response(self._anthropic_view(batch_id))

    async def _anthropic_results(self, request: Any) -> Any:
        from aiohttp import web

        content = self.files.get(f"results-{request.match_info['id']}")
        if content is None:
            return web.json_response({"error": {"type": "not_found_error", "message": "no results yet"}}, status=404)
        return web.Response(body=content, content_type="application/binary")
