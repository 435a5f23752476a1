"""The offline default model on two engines, side by side: llama.cpp (llama-cpp-python, compiled at install)
and transformers + llguidance (wheels only), on the same few-shot BasePair prompts under the same JSON grammar.

    python benchmarks/bench_local_engines.py               # 3 prompts per engine, 2 threads
    python benchmarks/bench_local_engines.py --prompts 5 --threads 2 --engines llamacpp
    python benchmarks/bench_local_engines.py --prompts 2 --rebuild   # first load: dequantise the GGUF again

Prints per engine: model load (s; for transformers each step of it), per prompt the prompt/answer tokens
and seconds, answer tokens/s (including prompt processing, as a run sees it), the process CPU seconds per prompt (all threads: what a
quiet machine's wall time approaches, times the threads' share), and the ratio transformers /
llama.cpp; the machine's load (``os.getloadavg``) before and after each engine. The transformers engine
is fbagent's offline default itself (``fbagent.providers.embedded``: the same Gemma 3 270M GGUF converted
once to a float32 checkpoint, ``fbagent models prepare``; greedy decoding under llguidance's mask of the same
JSON schema with one-sentence strings, as the llama.cpp provider's grammar, ``providers/local.py``). Needs
the ``local`` extra and, for llama.cpp, the ``llama`` extra. Measured results (issue 42): docs/backends.md.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

from fbagent.prompting.messages import load_prompts
from fbagent.schemas import BasePair

VERBS = [  # (verb, frame A meaning/use, frame B meaning/use) as the sample lexicon words them
    ("hold", ("have something in one's hands or arms", "She held the cup."),
     ("have a particular belief or opinion", "She holds strong views.")),
    ("run", ("move fast on foot", "He ran to the station."), ("manage or be in charge of", "She runs a shop.")),
    ("draw", ("make a picture with a pencil", "He drew a horse."), ("pull something out", "She drew a sword.")),
    ("break", ("separate into pieces", "The glass broke."), ("fail to keep a rule or promise", "He broke the law.")),
    ("carry", ("hold and move something", "She carried the box."), ("have as a feature", "The job carries risks.")),
]
SENTENCE = r'(?:[^"\\.!?\x00-\x1F\x7F]|[.!?][A-Za-z0-9.])*[.!?]?'   # one sentence, as one_sentence_strings


def prompts(n: int) -> list[str]:
    """``n`` few-shot BasePair prompts (the run's own template, ``prompts/generate/en/fewshot_base.toml``)."""
    p = load_prompts("en", "fewshot")
    out = []
    for verb, (ma, ua), (mb, ub) in VERBS[:n]:
        fa = {"definition": ma, "lu_definition": ma, "examples": [{"text": ua}]}
        fb = {"definition": mb, "lu_definition": mb, "examples": [{"text": ub}]}
        out.append(p.base_messages(verb, fa, fb)[0]["content"])
    return out


def bench_llamacpp(texts: list[str], threads: int) -> dict[str, Any]:
    from fbagent.providers.local import LlamaCppBackend

    t = time.perf_counter()
    b = LlamaCppBackend(n_threads=threads, prompt_style="fewshot")
    load = time.perf_counter() - t
    schema = BasePair.model_json_schema()
    rows = []
    for text in texts:
        t, c = time.perf_counter(), time.process_time()
        out = b._complete_text({"messages": [{"role": "user", "content": text}], "max_tokens": 512,
                                "temperature": 0.0, "seed": 0}, schema)
        dt, cpu = time.perf_counter() - t, time.process_time() - c
        rows.append((out["usage"]["prompt_tokens"], out["usage"]["completion_tokens"], dt,
                     out["choices"][0]["message"]["content"], cpu))
    b.close()
    return {"load_s": load, "rows": rows}


def cpu_seconds() -> float:
    """CPU seconds of this process so far (user + system, all threads)."""
    import resource

    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def bench_transformers(texts: list[str], threads: int) -> dict[str, Any]:
    """The offline default engine as fbagent runs it (:class:`fbagent.providers.embedded.EmbeddedBackend`:
    the GGUF converted once to a float32 checkpoint, greedy decoding under llguidance's JSON-schema mask)."""
    import asyncio

    from fbagent.providers.embedded import EmbeddedBackend
    from fbagent.providers.hooks import CallHooks

    t, c = time.perf_counter(), cpu_seconds()
    b = EmbeddedBackend(threads=threads, prompt_style="fewshot")
    steps = {"convert": b.conversion_s or 0.0}
    b.wait_loaded()
    b._llg_tokenizer()
    load = time.perf_counter() - t
    steps["load CPU"] = cpu_seconds() - c
    rows = []
    for text in texts:
        t, c = time.perf_counter(), cpu_seconds()
        raw: list[Any] = []
        hooks = CallHooks(response=raw.append)
        pair = asyncio.run(b.create(response_model=BasePair, messages=[{"role": "user", "content": text}],
                                    temperature=0.0, max_tokens=512, seed=0, max_reasks=0, hooks=hooks))
        dt, cpu = time.perf_counter() - t, cpu_seconds() - c
        n_in, n_out = b.usage(raw[-1]) if raw else (0, 0)
        rows.append((n_in, n_out, dt, pair.model_dump_json(), cpu))
    return {"load_s": load, "steps": steps, "rows": rows}


def report(name: str, res: dict[str, Any], before: float, after: float) -> float:
    rows = res["rows"]
    answer = sum(r[1] for r in rows)
    secs = sum(r[2] for r in rows)
    extra = " (" + ", ".join(f"{k} {v:.1f} s" for k, v in res["steps"].items()) + ")" if "steps" in res else ""
    print(f"{name}: load {res['load_s']:.1f} s{extra}; load average {before:.2f} -> {after:.2f}")
    for n_in, n_out, dt, text, cpu in rows:
        print(f"  {n_in} prompt + {n_out} answer tokens in {dt:.1f} s (CPU {cpu:.1f} s, all threads)  {text[:100]!r}")
    print(f"  {answer / secs:.2f} answer tokens/s (incl. prompt processing), {secs:.1f} s for {len(rows)} prompts")
    return answer / secs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--prompts", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--engines", default="llamacpp,transformers")
    ap.add_argument("--rebuild", action="store_true", help="remove the converted checkpoint first (time the conversion)")
    args = ap.parse_args()
    texts = prompts(args.prompts)
    if args.rebuild:
        import shutil

        from fbagent.providers.gguf import default_gguf_path
        from fbagent.providers.gguf_checkpoint import checkpoint_folder

        shutil.rmtree(checkpoint_folder(default_gguf_path() or ""), ignore_errors=True)
    speed = {}
    for engine in args.engines.split(","):
        before = os.getloadavg()[0]
        res = bench_llamacpp(texts, args.threads) if engine == "llamacpp" else bench_transformers(texts, args.threads)
        speed[engine] = report(engine, res, before, os.getloadavg()[0])
    if len(speed) == 2:
        print(f"ratio transformers / llama.cpp (answer tokens/s): {speed['transformers'] / speed['llamacpp']:.2f}")


if __name__ == "__main__":
    main()
