"""A JailbreakBench artifact as an import format (``frontier import --format jbb``).

Each jailbreak with a prompt becomes the output of the sample ``<behavior>@<method>/<model>``,
the id ``jailbreak/jbb -T attacks=<the same artifact>`` gives it, so the artifact's recorded
responses are scored (and, with ``-T judge=``, judged) as a model's would be. A pretty-printed
JSON document (a first line that is only ``{``) is recognised without ``--format``.
"""

from __future__ import annotations

from pathlib import Path

from harness.api import MAX_IMPORT_BYTES, ConfigError, ImportedText, ImportFormatSpec, read_json, refuse_duplicates
from tasks.jailbreak.attacks import read_artifact


def read_jbb_artifact(path: Path) -> list[ImportedText]:
    """The recorded responses of an artifact, keyed by the sample id each answers."""
    attacks = [a for a in read_artifact(read_json(path, MAX_IMPORT_BYTES), str(path)) if a.submitted]
    if not attacks:
        raise ConfigError(f"import: {path} has no jailbreak with a prompt")
    entries = [
        ImportedText(text=attack.recorded_response or "", line=number, sample_id=f"{attack.behavior_id}@{attack.key}")
        for number, attack in enumerate(attacks, start=1)
    ]
    refuse_duplicates(entries, str(path))
    return entries


JBB_ARTIFACT = ImportFormatSpec(
    help="a JailbreakBench artifact (JSON): its recorded responses,\nfor jailbreak/jbb -T attacks=<the artifact>",
    read=read_jbb_artifact,
    first_line=r"^\{$",
)
