"""``frontier serve``: expose any adapter as an OpenAI-compatible server on this machine."""

from __future__ import annotations

import click

from harness.cli.options import MODEL_OPTION, parse_option_values

EPILOG = """\b
Examples:
  frontier serve local/gemma-3-270m --port 8000
  frontier serve local/~/models/qwen2.5-0.5b-instruct-q4_k_m.gguf -M n_ctx=4096
  frontier serve openai/gpt-4o-mini --port 8001

\b
Then point any OpenAI client at http://127.0.0.1:8000/v1, for example
  frontier run --task demo/arith --model openai-compatible/gemma@http://127.0.0.1:8000/v1
  (litellm: model="openai/gemma", api_base="http://127.0.0.1:8000/v1", api_key="none")
"""


@click.command("serve", epilog=EPILOG)
@click.argument("spec")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="TCP port.")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to bind; the default keeps the server on this machine.",
)
@click.option("--name", "model_id", default=None, help="Model id reported to clients (default: the spec).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed for requests that do not set one.")
@MODEL_OPTION
def serve_command(
    spec: str, port: int, host: str, model_id: str | None, seed: int, model_option: tuple[str, ...]
) -> None:
    """Serve SPEC (any adapter: local/..., openai/..., openai-compatible/...) over OpenAI's HTTP API."""
    from harness.adapters import resolve_adapter
    from harness.serve import serve_forever

    adapter = resolve_adapter(spec, seed=seed, **parse_option_values(model_option))
    load = getattr(adapter, "load", None)
    if load is not None:
        click.echo(f"loading {spec} ...", err=True)
        load()
    serve_forever(adapter, host=host, port=port, model_id=model_id, announce=lambda line: click.echo(line, err=True))
