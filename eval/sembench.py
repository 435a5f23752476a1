"""``fbagent eval sembench``: SemBench round-trip evaluation on a dictionary with senses.

SemBench scores a model by a round trip through its own words, judged by a
sentence encoder:

- mode ``ex`` (example -> definition): the model reads a dictionary example
  of word w in sense s and writes a definition D of w as used there;
- mode ``def`` (definition -> example -> definition): the model writes an
  example sentence E for w in sense s from its gloss, then (a second call,
  same model) a definition D of w as used in E.

D is correct against a distractor sense d when it is closer to the gloss of
s than to the gloss of d (cosine of sentence-encoder embeddings,
:func:`fbagent.verifier.roundtrip.score_texts`, margin 0: the ONE implementation shared
with the generation verifier).

Distractor difficulty (bins by rank, per instance): the other senses of the
same word are sorted by the encoder cosine between their gloss and the
target gloss; ``easy`` = the least similar, ``mid`` = the median one (index
``n // 2`` in ascending order), ``hard`` = the most similar, ``rand`` = one
drawn at random (seeded). Words need at least ``min_senses`` (default 4)
senses so that easy, mid and hard are three different senses. Each
generated definition is scored against all four distractors, so one run
gives the accuracy per difficulty on the same generations.

Dictionaries: WordNet 3.0 (:mod:`fbagent.eval.wordnet`) or a JSONL file, one
word per line: ``{"word": ..., "pos": ..., "senses": [{"definition": ...,
"examples": [...]}, ...]}`` (``"definitions"`` with strings is accepted too).
Sampling (words, target sense, random distractor, k-shot examples) is seeded.
Generation is free (no constraint) through the same backends.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from fbagent.errors import FbagentError
from fbagent.eval.jsonl import jsonl_objects
from fbagent.eval.metrics import sembench_summary
from fbagent.eval.runner import ResultWriter, base_versions, generate_all
from fbagent.eval.sembench_items import Instance, SemBenchData, Shot
from fbagent.eval.sembench_sets import by_file_summary, load_instance_files
from fbagent.eval.task import EvalTask, run_task
from fbagent.eval.wordnet import DictWord, Sense, find_wordnet_dir, load_wordnet, wordnet_words
from fbagent.languages import language_name
from fbagent.limits import DEFAULT_N_BOOT
from fbagent.progress.events import OnEvent, callbacks, chain
from fbagent.prompting.files import PromptTemplate, load_prompt, prompt_exists
from fbagent.providers.base import Backend, BackendInfo, ReasoningConfig, TextResult
from fbagent.seeds import DEFAULT_SEED
from fbagent.verifier.encoder import embed
from fbagent.verifier.roundtrip import score_texts

MODES = ("def", "ex")
CHUNK = 20  # instances generated, scored and stored together (a crash loses at most one chunk)
DIFFICULTIES = ("easy", "mid", "hard", "rand")


@dataclass
class SemBenchSettings:
    """Options of one ``eval sembench`` run."""

    mode: str = "ex"
    dictionary: str = "wordnet"
    wordnet_dir: Path | None = None
    pos: str = "v"
    instances: int = 100
    min_senses: int = 4
    shots: int = 0
    lang: str = "en"
    seed: int = DEFAULT_SEED
    max_new_tokens: int = 48
    encoder: str | None = None
    concurrency: int | None = None
    batch_size: int | None = None
    n_boot: int = DEFAULT_N_BOOT
    #: SemBench's own test sets (:mod:`fbagent.eval.sembench_sets`): score exactly these instances
    instances_files: list[Path] | None = None


#: the fix of a --dictionary file that is not JSONL of words
DICTIONARY_FIX = ('write one JSON object per line, {"word": ..., "pos": ..., "senses": [{"definition": ..., '
                  '"examples": [...]}]}, or pass --dictionary wordnet')


def read_dictionary_jsonl(path: Path, pos: str | None, min_senses: int) -> list[DictWord]:
    """Read a JSONL dictionary (see the module docstring). Bad line -> :class:`FbagentError` with ``file:line``."""
    path = Path(path)
    if path.is_dir():
        raise FbagentError(f"dictionary {path} is a folder, not a file", "pass --dictionary wordnet or a JSONL file")
    if not path.is_file():
        raise FbagentError(f"dictionary {path} does not exist", "pass --dictionary wordnet or an existing JSONL file")
    words = []
    # the whole file may be another kind (a word list, a JSON array): the fix names the layout, not just the line
    for where, obj in jsonl_objects(path, DICTIONARY_FIX):
        if not isinstance(obj, dict) or not isinstance(obj.get("word"), str) or not obj["word"].strip():
            raise FbagentError(f"{where}: needs a 'word' string", 'write {"word": ..., "pos": ..., "senses": [...]}')
        raw = obj.get("senses", obj.get("definitions"))
        if not isinstance(raw, list):
            raise FbagentError(f"{where}: needs a 'senses' list", 'write "senses": [{"definition": ..., "examples": [...]}]')
        senses, seen = [], set()
        for i, s in enumerate(raw):
            if isinstance(s, str):
                s = {"definition": s}
            if not isinstance(s, dict) or not isinstance(s.get("definition"), str):
                raise FbagentError(f"{where}: sense {i + 1} has no 'definition' string",
                                   'write each sense as {"definition": ..., "examples": [...]} (or a string)')
            d = s["definition"].strip()
            if d and d not in seen:
                seen.add(d)
                ex = [e for e in s.get("examples") or [] if isinstance(e, str) and e.strip()]
                senses.append(Sense(str(s.get("key") or f"{obj['word']}.{i + 1}"), d, ex))
        wpos = str(obj.get("pos") or "")
        if pos and wpos and wpos != pos:
            continue
        if len(senses) >= min_senses:
            words.append(DictWord(obj["word"].strip(), wpos, senses))
    return words


def _word_in(example: str, word: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(word)}", example, flags=re.IGNORECASE) is not None


def load_words(settings: SemBenchSettings) -> tuple[list[DictWord], dict]:
    """Eligible words of the dictionary and a description for the manifest."""
    if settings.dictionary == "wordnet":
        folder = find_wordnet_dir(settings.wordnet_dir)
        wn = load_wordnet(folder)
        words = wordnet_words(wn, settings.pos, settings.min_senses)
        return words, {"name": "wordnet", "version": wn.get_version(), "path": str(folder)}
    words = read_dictionary_jsonl(Path(settings.dictionary), settings.pos, settings.min_senses)
    for w in words:  # JSONL examples: keep those that contain the word form
        for s in w.senses:
            s.examples = [e for e in s.examples if _word_in(e, w.word)] or s.examples
    return words, {"name": "jsonl", "path": str(settings.dictionary)}


def choose_distractors(target_emb: np.ndarray, other_embs: np.ndarray, rng: random.Random) -> dict[str, int]:
    """Indices of the easy / mid / hard / rand distractors among the other senses (see module docstring)."""
    sims = other_embs @ target_emb
    order = np.argsort(sims, kind="stable")
    return {"easy": int(order[0]), "mid": int(order[len(order) // 2]), "hard": int(order[-1]),
            "rand": rng.randrange(len(order))}


def sample_instances(words: list[DictWord], settings: SemBenchSettings) -> SemBenchData:
    """Seeded sample of ``settings.instances`` words (one target sense each) plus a pool of k-shot examples.

    Mode ``ex`` needs a target sense with an example. Distractors are chosen
    with the encoder (one batch for all glosses). Raises :class:`FbagentError`
    when too few words qualify.
    """
    rng = random.Random(f"{settings.seed}|sembench")
    order = list(words)
    rng.shuffle(order)
    need_example = settings.mode == "ex"
    picked: list[tuple[DictWord, int]] = []
    shots: list[Shot] = []
    for w in order:
        with_ex = [i for i, s in enumerate(w.senses) if s.examples]
        if len(picked) < settings.instances:
            cands = with_ex if need_example else list(range(len(w.senses)))
            if cands:
                picked.append((w, rng.choice(cands)))
                continue
        elif len(shots) < max(8, settings.shots * 4) and with_ex:
            s = w.senses[rng.choice(with_ex)]
            shots.append(Shot(w.word, w.pos, s.definition, s.examples[0]))
        if len(picked) >= settings.instances and len(shots) >= max(8, settings.shots * 4):
            break
    if len(picked) < settings.instances:
        raise FbagentError(f"only {len(picked)} words qualify for {settings.instances} instances "
                           f"(pos {settings.pos}, >= {settings.min_senses} senses"
                           + (", an example for the target sense" if need_example else "") + ")",
                           "lower --instances or --min-senses, or use another --pos")
    texts = [s.definition for w, _ in picked for s in w.senses]
    embs = embed(texts, settings.encoder)
    instances, k = [], 0
    for w, ti in picked:
        n = len(w.senses)
        e = embs[k:k + n]
        k += n
        others = [i for i in range(n) if i != ti]
        irng = random.Random(f"{settings.seed}|{w.word}|{w.pos}|{w.senses[ti].key}")
        picks = choose_distractors(e[ti], e[others], irng)
        target = w.senses[ti]
        instances.append(Instance(
            instance_id=f"{w.word}|{w.pos}|{target.key}", word=w.word, pos=w.pos, target=target,
            example=irng.choice(target.examples) if (need_example and target.examples) else None,
            distractors={d: w.senses[others[j]] for d, j in picks.items()},
            distractor_similarity={d: round(float(e[others[j]] @ e[ti]), 6) for d, j in picks.items()},
        ))
    return SemBenchData(instances=instances, shots=shots)


def load_instances(settings: SemBenchSettings) -> SemBenchData:
    """Dictionary -> sampled instances (checks the mode and loads the encoder; no model call).

    With ``settings.instances_files`` the instances are those files' lines, as they are
    (:func:`fbagent.eval.sembench_sets.load_instance_files`).
    """
    if settings.mode not in MODES:
        raise FbagentError(f"unknown --mode {settings.mode!r}", "use --mode def or --mode ex")
    if settings.instances_files:
        return load_instance_files(settings.instances_files, settings.mode)
    words, desc = load_words(settings)
    data = sample_instances(words, settings)
    data.dictionary = {**desc, "eligible_words": len(words)}
    return data


class SemBenchPrompts:
    """The prompt files: ``roundtrip/<lang>/define_from_example.txt`` (shared with the generation verifier),
    ``sembench/<lang>/example_from_definition.txt`` and ``sembench/<lang>/few_shot.txt``."""

    def __init__(self, lang: str) -> None:
        def pick(task: str, name: str) -> PromptTemplate:
            own = f"{task}/{lang}/{name}"
            return load_prompt(own if prompt_exists(own) else f"{task}/generic/{name}")

        self.language = language_name(lang)
        self.define = pick("roundtrip", "define_from_example.txt")
        self.example = pick("sembench", "example_from_definition.txt")
        self.wrapper = pick("sembench", "few_shot.txt")

    @property
    def versions(self) -> dict[str, str]:
        return {"define": self.define.version, "example": self.example.version, "few_shot": self.wrapper.version}

    def _wrap(self, task: str, cue_key: str, shots: list[tuple[str, str]]) -> str:
        cue = self.wrapper.meta.get(cue_key, "")
        block = "".join(f"{t}\n{cue} {a}\n\n" for t, a in shots)
        return self.wrapper.render(shots=block, task=task, cue=cue).rstrip()

    def define_task(self, word: str, example: str) -> str:
        return self.define.render(word=word, example=example, language=self.language).rstrip()

    def example_task(self, word: str, pos: str, definition: str) -> str:
        pos_name = self.example.meta.get(f"pos_{pos}", pos)
        return self.example.render(word=word, pos_name=pos_name, definition=definition, language=self.language).rstrip()

    def define_prompt(self, word: str, example: str, shots: list[Shot]) -> str:
        """Prompt for a definition of ``word`` as used in ``example`` (k-shot: gold glosses of other words)."""
        return self._wrap(self.define_task(word, example), "definition_cue",
                          [(self.define_task(s.word, s.example), s.definition) for s in shots])

    def example_prompt(self, word: str, pos: str, definition: str, shots: list[Shot]) -> str:
        """Prompt for an example sentence of ``word`` in the sense ``definition``."""
        return self._wrap(self.example_task(word, pos, definition), "example_cue",
                          [(self.example_task(s.word, s.pos, s.definition), s.example) for s in shots])

    def cues(self) -> list[str]:
        return [c for c in (self.wrapper.meta.get("definition_cue"), self.wrapper.meta.get("example_cue")) if c]


def clean_generation(text: str | None, cues: list[str]) -> str:
    """First line of a generation without a leading cue ("Definition:"), quotes or list marks."""
    if not text:
        return ""
    line = text.strip().splitlines()[0].strip() if text.strip() else ""
    for cue in cues:
        if line.lower().startswith(cue.lower()):
            line = line[len(cue):].strip()
    return line.strip(" \"'`*-").strip()


def _shots_for(inst: Instance, pool: list[Shot], k: int, seed: int) -> list[Shot]:
    others = [s for s in pool if s.word != inst.word]
    if k <= 0 or not others:
        return []
    return random.Random(f"{seed}|shots|{inst.instance_id}").sample(others, min(k, len(others)))


def _sum(*vals: float | None) -> float | None:
    vs = [v for v in vals if v is not None]
    return sum(vs) if vs else None


def sembench_manifest(settings: SemBenchSettings, data: SemBenchData, info: BackendInfo, reasoning: ReasoningConfig,
                      command: list[str] | None, prompts: SemBenchPrompts) -> dict:
    """What a SemBench run records in ``manifest.json``, with the ``identity`` that decides resume."""
    return {
        "task": "sembench",
        "identity": {"task": "sembench", "dictionary": data.dictionary.get("path"), "pos": settings.pos,
                     "mode": settings.mode, "shots": settings.shots, "backend": info.name, "model": info.model,
                     "seed": settings.seed, "min_senses": settings.min_senses, "lang": settings.lang,
                     "encoder": settings.encoder, "reasoning": asdict(reasoning),
                     **({"instances_files": [str(f) for f in settings.instances_files]}
                        if settings.instances_files else {})},
        "command": command, "dictionary": data.dictionary, "backend": info.name, "model": info.model,
        "backend_options": info.options, "versions": {**base_versions(), **info.versions},
        "mode": settings.mode, "shots": settings.shots, "pos": settings.pos, "seed": settings.seed,
        "lang": settings.lang, "instances": settings.instances, "min_senses": settings.min_senses,
        "max_new_tokens": settings.max_new_tokens, "encoder": settings.encoder or "all-MiniLM-L6-v2",
        "prompts": prompts.versions, "reasoning": asdict(reasoning),
        "difficulty_bins": "other senses ranked by encoder cosine to the target gloss: easy=lowest, "
                           "mid=median (index n//2 ascending), hard=highest, rand=seeded random",
    }


@dataclass
class _Round:
    """What the chunks of one session share: backend, settings, prompts, each instance's shots and the
    keywords of :func:`fbagent.eval.runner.generate_all` (with the progress callback)."""

    backend: Backend
    settings: SemBenchSettings
    prompts: SemBenchPrompts
    shots: dict[str, list[Shot]]
    generate: dict

    async def examples(self, chunk: list[Instance]) -> dict[str, tuple[str | None, TextResult | None]]:
        """``instance_id -> (example, its generation)``: the dictionary's example (mode ``ex``), else one
        generated from the target gloss (``None`` when empty)."""
        if self.settings.mode != "def":
            return {i.instance_id: (i.example, None) for i in chunk}
        prompts = [self.prompts.example_prompt(i.word, i.pos, i.target.definition, self.shots[i.instance_id])
                   for i in chunk]
        results = await generate_all(self.backend, prompts, **self.generate)
        return {i.instance_id: (clean_generation(r.text, self.prompts.cues()) or None, r)
                for i, r in zip(chunk, results, strict=True)}

    async def definitions(self, chunk: list[Instance], examples: dict) -> dict[str, TextResult]:
        """``instance_id -> generation`` of a definition from the example, for instances that have one."""
        todo = [i for i in chunk if examples[i.instance_id][0]]
        prompts = [self.prompts.define_prompt(i.word, examples[i.instance_id][0], self.shots[i.instance_id])
                   for i in todo]
        return dict(zip([i.instance_id for i in todo], await generate_all(self.backend, prompts, **self.generate),
                        strict=True))

    def scores(self, chunk: list[Instance], definitions: dict[str, str]) -> dict[str, dict]:
        """``instance_id -> {difficulty: {sim_own, sim_other, correct}}``: each non-empty definition against
        the target gloss and each distractor's (:func:`fbagent.verifier.roundtrip.score_texts`)."""
        by_id = {i.instance_id: i for i in chunk}
        flat_defs, own, other, slots = [], [], [], []
        for iid in [iid for iid, d in definitions.items() if d]:
            inst = by_id[iid]
            for d, distractor in inst.distractors.items():   # DIFFICULTIES, or a file's one group
                flat_defs.append(definitions[iid])
                own.append([inst.target.definition])
                other.append([distractor.definition])
                slots.append((iid, d))
        scores: dict[str, dict] = {}
        scored = score_texts(flat_defs, own, other, margin=0.0, encoder=self.settings.encoder) if flat_defs else []
        for (iid, d), sc in zip(slots, scored, strict=True):
            scores.setdefault(iid, {})[d] = {"sim_own": round(sc.sim_own, 6), "sim_other": round(sc.sim_other, 6),
                                             "correct": bool(sc.passed)}
        return scores

    async def chunk(self, chunk: list[Instance]) -> list[dict]:
        """The stored predictions of ``chunk``: generate, score, one record per instance."""
        examples = await self.examples(chunk)
        def_results = await self.definitions(chunk, examples)
        definitions = {iid: clean_generation(r.text, self.prompts.cues()) for iid, r in def_results.items()}
        scores = self.scores(chunk, definitions)
        return [self.record(inst, *examples[inst.instance_id], def_results.get(inst.instance_id),
                            definitions.get(inst.instance_id), scores.get(inst.instance_id, {})) for inst in chunk]

    def record(self, inst: Instance, example: str | None, ex_r: TextResult | None, def_r: TextResult | None,
               definition: str | None, scores: dict) -> dict:
        """One instance's prediction; ``error`` names a failed or empty generation (counted as a failure)."""
        mode, iid = self.settings.mode, inst.instance_id
        error = None
        if mode == "def" and not example:
            error = (ex_r.error if ex_r and ex_r.error else "empty example")
        elif def_r is None or not definition:
            error = (def_r.error if def_r and def_r.error else "empty definition")
        return {
            "task": "sembench", "key": iid, "instance_id": iid, "word": inst.word, "pos": inst.pos,
            "sense_key": inst.target.key, "target_definition": inst.target.definition, "mode": mode,
            "example": example, "example_source": "dictionary" if mode == "ex" else "generated",
            "generated_definition": definition or None,
            "raw_outputs": {"example": ex_r.raw if ex_r else None, "definition": def_r.raw if def_r else None},
            "distractors": {d: {"sense_key": s.key, "definition": s.definition,
                                "similarity_to_target": inst.distractor_similarity.get(d)}
                            for d, s in inst.distractors.items()},
            "scores": scores, "error": error, "shots": [s.word for s in self.shots[iid]],
            "input_tokens": _sum(ex_r.input_tokens if ex_r else None, def_r.input_tokens if def_r else None),
            "output_tokens": _sum(ex_r.output_tokens if ex_r else None, def_r.output_tokens if def_r else None),
            "thinking_tokens": (ex_r.thinking_tokens if ex_r else 0) + (def_r.thinking_tokens if def_r else 0),
            "budget_exhausted": bool((ex_r and ex_r.budget_exhausted) or (def_r and def_r.budget_exhausted)),
            "latency_ms": _sum(ex_r.latency_ms if ex_r else None, def_r.latency_ms if def_r else None),
        }


def sembench_task(backend: Backend, settings: SemBenchSettings, *, reasoning: ReasoningConfig,
                  data: SemBenchData | None = None, command: list[str] | None = None) -> EvalTask:
    """The SemBench run of ``settings`` as an :class:`~fbagent.eval.task.EvalTask`.

    Instances not stored yet are processed in chunks of :data:`CHUNK` (generate, score, store), so a
    crash loses at most one chunk and a rerun resumes; the progress counts generations (two per
    instance in mode ``def``). Scored with :func:`fbagent.eval.metrics.sembench_summary` (plus
    ``by_file`` for instances files).
    """
    data = data or load_instances(settings)
    prompts = SemBenchPrompts(settings.lang)
    stages = 2 if settings.mode == "def" else 1

    async def solve(backend: Backend, writer: ResultWriter, advance: Callable[[int], None]) -> None:
        todo = [i for i in data.instances if i.instance_id not in writer.done]
        shots = {i.instance_id: _shots_for(i, data.shots, settings.shots, settings.seed) for i in todo}
        # No engine-level stop: base models often open with a newline, which would stop them at once.
        # The answer is the first non-empty line of the generation (clean_generation).
        run = _Round(backend, settings, prompts, shots, {
            "max_new_tokens": settings.max_new_tokens, "stop": [], "batch_size": settings.batch_size,
            "concurrency": settings.concurrency, "on_progress": advance})
        for start in range(0, len(todo), CHUNK):
            writer.write(await run.chunk(todo[start:start + CHUNK]))

    def score(records: list[dict]) -> dict:
        summary = sembench_summary(records, n_boot=settings.n_boot, seed=settings.seed)
        if settings.instances_files:
            summary["by_file"] = by_file_summary(records, data)
            summary["by_file_convention"] = ("SemBench authors' rule: predicted label 0 when sim(D, def0) > "
                                             "sim(D, def1), else 1; accuracy over scored instances, "
                                             "accuracy_all over every line (failures wrong); Wilson 95% CI")
        return summary

    return EvalTask(
        name="sembench", manifest=sembench_manifest(settings, data, backend.info(), reasoning, command, prompts),
        solve=solve, score=score,
        units=lambda done: (sum(1 for i in data.instances if i.instance_id not in done) * stages, 0),
    )


def run_sembench(backend: Backend, settings: SemBenchSettings, out_dir: Path, *, reasoning: ReasoningConfig,
                 data: SemBenchData | None = None, command: list[str] | None = None,
                 on_event: OnEvent | None = None, on_start: Callable[[int], None] | None = None,
                 on_progress: Callable[[int], None] | None = None) -> tuple[dict | None, dict]:
    """Run (or resume) a SemBench evaluation into ``out_dir``; returns ``(summary, manifest)``.

    See :func:`sembench_task`: generations are scored with :func:`fbagent.verifier.roundtrip.score_texts`
    against the target gloss and each distractor gloss; a failed or empty generation is stored with its
    ``error`` and counted as a failure. ``on_event``: the progress events of
    :func:`fbagent.eval.task.run_task`; ``on_start(total)`` (generations to make in this session) and
    ``on_progress(n)``: the same as callbacks.
    """
    task = sembench_task(backend, settings, reasoning=reasoning, data=data, command=command)
    return run_task(backend, task, out_dir,
                    on_event=chain(on_event, callbacks(on_start, on_progress, with_done=False)))
