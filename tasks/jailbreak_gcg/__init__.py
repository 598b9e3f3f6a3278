"""Generating jailbreak attacks on white-box surrogate models: GCG and its multi-model variant (extra ``attack``).

``frontier attack gcg`` optimises adversarial suffixes with ``transformers`` + ``torch`` (imported
lazily) and writes the attacks JSONL file that the ``jailbreak`` family reads with ``-T attacks=``.
"""
