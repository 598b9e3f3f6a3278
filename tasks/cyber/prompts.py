"""Prompt wording of the original benchmark protocols, reused by the generated tasks.

CTI-Bench tasks send each row's own ``Prompt`` column; the generated tasks wrap their
items in the same CTI-Bench instructions so that results are comparable. CyberMetric and
SecEval prompts follow their evaluation scripts (CyberMetric_evaluator.py; SecEval eval.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from harness.api import Message

CTI_SYSTEM_PROMPT = "You are a cybersecurity expert specializing in cyberthreat intelligence."

VSP_INSTRUCTIONS = (
    "Analyze the following CVE description and calculate the CVSS v3.1 Base Score. Determine the values for "
    "each base metric: AV, AC, PR, UI, S, C, I, and A. Summarize each metric's value and provide the final "
    "CVSS v3.1 vector string.   Valid options for each metric are as follows: - **Attack Vector (AV)**: "
    "Network (N), Adjacent (A), Local (L), Physical (P) - **Attack Complexity (AC)**: Low (L), High (H) - "
    "**Privileges Required (PR)**: None (N), Low (L), High (H) - **User Interaction (UI)**: None (N), "
    "Required (R) - **Scope (S)**: Unchanged (U), Changed (C) - **Confidentiality (C)**: None (N), Low (L), "
    "High (H) - **Integrity (I)**: None (N), Low (L), High (H) - **Availability (A)**: None (N), Low (L), "
    "High (H)  Summarize each metric's value and provide the final CVSS v3.1 vector string. Ensure the final "
    "line of your response contains only the CVSS v3 Vector String in the following format:  Example format: "
    "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H  CVE Description: "
)

RCM_INSTRUCTIONS = (
    "Analyze the following {kind} and map it to the appropriate CWE. Provide a brief justification for your "
    "choice. Ensure the last line of your response contains only the CWE ID.  {label}: "
)

MCQ_TEMPLATE = (
    "You are given a multiple-choice question (MCQ) from a {source} knowledge benchmark dataset. Your task is "
    "to choose the best option among the four provided. Return your answer as a single uppercase letter: A, "
    "B, C, or D.  **Question:** {question}  **Options:** {options}  **Important:** The last line of your "
    "answer should contain only the single letter corresponding to the best option, with no additional text. "
)

TAA_FINAL_LINE = (
    "\n\nEnd your response with a final line of the form 'Threat actor: <name>' naming the single "
    "threat actor you attribute the incident to."
)

CYBERMETRIC_SYSTEM = "You are a security expert who answers questions."
CYBERMETRIC_TEMPLATE = (
    "Question: {question}\nOptions: {options}\n\nChoose the correct answer (A, B, C, or D) "
    "only. Always return in this format: 'ANSWER: X' "
)

SECEVAL_SYSTEM = (
    "Below are multiple-choice questions concerning cybersecurity. Please select the correct "
    "answers and respond with the letters ABCD only."
)
SECEVAL_COMMIT = "7aef317"  # XuanwuAI/SecEval: eval/eval.py, whose chat_few_shot is the example below
SECEVAL_SHOT_QUESTION = (
    "Question: Which mitigation prevent stack overflow bug? A: Stack Canary. B: ALSR. C: CFI. D: Code Signing."
)
SECEVAL_SHOT_ANSWER = "Answer: ABC"


def vsp_prompt(description: str) -> str:
    """The CTI-VSP instructions followed by ``description``."""
    return VSP_INSTRUCTIONS + description.strip() + " "


def rcm_prompt(text: str, kind: str = "CVE description", label: str = "CVE Description") -> str:
    """The CTI-RCM instructions for a ``kind`` of text (a CVE description, a bug report)."""
    return RCM_INSTRUCTIONS.format(kind=kind, label=label) + text.strip() + " "


def mcq_prompt(question: str, options: Sequence[str], source: str = "Cyber Threat Intelligence (CTI)") -> str:
    """The CTI-MCQ instructions for ``question`` with four options lettered A to D."""
    lettered = " ".join(f"{letter}) {option}" for letter, option in zip("ABCD", options, strict=False))
    return MCQ_TEMPLATE.format(source=source, question=question.strip(), options=lettered)


def cybermetric_messages(question: str, answers: Mapping[str, str]) -> tuple[Message, ...]:
    """CyberMetric's system and user messages for one question."""
    options = ", ".join(f"{key}) {value}" for key, value in answers.items())
    return (
        Message(role="system", content=CYBERMETRIC_SYSTEM),
        Message(role="user", content=CYBERMETRIC_TEMPLATE.format(question=question, options=options)),
    )


def seceval_messages(question: str, choices: Sequence[str]) -> tuple[Message, ...]:
    """SecEval's chat protocol: instruction, one worked example, then the question on one line."""
    text = ("Question: " + question + " ".join(choices)).replace("\n", " ")
    return (
        Message(role="system", content=SECEVAL_SYSTEM),
        Message(role="user", content=SECEVAL_SHOT_QUESTION),
        Message(role="assistant", content=SECEVAL_SHOT_ANSWER),
        Message(role="user", content=text),
    )
