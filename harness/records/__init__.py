"""Definitions of the core records, one module per kind; import them from :mod:`harness.types`.

``base`` (the frozen record and the JSON text of records), ``chat`` (messages, samples and requests),
``usage`` (token counts and cost), ``generation`` (what a model call returned), ``results`` (scores and
``samples.jsonl`` lines) and ``summaries`` (``summary.json``). These modules are private to the
harness and may move; :mod:`harness.types` re-exports every public name.
"""
