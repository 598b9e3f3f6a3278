"""``replay/<run dir>``: answers from a logged run, matched by request; no answer is an error, not a guess."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from harness.adapters.base import checked_options
from harness.cache import request_key
from harness.errors import AdapterError, ConfigError
from harness.runformat import SAMPLES_FILE, RunFiles
from harness.types import GenerateRequest, Generation


class ReplayAdapter:
    """Serves the generations a run logged, for the same requests, in the order they were made."""

    capabilities = frozenset({"chat", "tools", "logprobs"})
    cacheable = False

    def __init__(self, run_dir: Path) -> None:
        self.name = f"replay/{run_dir}"
        self._answers: dict[str, list[Generation]] = defaultdict(list)
        self._served: dict[str, int] = defaultdict(int)
        files = RunFiles(run_dir)
        files.check_version()
        for result in files.results():
            for call in result.calls:
                self._answers[call.request_key].append(call.generation)

    async def generate(self, request: GenerateRequest) -> Generation:
        """The logged generation for this request (repeats of a request get the logged repeats)."""
        key = request_key(request)
        answers = self._answers.get(key)
        if not answers:
            raise AdapterError(f"{self.name} has no logged answer for this request (key {key[:12]})")
        index = min(self._served[key], len(answers) - 1)
        self._served[key] += 1
        return answers[index]


def create(rest: str, seed: int = 0, **options: object) -> ReplayAdapter:
    """Build from a run directory path (replay takes no ``-M`` options)."""
    checked_options("replay", options, {})
    run_dir = Path(rest).expanduser()
    if not RunFiles(run_dir).samples_path.is_file():
        raise ConfigError(f"replay: {run_dir} is not a run directory (no {SAMPLES_FILE})")
    return ReplayAdapter(run_dir)
