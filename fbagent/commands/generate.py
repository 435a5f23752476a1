"""`fbagent generate`: write FrameBench entries with LangGraph agents (the main job)."""

from __future__ import annotations

from typing import Annotated

import typer

from fbagent.commands.generation_options import (
    BaseUrlOption,
    ConcurrencyOption,
    EncoderOption,
    GeneratorOption,
    LlmRetriesOption,
    ModelOption,
    ModelPathOption,
    SurfaceVerbMatchOption,
    TargetPrecisionOption,
    TimeoutOption,
    VerifierBaseUrlOption,
    VerifierGeneratorOption,
    VerifierModelOption,
    VerifierSignalOption,
)
from fbagent.commands.options import DbOption, db_path, name_check
from fbagent.commands.output import secho
from fbagent.commands.selection_options import (
    ExcludeRelatedOption,
    MaxPerVerbOption,
    MinExamplesOption,
    RequireCoreFeOption,
    RequireDefinitionOption,
)


def register(app: typer.Typer) -> None:
    """Add the `generate` command to the root app."""

    @app.command("generate")
    def generate_cmd(
        pairs: Annotated[int, typer.Option("--pairs", "-p", help="Number of frame pairs to select (P); required.")],
        lexicon: Annotated[str | None, typer.Option(
            "--lexicon", callback=name_check("lexicon name"), help="Lexicon name (see `fbagent lexicon list`). Default: the only/first one; "
            "with none in the database the embedded sample is imported.")] = None,
        per_pair: Annotated[int, typer.Option("--per-pair", "-k", help="Entries per frame pair (K).")] = 1,
        seed: Annotated[int, typer.Option("--seed", help="Seed of the pair sample and of sampling for k >= 1.")] = 0,
        generator: GeneratorOption = "local",
        model: ModelOption = None,
        base_url: BaseUrlOption = None,
        model_path: ModelPathOption = None,
        verifier_generator: VerifierGeneratorOption = None,
        verifier_model: VerifierModelOption = None,
        verifier_base_url: VerifierBaseUrlOption = None,
        encoder: EncoderOption = None,
        concurrency: ConcurrencyOption = 4,
        max_retries: Annotated[int, typer.Option(
            "--max-retries", help="R: new generate_base / extend attempts after a failed self-check.")] = 2,
        llm_retries: LlmRetriesOption = 3,
        timeout: TimeoutOption = 60.0,
        similarity_threshold: Annotated[float, typer.Option(
            "--similarity-threshold", help="Minimum lexical similarity of S_A and S_B, verb masked (0..1).")] = 0.5,
        near_copy_threshold: Annotated[float, typer.Option(
            "--near-copy-threshold", help="S_x' must have similarity to S_x below this (0..1).")] = 0.7,
        margin: Annotated[str, typer.Option(
            "--margin", help="A sentence passes when sim_own - sim_other > margin (cosine difference), or 'auto': the "
            "smallest margin reaching --target-precision on the lexicon's latest `fbagent verifier calibrate`.")] = "0.0",
        target_precision: TargetPrecisionOption = 0.9,
        verifier: VerifierSignalOption = "roundtrip",
        max_per_verb: MaxPerVerbOption = None,
        min_examples: MinExamplesOption = 0,
        require_definition: RequireDefinitionOption = True,
        require_core_fe: RequireCoreFeOption = True,
        exclude_related: ExcludeRelatedOption = True,
        run: Annotated[str | None, typer.Option(
            "--run", callback=name_check("run name"), help="Run name. Default: derived from lexicon, generator, seed and options, so the same "
            "command resumes the same run.")] = None,
        dry_run: Annotated[bool, typer.Option("--dry-run", help="Print the plan (entries, calls, tokens); call nothing.")] = False,
        screen: Annotated[bool | None, typer.Option(
            "--screen/--no-screen", help="LLM screening of the selected pairs (rejected ones replaced from the reserve). "
            "Default: on for a chat model, off for a base model (prompt style fewshot).", show_default=False)] = None,
        prompt_style: Annotated[str, typer.Option(
            "--prompt-style", help="auto | chat | fewshot. chat: instruction prompts (chat models, every API model); "
            "fewshot: completion prompts with worked examples under the JSON grammar (base models); auto: fewshot "
            "for a local GGUF without a chat template, else chat. Recorded with the run.")] = "auto",
        judge: Annotated[bool, typer.Option(
            "--judge", help="The verifier also answers the four-choice question, both pairs, both orders.")] = False,
        surface_verb_match: SurfaceVerbMatchOption = False,
        db: DbOption = None,
    ) -> None:
        """Generate FrameBench entries: select frame pairs, then per entry generate_base -> self_check
        (retry with feedback) -> extend -> verify (SemBench round trip). Resumable: run it again.

        A new run reuses the newest stored selection of the lexicon with the same selection options that no
        run uses (e.g. one made by `fbagent pairs select`), else makes one; the line it prints says which."""
        import asyncio

        from fbagent.commands.generate_view import GenerateView
        from fbagent.generation import GenerateOptions, generate
        from fbagent.verifier.margin import parse_margin

        margin, margin_auto = parse_margin(margin)
        opts = GenerateOptions(
            pairs=pairs, lexicon=lexicon, per_pair=per_pair, seed=seed, generator=generator, model=model,
            base_url=base_url, model_path=str(model_path) if model_path else None,
            verifier_generator=verifier_generator, verifier_model=verifier_model,
            verifier_base_url=verifier_base_url, encoder=encoder, concurrency=concurrency, max_retries=max_retries,
            llm_retries=llm_retries, timeout_s=timeout, similarity_threshold=similarity_threshold,
            near_copy_threshold=near_copy_threshold, margin=margin, max_per_verb=max_per_verb, run=run,
            dry_run=dry_run, screen=screen, judge=judge, min_examples=min_examples,
            require_definition=require_definition, require_core_fe=require_core_fe, exclude_related=exclude_related,
            margin_auto=margin_auto, target_precision=target_precision, verifier=verifier, prompt_style=prompt_style,
            surface_verb_match=surface_verb_match,
        )
        view = GenerateView()
        try:
            summary = asyncio.run(generate(db_path(db), opts, on_event=view))
        except KeyboardInterrupt:  # Typer would turn it into a silent exit 130
            secho("interrupted: everything finished so far is stored; run the same command again to resume.",
                        err=True)
            raise typer.Exit(130) from None
        finally:
            view.close()
        if summary.session_failed:  # nothing achieved: say why and fail, the stored rows stay
            secho(f"error: {summary.session_failed}", err=True)
            raise typer.Exit(1)
