"""Cybersecurity evaluations: the CTI-Bench family, CyberMetric, SecEval and generated tasks.

Importing the family is cheap: heavy libraries (pandas, datasets, cvss, cwe2) are imported
only when samples are loaded or answers scored.
"""

from harness.api import TaskFamily
from tasks.cyber.cti import CtiMcqTask, CtiRcm2021Task, CtiRcmTask, CtiVspTask
from tasks.cyber.cti_ate import CtiAteTask
from tasks.cyber.cti_taa import CtiTaaTask
from tasks.cyber.gen_cvss import GenCvssTask
from tasks.cyber.gen_cwe import GenCweTask
from tasks.cyber.gen_mcq import GenMcqTask
from tasks.cyber.mcq_sets import CyberMetricTask
from tasks.cyber.seceval import SecEvalTask

FAMILY = TaskFamily.of(
    ("cyber/cti-mcq", CtiMcqTask),
    ("cyber/cti-rcm", CtiRcmTask),
    ("cyber/cti-rcm-2021", CtiRcm2021Task),
    ("cyber/cti-vsp", CtiVspTask),
    ("cyber/cti-ate", CtiAteTask),
    ("cyber/cti-taa", CtiTaaTask),
    ("cyber/cybermetric", CyberMetricTask),
    ("cyber/seceval", SecEvalTask),
    ("cyber-gen/cvss", GenCvssTask),
    ("cyber-gen/cwe", GenCweTask),
    ("cyber-gen/mcq", GenMcqTask),
)
