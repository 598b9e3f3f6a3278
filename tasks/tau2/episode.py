"""The episode as τ²'s ``Orchestrator`` runs it, with both participants behind this project's adapters.

The loop is τ²'s: the agent greets (``Hi! How can I help you today?``), then messages pass
agent → user, user → agent, and agent/user → environment (every tool call of a message is
answered by τ²'s ``Environment.get_response``, failures counted as errors). Each pass is one
step; after a pass that is not addressed to the environment, ``max_steps`` (200) and
``max_errors`` (10) end the episode, overriding a stop in the same step exactly as τ² does.
The user ends it with ``###STOP###``, ``###TRANSFER###`` or ``###OUT-OF-SCOPE###``; τ²'s LLM
agent never stops by itself. A participant whose message is empty or whose tool arguments
are not a JSON object ends the episode (``agent_error`` / ``user_error``, where τ²'s run
fails); an adapter that gives up ends it with ``infrastructure_error``.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from harness.api import AdapterError, Generation, Message, swap_roles
from tasks.tau2.trajectory import episode_messages

if TYPE_CHECKING:
    from tau2.data_model.message import AssistantMessage, ToolMessage, UserMessage
    from tau2.data_model.message import Message as Tau2Message
    from tau2.environment.environment import Environment

GREETING = "Hi! How can I help you today?"
AGENT_INSTRUCTION = """
You are a customer service agent that helps the user according to the <policy> provided below.
In each turn you can either:
- Send a message to the user.
- Make a tool call.
You cannot do both at the same time.

Try to be helpful and always follow the policy. Always make sure you generate valid JSON only.
""".strip()
STOP_TOKENS = ("###STOP###", "###TRANSFER###", "###OUT-OF-SCOPE###")
SCORED_TERMINATIONS = ("user_stop", "agent_stop")
MAX_ARGUMENT_CHARS = 65_536

Participant = Callable[[tuple[Message, ...]], Awaitable[Generation]]


class ParticipantError(Exception):
    """A participant's message that τ² cannot take (empty, or tool arguments that are not an object)."""


def agent_system_prompt(policy: str) -> str:
    """τ²'s ``LLMAgent`` system prompt."""
    return f"<instructions>\n{AGENT_INSTRUCTION}\n</instructions>\n<policy>\n{policy}\n</policy>"


def user_system_prompt(guidelines: str, scenario: str) -> str:
    """τ²'s ``UserSimulator`` system prompt."""
    return f"{guidelines}\n\n<scenario>\n{scenario}\n</scenario>".strip()


def is_user_prompt(messages: tuple[Message, ...]) -> bool:
    """Whether a request is addressed to the user simulator (its system prompt ends with the scenario)."""
    return bool(messages) and messages[0].role == "system" and (messages[0].content or "").endswith("</scenario>")


def agent_view(system: str, history: list) -> tuple[Message, ...]:
    """The agent's request messages from its history, as τ²'s ``to_litellm_messages`` renders them."""
    return (Message(role="system", content=system), *episode_messages(history))


def user_view(system: str, history: list) -> tuple[Message, ...]:
    """The user simulator's request messages: τ²'s ``UserState.flip_roles`` (its own turns are 'assistant')."""
    return (Message(role="system", content=system), *(swap_roles(m) for m in episode_messages(history)))


def to_tau2_message(generation: Generation, role: str) -> AssistantMessage | UserMessage:
    """A generation as τ²'s message of ``role``; ParticipantError where τ² would fail."""
    from pydantic import ValidationError
    from tau2.data_model.message import AssistantMessage, UserMessage
    from tau2.data_model.message import ToolCall as Tau2ToolCall

    requestor = "user" if role == "user" else "assistant"
    calls = []
    for call in generation.tool_calls:
        if len(call.arguments) > MAX_ARGUMENT_CHARS:
            raise ParticipantError(f"{role} tool call {call.name!r}: arguments over {MAX_ARGUMENT_CHARS} characters")
        try:
            arguments = json.loads(call.arguments)
            calls.append(Tau2ToolCall(id=call.id, name=call.name, arguments=arguments, requestor=requestor))
        except (json.JSONDecodeError, RecursionError, ValidationError) as exc:
            raise ParticipantError(
                f"{role} tool call {call.name!r}: arguments are not a JSON object: {str(exc)[:200]}"
            ) from None
    kind = UserMessage if role == "user" else AssistantMessage
    message = kind(
        role=role,
        content=generation.text or None,
        tool_calls=calls or None,
        cost=generation.cost_usd,
        usage=generation.usage.model_dump(),
    )
    if not (message.has_text_content() or message.is_tool_call()):
        raise ParticipantError(f"{role} sent an empty message (no text and no tool calls)")
    return message


def is_user_stop(message: UserMessage) -> bool:
    """τ²'s ``UserSimulator.is_stop``."""
    return not message.is_tool_call() and any(token in (message.content or "") for token in STOP_TOKENS)


def user_ending(termination: str, trajectory: Sequence[Message]) -> dict[str, str] | None:
    """How the user ended the episode with its last turn (``{"role": "user", "signal": "stop"}``: the token's word,
    ``transfer`` and ``out-of-scope`` for the others), or None when it did not."""
    last = trajectory[-1] if trajectory else None
    if termination != "user_stop" or last is None or last.role != "user":
        return None
    token = next((token for token in STOP_TOKENS if token in (last.content or "")), None)
    return None if token is None else {"role": "user", "signal": token.strip("#").lower()}


@dataclass
class Episode:
    """What happened, in τ²'s terms: the trajectory, how it ended, steps and errors."""

    trajectory: list = field(default_factory=list)
    termination: str = ""
    steps: int = 0
    errors: int = 0
    error: str | None = None


@dataclass
class EpisodeRunner:
    """τ²'s orchestration state machine over one environment, one agent and one user."""

    env: Environment
    agent: Participant
    user: Participant
    agent_system: str
    user_system: str
    max_steps: int = 200
    max_errors: int = 10
    episode: Episode = field(default_factory=Episode)
    agent_history: list[Tau2Message] = field(default_factory=list, init=False)
    user_history: list[Tau2Message] = field(default_factory=list, init=False)

    async def run(self, history: list | None = None) -> Episode:
        """Run to the end, from the greeting or from a task's message ``history`` (the environment already
        replayed it); never raises for model, participant or tool failures."""
        from tau2.data_model.message import AssistantMessage

        if history:
            try:
                done = self._resume(history)
            except ValueError as exc:
                return self._end("unsupported", f"the task's message history is not valid: {exc}")
        else:
            greeting = AssistantMessage(role="assistant", content=GREETING, cost=0.0)
            self.episode.trajectory = [greeting]
            self.agent_history, self.user_history = [greeting], []
            self.message: object = greeting
            self.sender, self.receiver = "agent", "user"
            done = False
        self.env.sync_tools()
        while not done:
            try:
                done = await self._step()
            except ParticipantError as exc:
                reason = "user_error" if self.receiver == "user" else "agent_error"
                return self._end(reason, str(exc))
            except AdapterError as exc:
                return self._end("infrastructure_error", f"{self.receiver}: {exc}")
            self.episode.steps += 1
            self.env.sync_tools()
            if self.receiver == "env":
                continue
            if self.episode.steps >= self.max_steps:
                done, self.episode.termination = True, "max_steps"
            if self.episode.errors >= self.max_errors:
                done, self.episode.termination = True, "too_many_errors"
        return self.episode

    def _resume(self, history: list) -> bool:
        """τ²'s ``Orchestrator.initialize`` from a message history: who speaks next and what each side has seen."""
        from tau2.agent.base import is_valid_agent_history_message as for_agent
        from tau2.data_model.message import AssistantMessage, UserMessage
        from tau2.orchestrator.orchestrator import Orchestrator
        from tau2.user.base import is_valid_user_history_message as for_user

        Orchestrator.validate_message_history(history)
        last = history[-1]
        self.episode.trajectory, self.message = list(history), last
        head = history[:-1]
        if isinstance(last, AssistantMessage):
            self.sender, self.receiver = "agent", "env" if last.is_tool_call() else "user"
            agent_seen, user_seen = history, head
        elif isinstance(last, UserMessage):
            self.sender, self.receiver = "user", "env" if last.is_tool_call() else "agent"
            agent_seen, user_seen = head, history
        elif last.requestor == "assistant":
            self.sender, self.receiver = "env", "agent"
            agent_seen, user_seen = head, history
        else:
            self.sender, self.receiver = "env", "user"
            agent_seen, user_seen = history, head
        self.agent_history = [m for m in agent_seen if for_agent(m)]
        self.user_history = [m for m in user_seen if for_user(m)]
        if isinstance(last, UserMessage) and is_user_stop(last):
            self.episode.termination = "user_stop"
            return True
        return False

    def _end(self, reason: str, error: str) -> Episode:
        self.episode.termination, self.episode.error = reason, error
        return self.episode

    def _deliver(self, history: list) -> None:
        if isinstance(self.message, list):
            history.extend(self.message)
        else:
            history.append(self.message)

    async def _step(self) -> bool:
        """One pass of τ²'s ``Orchestrator.step``; True when the episode is over."""
        if self.receiver == "user":
            self._deliver(self.user_history)
            generation = await self.user(user_view(self.user_system, self.user_history))
            message = to_tau2_message(generation, "user")
            self.user_history.append(message)
            stop = is_user_stop(message)
            if stop:
                self.episode.termination = "user_stop"
            return self._sent(message, "user", stop)
        if self.receiver == "agent":
            self._deliver(self.agent_history)
            generation = await self.agent(agent_view(self.agent_system, self.agent_history))
            message = to_tau2_message(generation, "assistant")
            self.agent_history.append(message)
            return self._sent(message, "agent", False)
        responses: list[ToolMessage] = []
        for call in self.message.tool_calls:  # type: ignore[attr-defined]
            response = self.env.get_response(call)
            self.episode.errors += bool(response.error)
            responses.append(response)
        self.episode.trajectory.extend(responses)
        self.message = responses if len(responses) > 1 else responses[0]
        self.sender, self.receiver = "env", self.sender
        return False

    def _sent(self, message: AssistantMessage | UserMessage, sender: str, stop: bool) -> bool:
        self.episode.trajectory.append(message)
        self.message = message
        self.sender = sender
        if message.is_tool_call():
            self.receiver = "env"
        else:
            self.receiver = "agent" if sender == "user" else "user"
        return stop
