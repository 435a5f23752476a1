"""The offline default model on two engines, side by side: llama.cpp (llama-cpp-python, compiled at install)
and transformers + llguidance (wheels only), on the same few-shot BasePair prompts under the same JSON grammar.

    python benchmarks/bench_local_engines.py               # 3 prompts per engine, 2 threads
    python benchmarks/bench_local_engines.py --prompts 5 --threads 2 --engines llamacpp
    python benchmarks/bench_local_engines.py --prompts 2 --rebuild   # first load: dequantise the GGUF again

Prints per engine: model load (s; for transformers each step of it), per prompt the prompt/answer tokens
and seconds, answer tokens/s (including prompt processing, as a run sees it), the process CPU seconds per prompt (all threads: what a
quiet machine's wall time approaches, times the threads' share), and the ratio transformers /
llama.cpp; the machine's load (``os.getloadavg``) before and after each engine. The transformers engine
loads the same Gemma 3 270M GGUF, dequantised once to float32 and cached as a Hugging Face checkpoint
beside the GGUF (:func:`cached_checkpoint`: ``hf-<sha256[:16]>-float32/``, model.safetensors and the
converted tokenizer.json; later loads hash the GGUF and read that folder), and decodes greedily under
llguidance's token mask of the same JSON schema with one-sentence strings (the grammar fbagent's llama.cpp
provider builds: ``providers/local.py``). Needs the ``local`` extra (llama-cpp-python) and transformers,
accelerate, gguf and llguidance. Measured results and the verdict (issue 42): docs/backends.md.
"""

from __future__ import annotations

import argparse
import json
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


def gguf_sha256(path: str) -> str:
    """SHA-256 of the GGUF file (hex), read in 4 MiB blocks."""
    import hashlib

    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 22), b""):
            h.update(block)
    return h.hexdigest()


def cached_checkpoint(path: str, dtype: str = "float32") -> tuple[str, dict[str, float]]:
    """The GGUF at ``path`` dequantised once into a Hugging Face folder beside it
    (``<gguf folder>/hf-<sha256[:16]>-<dtype>/``: model.safetensors, config.json, tokenizer.json, ...),
    built in a temporary folder and renamed into place; later calls only hash the file.
    Returns the folder and the seconds of each step (``hash``, and on the first call ``tokenizer``,
    ``dequantise``, ``save``)."""
    import shutil
    import tempfile

    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    times: dict[str, float] = {}
    t = time.perf_counter()
    key = gguf_sha256(path)
    times["hash"] = time.perf_counter() - t
    folder, name = os.path.dirname(path), os.path.basename(path)
    target = os.path.join(folder, f"hf-{key[:16]}-{dtype}")
    if os.path.isfile(os.path.join(target, "model.safetensors")):
        return target, times
    tmp = tempfile.mkdtemp(prefix=".hf-", dir=folder)
    try:
        t = time.perf_counter()
        tok = AutoTokenizer.from_pretrained(folder, gguf_file=name)
        times["tokenizer"] = time.perf_counter() - t
        t = time.perf_counter()
        model = AutoModelForCausalLM.from_pretrained(folder, gguf_file=name, dtype=getattr(torch, dtype))
        times["dequantise"] = time.perf_counter() - t
        t = time.perf_counter()
        model.hf_quantizer = None     # the GGUF "quantizer" only dequantised at load: the weights are plain tensors
        if hasattr(model.config, "quantization_config"):
            del model.config.quantization_config
        model.save_pretrained(tmp)
        tok.save_pretrained(tmp)
        with open(os.path.join(tmp, "source.json"), "w") as f:
            json.dump({"gguf": name, "sha256": key, "dtype": dtype}, f)
        os.replace(tmp, target)
        times["save"] = time.perf_counter() - t
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target, times


def bench_transformers(texts: list[str], threads: int, dtype: str = "float32") -> dict[str, Any]:
    import llguidance
    import llguidance.torch
    import tokenizers
    import torch
    from transformers import AutoModelForCausalLM, LogitsProcessor, LogitsProcessorList

    from fbagent.providers.gguf import default_gguf_path

    torch.set_num_threads(threads)
    torch.manual_seed(0)
    path = default_gguf_path()
    t = time.perf_counter()
    ckpt, steps = cached_checkpoint(path, dtype)
    t1 = time.perf_counter()
    tok = tokenizers.Tokenizer.from_file(os.path.join(ckpt, "tokenizer.json"))   # the same ids as transformers'
    with open(os.path.join(ckpt, "tokenizer_config.json")) as f:                  # GemmaTokenizer, in half the time
        eos = tok.token_to_id(json.load(f)["eos_token"])
    steps["tokenizer (cached)"] = time.perf_counter() - t1
    t1 = time.perf_counter()
    model = AutoModelForCausalLM.from_pretrained(ckpt, dtype=getattr(torch, dtype)).eval()
    steps["model (cached)"] = time.perf_counter() - t1
    t1 = time.perf_counter()
    with open(os.path.join(ckpt, "tokenizer.json")) as f:
        lltok = llguidance.LLTokenizer(f.read(), eos_token=eos)
    steps["llguidance tokenizer"] = time.perf_counter() - t1
    load = time.perf_counter() - t
    schema = BasePair.model_json_schema()
    for prop in schema["properties"].values():
        prop.update({"pattern": f"^{SENTENCE}$", "maxLength": 200})
    grammar = llguidance.LLMatcher.grammar_from_json_schema(json.dumps(schema),
                                                            defaults={"whitespace_flexible": False})

    class Mask(LogitsProcessor):
        def __init__(self) -> None:
            self.matcher = llguidance.LLMatcher(lltok, grammar)
            self.bits = llguidance.torch.allocate_token_bitmask(1, lltok.vocab_size)
            self.first = True

        def __call__(self, input_ids: Any, scores: Any) -> Any:
            if not self.first:
                self.matcher.consume_token(int(input_ids[0, -1]))
            self.first = False
            llguidance.torch.fill_next_token_bitmask(self.matcher, self.bits, 0)
            llguidance.torch.apply_token_bitmask_inplace(scores, self.bits)
            return scores

    rows = []
    for text in texts:
        ids = torch.tensor([tok.encode(text).ids])
        t, c = time.perf_counter(), time.process_time()
        with torch.inference_mode():
            out = model.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=512, do_sample=False,
                                 eos_token_id=eos, logits_processor=LogitsProcessorList([Mask()]))
        dt, cpu = time.perf_counter() - t, time.process_time() - c
        n_in = ids.shape[1]
        rows.append((n_in, out.shape[1] - n_in, dt, tok.decode(out[0, n_in:].tolist(), skip_special_tokens=True), cpu))
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
    ap.add_argument("--dtype", default="float32", help="transformers' weights: float32 | bfloat16")
    ap.add_argument("--rebuild", action="store_true", help="remove the cached checkpoint first (time the first load)")
    args = ap.parse_args()
    texts = prompts(args.prompts)
    if args.rebuild:
        import glob
        import shutil

        from fbagent.providers.gguf import default_gguf_path

        for folder in glob.glob(os.path.join(os.path.dirname(default_gguf_path() or "."), f"hf-*-{args.dtype}")):
            shutil.rmtree(folder)
    speed = {}
    for engine in args.engines.split(","):
        before = os.getloadavg()[0]
        res = bench_llamacpp(texts, args.threads) if engine == "llamacpp" else bench_transformers(texts, args.threads, args.dtype)
        speed[engine] = report(engine, res, before, os.getloadavg()[0])
    if len(speed) == 2:
        print(f"ratio transformers / llama.cpp (answer tokens/s): {speed['transformers'] / speed['llamacpp']:.2f}")


if __name__ == "__main__":
    main()
