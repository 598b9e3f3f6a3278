"""SMILES comparison with RDKit: canonical forms of bounded-length strings, errors silenced."""

from __future__ import annotations

import re
from functools import lru_cache

MAX_SMILES_CHARS = 2000
SMILES_CHARS = re.compile(r"^[A-Za-z0-9@+\-\[\]()=#$:/\\.%*]+$")


@lru_cache(maxsize=4096)
def canonical(smiles: str) -> str | None:
    """RDKit's canonical SMILES of ``smiles``; None when it is not a valid, bounded SMILES.

    A string RDKit rejects is retried with ``:`` bonds removed (upstream LongCoT's reading
    of maximum-common-substructure answers written as ``C:C:N``).
    """
    text = smiles.strip()
    if not text or len(text) > MAX_SMILES_CHARS or not SMILES_CHARS.match(text):
        return None
    from rdkit import Chem, rdBase

    rdBase.DisableLog("rdApp.*")
    for candidate in (text, text.replace(":", "")):
        mol = Chem.MolFromSmiles(candidate)
        if mol is not None:
            return Chem.MolToSmiles(mol)
    return None


def same_molecule(a: str, b: str) -> bool:
    """True when the strings are equal (stripped), or both are valid SMILES of the same molecule.

    Equal text counts even when RDKit cannot parse it: LongCoT's hard3 answers include
    maximum-common-substructure strings such as ``O=N(O)C1:C:C:C(C:C:CO):C:C:1`` that no
    parser reads, and an exact reproduction of the reference is right.
    """
    if a.strip() == b.strip() and a.strip():
        return True
    ca, cb = canonical(a), canonical(b)
    return ca is not None and ca == cb
