"""Chat prompts for local models: the GGUF's own chat template, and prompt-based tool calling.

Small instruction-tuned models rarely have a native tool-call format, and many chat
templates (Gemma's among them) accept only alternating user/assistant turns. So the
conversation is normalised first: tool results become user turns, an assistant's tool
calls become the JSON it would have written, consecutive turns of one role are joined,
and tool definitions are described in the system turn with the instruction to answer a
call as one JSON object ``{"name": ..., "arguments": {...}}``, which ``parse_tool_call``
reads back.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from harness.json_input import JsonInputError, parse_json
from harness.types import JsonDict, Message, ToolCall

if TYPE_CHECKING:
    from llama_cpp.llama_types import ChatCompletionRequestMessage

GEMMA_TEMPLATE = (
    "{{ bos_token }}{% set offset = 1 if messages and messages[0]['role'] == 'system' else 0 %}"
    "{% for message in messages[offset:] %}"
    "{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}"
    "{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}"
    "<start_of_turn>{{ 'model' if message['role'] == 'assistant' else message['role'] }}\n"
    "{% if loop.first and offset %}{{ messages[0]['content'] }}\n\n{% endif %}"
    "{{ message['content'] | trim }}<end_of_turn>\n{% endfor %}"
    "{% if add_generation_prompt %}<start_of_turn>model\n{% endif %}"
)
CHATML_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n{{ message['content'] }}<|im_end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)


def tool_instructions(tools: Sequence[JsonDict], tool_choice: str | JsonDict | None) -> str:
    """The system-prompt text that describes ``tools`` and how to call one."""
    lines = ["You can call these functions:"]
    for tool in tools:
        function = tool.get("function", tool)
        lines.append(
            json.dumps(
                {
                    "name": function.get("name"),
                    "description": function.get("description", ""),
                    "parameters": function.get("parameters", {}),
                },
                ensure_ascii=False,
            )
        )
    lines.append(
        'To call a function, reply with only a JSON object: {"name": "<function name>", '
        '"arguments": {<arguments>}}. Otherwise reply in plain text.'
    )
    if tool_choice == "required":
        lines.append("You must call one of the functions.")
    elif isinstance(tool_choice, dict):
        name = (tool_choice.get("function") or {}).get("name")
        if name:
            lines.append(f"You must call the function {name}.")
    return "\n".join(lines)


def _as_text(message: Message) -> str:
    parts = [message.content] if message.content else []
    parts += [
        json.dumps({"name": call.name, "arguments": _loads_or_raw(call.arguments)}, ensure_ascii=False)
        for call in message.tool_calls
    ]
    return "\n".join(parts)


def _loads_or_raw(text: str) -> Any:
    try:
        return parse_json(text, "tool-call arguments")
    except JsonInputError:
        return text


def template_messages(
    messages: Sequence[Message], tools: Sequence[JsonDict] = (), tool_choice: str | JsonDict | None = None
) -> list[dict[str, str]]:
    """``messages`` as alternating role/content dicts that strict chat templates accept."""
    system_parts: list[str] = []
    turns: list[dict[str, str]] = []
    for index, message in enumerate(messages):
        if message.role == "system" and index == 0:
            system_parts.append(message.content or "")
            continue
        if message.role == "tool":
            label = f"Result of function {message.name}" if message.name else "Function result"
            role, content = "user", f"{label}:\n{message.content or ''}"
        elif message.role == "assistant":
            role, content = "assistant", _as_text(message)
        else:
            role, content = "user", message.content or ""
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"] += "\n\n" + content
        elif not turns and role == "assistant" and index < len(messages) - 1:
            # strict templates (Gemma's) need a user turn first: an opening greeting (τ²'s agent) that the
            # conversation goes on from is context; a conversation of assistant turns alone is still refused
            system_parts.append(f"You opened the conversation with this message:\n{content}")
        else:
            turns.append({"role": role, "content": content})
    if tools and tool_choice != "none":
        system_parts.append(tool_instructions(tools, tool_choice))
    system = "\n\n".join(part for part in system_parts if part)
    return ([{"role": "system", "content": system}] if system else []) + turns


def parse_tool_call(text: str, tools: Sequence[JsonDict]) -> ToolCall | None:
    """The tool call in a reply that is one JSON object naming an offered function, else None."""
    stripped = text.strip()
    fenced = _FENCE.match(stripped)
    if fenced:
        stripped = fenced.group(1)
    if not stripped.startswith("{"):
        return None
    try:
        value = parse_json(stripped, "a tool call")
    except JsonInputError:
        return None
    names = {(tool.get("function", tool)).get("name") for tool in tools}
    if not isinstance(value, dict) or value.get("name") not in names:
        return None
    arguments = value.get("arguments", value.get("parameters", {}))
    if not isinstance(arguments, dict):
        return None
    return ToolCall(id="call_0", name=str(value["name"]), arguments=json.dumps(arguments, ensure_ascii=False))


ARCHITECTURE_TEMPLATES = {"gemma": GEMMA_TEMPLATE, "gemma2": GEMMA_TEMPLATE, "gemma3": GEMMA_TEMPLATE}


class ChatFormatter:
    """Renders messages with a model's Jinja chat template.

    A GGUF without one (base models such as the packaged Gemma 3 270M) gets its
    architecture's turn format when known (Gemma's ``<start_of_turn>`` turns), else ChatML.
    """

    def __init__(self, template: str | None, architecture: str, bos_token: str, eos_token: str) -> None:
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        chosen = template or ARCHITECTURE_TEMPLATES.get(architecture, CHATML_TEMPLATE)
        self._formatter = Jinja2ChatFormatter(
            template=chosen, eos_token=eos_token, bos_token=bos_token, add_generation_prompt=True
        )

    def render(self, messages: list[dict[str, str]]) -> str:
        """The prompt text, ending with the assistant's generation prompt."""
        # the role/content dicts template_messages builds are llama_cpp's request messages
        return self._formatter(messages=cast("list[ChatCompletionRequestMessage]", messages)).prompt
