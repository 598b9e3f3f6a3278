"""Simulated users: a scripted one for offline runs and tests, and an LLM one driven by any adapter.

Both answer the agent's latest message, may operate their own device (user-side tools)
first, and end the conversation with a stop token: ``###STOP###`` when the task is done,
``###TRANSFER###`` when handed to a human, ``###OUT-OF-SCOPE###`` when the scenario does
not cover what the agent asks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from harness.types import GenerateRequest, Generation, Message, ToolCall, Usage
from tasks.tools.framework.environment import Environment
from tasks.tools.taskformat import StructuredInstructions, TauTask

STOP = "###STOP###"
TRANSFER = "###TRANSFER###"
OUT_OF_SCOPE = "###OUT-OF-SCOPE###"
STOP_TOKENS = {STOP: "user_stop", TRANSFER: "transfer", OUT_OF_SCOPE: "out_of_scope"}
MAX_USER_TOOL_ROUNDS = 8


@dataclass(frozen=True)
class LoggedCall:
    """One tool call made during an episode, by either side, with what it returned."""

    side: str
    name: str
    arguments: str
    content: str
    error: bool

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "side": self.side,
            "name": self.name,
            "arguments": self.arguments,
            "content": self.content,
            "error": self.error,
        }


class UserSimulator(Protocol):
    """Answers the agent; ``agent_text`` is None for the opening message."""

    usage: Usage
    cost_usd: float

    async def respond(self, agent_text: str | None, env: Environment, log: list[LoggedCall]) -> str:
        """The user's next message (may contain a stop token)."""
        ...


@dataclass(frozen=True)
class UserTurn:
    """One scripted turn: device actions to perform, then what to say."""

    content: str
    actions: tuple[tuple[str, dict[str, Any]], ...] = ()


def scenario_text(task: TauTask) -> str:
    """The scenario as prose for a user simulator's instructions."""
    instructions = task.user_scenario.instructions
    parts = [f"Persona: {task.user_scenario.persona}"] if task.user_scenario.persona else []
    if isinstance(instructions, StructuredInstructions):
        parts += [f"Reason for call: {instructions.reason_for_call}"]
        if instructions.known_info:
            parts.append(f"Known info: {instructions.known_info}")
        if instructions.unknown_info:
            parts.append(f"Unknown info (you do not know this; never invent it): {instructions.unknown_info}")
        parts.append(f"Task instructions: {instructions.task_instructions}")
    else:
        parts.append(instructions)
    return "\n".join(parts)


def default_script(task: TauTask) -> list[UserTurn]:
    """The scripted user's turns: the request with everything known, then each group of device actions."""
    instructions = task.user_scenario.instructions
    if isinstance(instructions, StructuredInstructions):
        opening = " ".join(x.strip() for x in (instructions.reason_for_call, instructions.known_info or "") if x)
    else:
        opening = instructions.strip()
    turns = [UserTurn(f"{opening} I confirm every change I asked for, so please go ahead.")]
    group: list[tuple[str, dict[str, Any]]] = []
    for action in [*task.gold_actions(), None]:
        if action is not None and action.requestor == "user":
            group.append((action.name, action.arguments))
            continue
        if group:
            names = ", ".join(name for name, _ in group)
            turns.append(UserTurn(f"Done, I did that on my phone ({names}).", tuple(group)))
            group = []
    return turns


ACTION_VERBS = frozenset({"toggle", "reset", "reseat", "set", "turn", "enable", "disable", "check", "run", "open"})
MAX_UNHELPFUL_TURNS = 2


def action_keyword(name: str) -> str:
    """What an agent must mention to ask for a device action: the tool name without its verb."""
    words = name.split("_")
    if len(words) > 1 and words[0] in ACTION_VERBS:
        words = words[1:]
    return " ".join(words)


def mentions(agent_text: str | None, name: str) -> bool:
    """Whether the agent's message asks for the device action ``name``."""
    text = " ".join((agent_text or "").lower().replace("_", " ").split())
    return action_keyword(name) in text


@dataclass
class ScriptedUser:
    """Plays its turns in order, one per agent message, then says ``###STOP###``.

    A turn with device actions performs only the actions the agent's message asks for
    (by mentioning them); the turn is over once all are done. After two agent messages
    that ask for none of them, the user gives up.
    """

    turns: list[UserTurn]
    position: int = 0
    done: int = 0
    unhelpful: int = 0
    usage: Usage = field(default_factory=Usage)
    cost_usd: float = 0.0

    async def respond(self, agent_text: str | None, env: Environment, log: list[LoggedCall]) -> str:
        """The next scripted turn, after running the device actions the agent asked for."""
        if self.position >= len(self.turns):
            return STOP
        turn = self.turns[self.position]
        remaining = list(turn.actions[self.done :])
        performed = []
        while remaining and mentions(agent_text, remaining[0][0]):
            name, arguments = remaining.pop(0)
            text = json.dumps(arguments)
            result = env.call("user", name, text)
            log.append(LoggedCall("user", name, text, result.content, result.error))
            performed.append(f"{name}: {result.content}")
            self.done += 1
        if not remaining:
            self.position, self.done = self.position + 1, 0
            return turn.content if not performed else f"{turn.content} Results: {'; '.join(performed)}"
        if performed:
            return f"I did that ({'; '.join(performed)}). What next?"
        self.unhelpful += 1
        if self.unhelpful > MAX_UNHELPFUL_TURNS:
            return STOP
        return "I don't know what to do on my phone. What exactly should I do?"


USER_GUIDELINES = f"""You are playing a customer talking to a customer-service agent. Follow the scenario below.
Rules:
- Say one short message at a time, in the first person, as the customer. Never play the agent.
- Give only information the scenario gives you, when it is needed. Never invent ids or details;
  if asked for something you do not know, say you do not know it.
- When the agent asks you to do something on your phone, use your tools to do it, then say what you see.
- When your request is fully handled, or cannot be handled, reply with exactly {STOP}.
- If you are transferred to a human agent, reply with exactly {TRANSFER}.
- If the agent asks about something the scenario does not cover at all, reply with exactly {OUT_OF_SCOPE}.
"""


class LlmUser:
    """A user simulator backed by a model adapter; the agent's messages are its 'user' turns."""

    def __init__(
        self,
        adapter: Any,
        task: TauTask,
        tools: tuple[dict[str, Any], ...] = (),
        temperature: float = 0.0,
        max_tokens: int = 512,
        seed: int | None = None,
    ) -> None:
        self.adapter = adapter
        self.tools = tools
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.seed = seed
        self.messages: list[Message] = [
            Message(role="system", content=f"{USER_GUIDELINES}\n# Scenario\n{scenario_text(task)}")
        ]
        self.usage = Usage()
        self.cost_usd = 0.0

    async def _generate(self) -> Generation:
        request = GenerateRequest(
            messages=tuple(self.messages),
            tools=self.tools,
            tool_choice="auto" if self.tools else None,
            temperature=self.temperature,
            max_tokens=self.max_tokens,
            seed=self.seed,
        )
        generation = await self.adapter.generate(request)
        self.usage = self.usage + generation.usage
        self.cost_usd += generation.cost_usd or 0.0
        return generation

    async def respond(self, agent_text: str | None, env: Environment, log: list[LoggedCall]) -> str:
        """Ask the model for the user's next message, running its device tool calls first."""
        self.messages.append(
            Message(role="user", content=agent_text if agent_text is not None else "Hi! How can I help you today?")
        )
        for _ in range(MAX_USER_TOOL_ROUNDS):
            generation = await self._generate()
            calls: tuple[ToolCall, ...] = generation.tool_calls
            self.messages.append(Message(role="assistant", content=generation.text or None, tool_calls=calls))
            if not calls:
                return generation.text
            for call in calls:
                result = env.call("user", call.name, call.arguments)
                log.append(LoggedCall("user", call.name, call.arguments, result.content, result.error))
                self.messages.append(Message(role="tool", tool_call_id=call.id, name=call.name, content=result.content))
        return STOP
