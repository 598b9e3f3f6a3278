"""ConFiQA: context-faithfulness under knowledge conflicts (QA, MR, MC), real and generated."""

from harness.api import TaskFamily
from tasks.confiqa.task import ConFiQAFileTask, ConFiQAGenTask

FAMILY = TaskFamily.of(
    ("confiqa/qa", ConFiQAFileTask),
    ("confiqa/mr", ConFiQAFileTask),
    ("confiqa/mc", ConFiQAFileTask),
    ("confiqa-gen/qa", ConFiQAGenTask),
    ("confiqa-gen/mr", ConFiQAGenTask),
    ("confiqa-gen/mc", ConFiQAGenTask),
)
