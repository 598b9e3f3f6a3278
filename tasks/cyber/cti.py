"""CTI-Bench: multiple choice (CTI-MCQ), CVE to CWE (CTI-RCM) and CVSS prediction (CTI-VSP).

Each row's own ``Prompt`` column is the model input (the original protocol); the answer is
read from the last line of the output. See ``ctibench_data`` for where the TSVs come from.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from pydantic import Field

from harness.errors import ConfigError
from harness.task import Task, TaskArgs
from harness.types import Sample
from scorers.choice import normalise_letters
from scorers.cti_ids import normalise_cwe
from scorers.cvss_score import InvalidVector, parse_cvss3
from tasks.cyber.base import CvssVectorTask, CweTask, LetterChoiceTask
from tasks.cyber.ctibench_data import Row, load_subset

DATA_HELP = ("folder with the CTI-Bench cti-*.tsv files, or one .tsv file; default ../shared/data/cti-bench "
             "if present, else $FRONTIER_CTIBENCH_DATA, else the hub dataset AI4Sec/cti-bench (online only)")


class CtiArgs(TaskArgs):
    """Arguments shared by the CTI-Bench tasks."""

    data: str | None = Field(None, description=DATA_HELP)


class CtiRows(Task):
    """Loads one CTI-Bench subset and turns its rows into samples."""

    subset: str = ""
    required: Sequence[str] = ("Prompt", "GT")

    def rows(self) -> list[Row]:
        """The subset's rows, checked for the required columns."""
        args: CtiArgs = self.args  # type: ignore[assignment]
        return load_subset(args.data, self.subset, self.required)

    def target_of(self, row: Row, index: int) -> object:
        """The row's ground truth in the scorer's form; ConfigError naming the row if invalid."""
        raise NotImplementedError

    def samples(self) -> Iterator[Sample]:
        """One sample per row, input the row's original prompt."""
        for index, row in enumerate(self.rows()):
            prompt = row["Prompt"].strip()
            if not prompt:
                raise ConfigError(f"CTI-Bench {self.subset} row {index}: empty Prompt")
            metadata = {"row": index, "url": row.get("URL", "")}
            yield Sample(id=f"{self.subset}-{index:04d}", input=prompt, target=self.target_of(row, index),
                         metadata=metadata)

    def bad_row(self, index: int, message: str) -> ConfigError:
        """The error for an invalid row."""
        return ConfigError(f"CTI-Bench {self.subset} row {index}: {message}")


class CtiMcqTask(CtiRows, LetterChoiceTask):
    """CTI-MCQ: ATT&CK, CAPEC and CWE knowledge; one letter A-D on the last line."""

    description = "CTI-Bench CTI-MCQ: cyber threat intelligence multiple choice (accuracy)"
    version = "1"
    Args = CtiArgs
    subset = "cti-mcq"

    def target_of(self, row: Row, index: int) -> str:
        """The GT letter in uppercase (upstream has a lowercase ``b``)."""
        letter = normalise_letters(row["GT"])
        if letter is None or len(letter) != 1:
            raise self.bad_row(index, f"GT {row['GT']!r} is not one of A, B, C, D")
        return letter


class CtiRcmTask(CtiRows, CweTask):
    """CTI-RCM: map a CVE description to its CWE; the CWE id on the last line."""

    description = "CTI-Bench CTI-RCM: CVE description to CWE (accuracy)"
    version = "1"
    Args = CtiArgs
    subset = "cti-rcm"

    def target_of(self, row: Row, index: int) -> str:
        """The GT as ``CWE-<n>``."""
        cwe = normalise_cwe(row["GT"])
        if cwe is None:
            raise self.bad_row(index, f"GT {row['GT']!r} is not a CWE id")
        return cwe


class CtiRcm2021Task(CtiRcmTask):
    """CTI-RCM on the 2021 CVEs (upstream's ``cti-rcm-2021.tsv``)."""

    description = "CTI-Bench CTI-RCM-2021: 2021 CVE descriptions to CWE (accuracy)"
    subset = "cti-rcm-2021"


class CtiVspTask(CtiRows, CvssVectorTask):
    """CTI-VSP: predict the CVSS v3.1 vector; mean absolute deviation of base scores."""

    description = "CTI-Bench CTI-VSP: CVSS v3 vector prediction (MAD of base scores)"
    version = "1"
    Args = CtiArgs
    subset = "cti-vsp"

    def target_of(self, row: Row, index: int) -> str:
        """The GT vector, validated (``CVSS:3.0/`` and ``CVSS:3.1/`` both accepted)."""
        try:
            parse_cvss3(row["GT"])
        except InvalidVector as exc:
            raise self.bad_row(index, f"GT {row['GT'][:120]!r} is not a valid CVSS v3 vector: {exc}") from None
        return row["GT"].strip()
