"""What a run's failures mean to the person running it.

* Which model-call failures are permanent (HTTP 401/403/404, missing credentials, an
  unknown model): retrying them only wastes time, so the calling layer gives up at once.
* The reason of a run's first error and a hint at its fix (add ``/v1`` to a URL, set
  ``OPENAI_API_KEY``, start the server), printed on the terminal after the summary.
* The exit status of ``frontier run``: non-zero when no sample was scored, or when the
  share of errors is above ``--max-error-rate``.
* Leaving nothing behind: a run directory this command created that logged no sample
  is removed when the run fails before its first sample.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from harness.runformat import SAMPLES_FILE
from harness.types import SampleResult

FAILED_RUN_EXIT = 1
_PERMANENT = re.compile(
    r"HTTP (?:401|403|404)\b|\((?:401|403|404)\)|AuthenticationError|PermissionDeniedError|NotFoundError"
    r"|Missing credentials|api[_ ]key (?:is )?(?:missing|not set|required)|Incorrect API key|Invalid API key"
    r"|model_not_found|The model .{1,120} does not exist|Unknown model|LLM Provider NOT provided",
    re.IGNORECASE,
)
_HTTP_FROM = re.compile(r"HTTP (\d{3}) from (\S+):\s")
_KEY_VARIABLE = re.compile(r"\b([A-Z][A-Z0-9_]*_API_KEY)\b")
_CONNECTION = re.compile(r"connection to (\S+) failed|Connection refused|Cannot connect to host", re.IGNORECASE)


def is_permanent(message: str) -> bool:
    """True when a failed call's message says that asking again cannot succeed."""
    return bool(_PERMANENT.search(message))


def hint_for(message: str) -> str | None:
    """A one-line suggestion for the failure in ``message``, or None when there is nothing specific to say."""
    http = _HTTP_FROM.search(message)
    status, url = (int(http.group(1)), http.group(2).rstrip("/")) if http else (None, "")
    if status == 404 and url and not url.endswith("/v1"):
        return (
            f"the server answered 404 at {url}: OpenAI-compatible servers serve under /v1, "
            f"so try the model spec with @{url}/v1"
        )
    if status == 404 or re.search(r"NotFoundError|model_not_found|does not exist|Unknown model", message, re.I):
        return "the server does not know this URL or model: check the model name (and the URL's path)"
    if re.search(r"Missing credentials|api[_ ]key", message, re.IGNORECASE) and status not in (401, 403):
        variables = sorted(set(_KEY_VARIABLE.findall(message))) or ["OPENAI_API_KEY"]
        return f"no API key was found: set {' or '.join(variables[:2])} in the environment"
    if status in (401, 403) or re.search(r"AuthenticationError|PermissionDenied|Incorrect API key", message):
        return "the server refused the credentials: check the API key in the environment"
    connection = _CONNECTION.search(message)
    if connection:
        where = connection.group(1) or "the server's address"
        return f"nothing answered at {where}: is the server running, and is the host and port right?"
    return None


@dataclass(frozen=True)
class RunVerdict:
    """How a finished run went: counts, the first error, and the exit status it deserves."""

    total: int
    errors: int
    first_error: SampleResult | None
    exit_code: int

    def lines(self, max_error_rate: float | None) -> list[str]:
        """What to print on the terminal about the errors (nothing when there were none)."""
        if self.first_error is None:
            return []
        reason = self.first_error.score.explanation or "(no explanation recorded)"
        lines = [f"first error ({self.first_error.task} {self.first_error.sample_id}): {reason[:400]}"]
        hint = hint_for(reason)
        if hint:
            lines.append(f"hint: {hint}")
        if self.exit_code:
            if self.errors == self.total:
                lines.append(f"failed: all {self.total} sample(s) ended in error, none was scored")
            else:
                lines.append(
                    f"failed: {self.errors} of {self.total} sample(s) ended in error, "
                    f"more than --max-error-rate {max_error_rate:g}"
                )
        return lines


def judge_run(results: list[SampleResult], max_error_rate: float | None) -> RunVerdict:
    """The verdict on a run's results: failed when none was scored, or errors exceed ``max_error_rate``."""
    errors = [r for r in results if r.score.outcome == "error"]
    total = len(results)
    failed = bool(total) and len(errors) == total
    if max_error_rate is not None and total:
        failed = failed or len(errors) / total > max_error_rate
    return RunVerdict(
        total=total,
        errors=len(errors),
        first_error=errors[0] if errors else None,
        exit_code=FAILED_RUN_EXIT if failed else 0,
    )


def judge_run_dir(run_dir: Path, max_error_rate: float | None) -> RunVerdict:
    """:func:`judge_run` over the results logged in ``run_dir`` (each sample's last record)."""
    from harness.runlog import iter_results

    return judge_run(list(iter_results(run_dir / SAMPLES_FILE)), max_error_rate)


def discard_if_empty(run_dir: Path, existed_before: bool) -> bool:
    """Remove ``run_dir`` if this command created it and it logged no sample; True when removed."""
    if existed_before or not run_dir.is_dir():
        return False
    log = run_dir / SAMPLES_FILE
    if log.exists() and log.stat().st_size > 0:
        return False
    shutil.rmtree(run_dir, ignore_errors=True)
    return True


def resume_hint(run_dir: Path) -> str:
    """The line printed after an interrupt: what was kept and the command that resumes."""
    from harness.runlog import winning_lines

    logged = len(winning_lines(run_dir / SAMPLES_FILE)) if run_dir.is_dir() else 0
    return (
        f"interrupted: {logged} sample(s) logged in {run_dir} are kept; resume with: "
        f"frontier run --resume --out {run_dir}"
    )
