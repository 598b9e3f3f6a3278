"""Batch inference: single-turn requests gathered into a provider's batch API at its batch price.

``frontier run --batch`` (or ``-M batch=true`` for the run's model) wraps every adapter whose
provider offers a batch endpoint (OpenAI's Batch API, Anthropic's Message Batches) in a
:class:`~harness.batch.session.BatchingAdapter`: requests wait in a :class:`~harness.batch.collector.
BatchCollector`, which submits them together, polls the batch with backoff and hands each
answer back by its ``custom_id``. The batches and which request of which sample each
``custom_id`` is live in the run directory (:mod:`harness.batch.state`), so a resumed run polls
a batch in flight instead of sending its requests again.
"""
