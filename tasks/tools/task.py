"""The harness tasks: ``tools/<domain>`` (built-in domains) and ``tools-synth/<spec>`` (synthesized).

``solve`` runs one episode with ``ctx.model`` as the agent and a scripted (default) or LLM
user, and returns an Output holding every logged call, so that ``score`` can evaluate
from the Output alone (rescoring a log never calls a model).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import Field, ValidationError

from harness.adapters.base import close_adapter
from harness.summary import Accumulator, CombinedAccumulator, MetricsAccumulator, fold
from harness.task import GenerationSettings, SolveContext, Task, TaskArgs
from harness.types import GenerateRequest, Generation, Message, MetricValue, Output, Sample, SampleResult, Score
from tasks.tools.evaluator import evaluate
from tasks.tools.framework.environment import Domain, Environment
from tasks.tools.metrics import EpisodeAccumulator
from tasks.tools.oracle import reference_generation
from tasks.tools.orchestrator import Episode, run_episode
from tasks.tools.taskformat import TauTask
from tasks.tools.users import LlmUser, LoggedCall, ScriptedUser, UserSimulator, default_script

if TYPE_CHECKING:
    from harness.calls import LabelledAdapter


class ToolsArgs(TaskArgs):
    """Arguments shared by the tool-use tasks."""

    trials: int = Field(1, ge=1, le=64, description="episodes per task; sample ids get '#<trial>'")
    max_steps: int = Field(40, ge=2, le=1000, description="agent generations plus user turns per episode")
    max_errors: int = Field(10, ge=1, le=1000, description="failed agent tool calls that end the episode")
    user_model: str | None = Field(None, description="adapter spec of an LLM user; scripted user when unset")
    judge_model: str | None = Field(None, description="adapter spec that judges NL assertions; unset: not evaluated")


ToolsArgsT = TypeVar("ToolsArgsT", bound=ToolsArgs, covariant=True)


class ToolsTaskBase(Task[ToolsArgsT]):
    """A conversation in a stateful environment, judged by the state it leaves behind."""

    version = "1"
    settings = GenerationSettings(max_tokens=1024, temperature=0.0)
    multi_turn = True

    def domain(self) -> Domain:
        """The domain this task runs in."""
        raise NotImplementedError

    def tau_tasks(self) -> list[TauTask]:
        """The domain's validated τ² tasks."""
        return self.domain().tasks()

    def samples(self) -> Iterator[Sample]:
        """One sample per task and trial, in task order."""
        args = self.args
        domain = self.domain()
        for task in self.tau_tasks():
            for trial in range(args.trials):
                suffix = f"#{trial}" if args.trials > 1 else ""
                instructions = task.user_scenario.instructions
                opening = instructions if isinstance(instructions, str) else instructions.reason_for_call
                yield Sample(
                    id=f"{domain.name}-{task.id}{suffix}",
                    input=opening,
                    metadata={"domain": domain.name, "task": task.model_dump(mode="json"), "trial": trial},
                )

    @staticmethod
    def _task_of(sample: Sample) -> TauTask:
        return TauTask.model_validate(sample.metadata["task"])

    async def solve(self, sample: Sample, ctx: SolveContext) -> Output:
        """Run the episode and record what the evaluator needs."""
        from harness.calls import auxiliary_model  # lazily: the adapters pull in HTTP clients

        args = self.args
        task, domain = self._task_of(sample), self.domain()
        env = Environment(domain, task.initial_state)
        closers: list[LabelledAdapter] = []
        user: UserSimulator
        if args.user_model:
            user_adapter = auxiliary_model(args.user_model, "user")
            closers.append(user_adapter)
            user_tools = domain.user_toolkit.openai_tools() if domain.user_toolkit else ()
            user = LlmUser(user_adapter, task, tools=user_tools, seed=ctx.seed)
        else:
            user = ScriptedUser(default_script(task))

        async def agent(messages: tuple[Message, ...], tools: tuple[dict[str, Any], ...]) -> Generation:
            return await ctx.generate(messages, tools=tools, tool_choice="auto")

        try:
            episode = await run_episode(env, agent, user, max_steps=args.max_steps, max_errors=args.max_errors)
            judgements = None
            if args.judge_model and task.criteria().nl_assertions:
                from tasks.tools.judge import judge_assertions

                judge = auxiliary_model(args.judge_model, "judge")
                closers.append(judge)
                judgements = await judge_assertions(
                    judge, tuple(episode.messages), list(task.criteria().nl_assertions or [])
                )
        finally:
            for adapter in closers:
                await close_adapter(adapter)
        return episode_output(domain, task, env, episode, user, judgements)

    def score(self, sample: Sample, output: Output) -> Score:
        """Evaluate from the Output alone; malformed data is unscored, never an exception."""
        data = output.data
        if data.get("termination") == "infrastructure_error":
            return Score.error(f"episode ended by an infrastructure error: {data.get('error')}")
        try:
            task = self._task_of(sample)
            calls = [
                {"side": str(c["side"]), "name": str(c["name"]), "arguments": str(c["arguments"])}
                for c in data.get("calls", [])
            ]
            if any(c["side"] not in ("assistant", "user") for c in calls):
                raise ValueError("a logged call has an unknown side")
            judgements = data.get("nl_judgements")
            texts = [m.content for m in output.trajectory if m.role == "assistant" and m.content]
            if not output.trajectory and output.text:
                texts = [output.text]
            verdict = evaluate(self.domain(), task, calls, texts, judgements if isinstance(judgements, list) else None)
        except (KeyError, TypeError, ValueError, ValidationError) as exc:
            return Score.unscored(f"the episode record cannot be evaluated: {type(exc).__name__}: {str(exc)[:300]}")
        details = {
            "components": verdict.components,
            "termination": data.get("termination"),
            "tool_errors": data.get("tool_errors"),
        }
        if verdict.reward is None:
            return Score.unscored(verdict.explanation, **details)
        return Score.of(
            verdict.reward == 1.0,
            answer=str(data.get("termination")),
            explanation=verdict.explanation,
            reward=verdict.reward,
            **details,
        )

    def reference_output(self, sample: Sample, request: GenerateRequest) -> Generation:
        """The oracle: the next gold action as a tool call, then a closing message."""
        return reference_generation(self._task_of(sample), request)

    def random_output(self, sample: Sample, request: GenerateRequest, rng: random.Random) -> str:
        """A reply that does nothing in the environment (scores 0 on every task)."""
        return rng.choice(("I am sorry, I cannot help with that.", "Could you tell me more?", "Thank you for waiting."))

    def accumulator(self, seed: int = 0) -> Accumulator:
        """:meth:`aggregate` one result at a time, holding per episode only what its metrics need."""
        return CombinedAccumulator(MetricsAccumulator(self.metrics(), seed=seed), EpisodeAccumulator(seed))

    def aggregate(self, results: Iterable[SampleResult], seed: int = 0) -> dict[str, MetricValue]:
        """The default accuracy plus pass^k / pass@k, termination shares, tool errors and cost."""
        return fold(self.accumulator(seed), results)


def episode_output(
    domain: Domain,
    task: TauTask,
    env: Environment,
    episode: Episode,
    user: UserSimulator,
    judgements: list[dict[str, Any]] | None,
) -> Output:
    """The Output of an episode: trajectory, logged calls, end-state hashes and statistics."""
    calls: list[LoggedCall] = episode.calls
    data = {
        "domain": domain.name,
        "task_id": task.id,
        "termination": episode.termination,
        "steps": episode.steps,
        "tool_errors": episode.tool_errors,
        "error": episode.error,
        "calls": [c.to_json() for c in calls],
        "final_hashes": env.hashes(),
        "user_usage": user.usage.model_dump(),
        "user_cost_usd": user.cost_usd,
        "nl_judgements": judgements,
    }
    return Output(text=episode.final_text(), trajectory=tuple(episode.messages), data=data)


class DomainTask(ToolsTaskBase[ToolsArgs]):
    """``toolsim/<domain>`` (formerly ``tools/<domain>``): a look-alike domain with its authored tasks, not τ²-bench."""

    description = (
        "look-alike of τ²-style tool use, NOT τ²-bench (own authored domain and tools; offline smoke of the "
        "orchestration); τ²-bench itself is tau2/<domain>"
    )

    def domain(self) -> Domain:
        """The built-in domain named after the slash."""
        from tasks.tools.domains.registry import get_domain

        return get_domain(self.name.split("/", 1)[1])
