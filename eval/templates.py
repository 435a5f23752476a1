"""Evaluation prompt templates: fbagent's own (``prompts/eval/<lang>/v1..v5.txt``) or a folder of files
in the FrameBench authors' layout (``--templates-dir``).

fbagent's five templates vary the prompt as the FrameBench evaluation does
(Yano and Sasano 2026, section 4 and appendix B: results are averaged over
several prompts): with or without a hint naming the target verb, the hint
before or after the sentences, a bracketed layout, and a terse answer
instruction. The wording is ours. Each file's header records the variation
(``verb_hint``, ``layout``, ``answer_instruction``) and ``option_format``
(how one option line looks, e.g. ``{number}. {label}``); ``labels.txt`` holds
the four option labels of the language. Languages without a folder use
``generic`` (English instructions, sentences in any language).

A templates folder in the authors' layout (their ``eval_prompt/``)::

    DIR/en/prompt_v1.txt ... DIR/en/prompt_v5.txt
    DIR/ja/prompt_v1.txt ...
    DIR/<lang>/labels.txt     optional: the four option labels (``sentence_a: ...`` lines)
    DIR/generic/*.txt         optional: for languages without a folder
    DIR/*.txt                 templates directly in DIR serve every language

Any number of ``*.txt`` files per folder (``labels.txt`` excepted); a template
is named by its file stem (``prompt_v1``; ``--templates v1`` matches it too).
A file is the whole prompt, stripped of surrounding white space and filled with
:meth:`str.format` as the authors' ``create_messages`` does, with the
placeholders ``{four_choice_question}``, ``{statement_a}``, ``{statement_b}``,
``{choices_text}``, ``{verb}`` and ``{lex_unit_name}``, or fbagent's own names
as aliases (``{question}``, ``{first}``, ``{second}``, ``{options}``, ``{lu}``).
Its version is ``<path in DIR>@<first 12 hex of the sha256 of its bytes>`` (``en/prompt_v1.txt@...``),
so an edited file is another template.

Choices (``choices_style``): ``inline`` is the authors' one-line form,
``1: Sentence A`` + five spaces + ``2: Sentence B`` ...; ``lines`` puts one
option per line in the template's ``option_format`` (default ``{number}. {label}``).
Default: ``lines`` for fbagent's templates, ``inline`` for a templates folder.
"""

from __future__ import annotations

import hashlib
import re
import string
from dataclasses import dataclass, field, replace
from pathlib import Path

from fbagent.errors import FbagentError
from fbagent.eval.choices import ALL_TEMPLATES
from fbagent.eval.problems import LABELS, Problem
from fbagent.files import decode_text, read_text_input
from fbagent.prompting.files import PromptTemplate, load_prompt, parse_prompt, prompt_exists

TEMPLATE_NAMES = ("v1", "v2", "v3", "v4", "v5")
CHOICES_STYLES = ("inline", "lines")
INLINE_SEPARATOR = " " * 5  # the authors' choices_text: f"{n}: {label}     " joined, then stripped
# placeholder -> the value it receives (fbagent's names are aliases of the authors')
PLACEHOLDERS = {
    "four_choice_question": "question", "question": "question",
    "statement_a": "first", "first": "first",
    "statement_b": "second", "second": "second",
    "choices_text": "options", "options": "options",
    "verb": "verb", "lex_unit_name": "lu", "lu": "lu",
}
REQUIRED = {"question": "{four_choice_question}", "first": "{statement_a}", "second": "{statement_b}",
            "options": "{choices_text}"}


@dataclass(frozen=True)
class EvalTemplate:
    """One template: ``name`` (``v1`` or a file stem), the folder it came from (``lang``: ``en``,
    ``generic``, ``ja``... or ``.`` for files directly in a templates folder), the prompt file,
    the four option labels and how options are written (``choices_style``).

    ``source``: ``"fbagent"`` (``prompts/eval``) or the templates folder's path.
    """

    name: str
    lang: str
    prompt: PromptTemplate
    labels: dict[str, str]
    choices_style: str = "lines"
    source: str = "fbagent"

    @property
    def version(self) -> str:
        return self.prompt.version

    @property
    def own(self) -> bool:
        """True for fbagent's templates (header + body), False for a file of a templates folder."""
        return self.source == "fbagent"

    def options_block(self, mapping: dict[str, str]) -> str:
        """The options in number order: one line each (``lines``) or the authors' one line (``inline``)."""
        numbers = sorted(mapping, key=int)
        if self.choices_style == "inline":
            return "".join(f"{n}: {self.labels[mapping[n]]}{INLINE_SEPARATOR}" for n in numbers).strip()
        fmt = self.prompt.meta.get("option_format", "{number}. {label}")
        return "\n".join(fmt.format(number=n, label=self.labels[mapping[n]]) for n in numbers)

    def render(self, problem: Problem, lu: str = "") -> str:
        """The prompt text for ``problem``.

        fbagent templates: trailing white space removed, so the text ends with
        the answer cue. Folder templates: exactly the authors' rendering (the
        stripped file, :meth:`str.format` with every placeholder name).
        ``lu``: the lexical unit (``leave.v``) for ``{lex_unit_name}``.
        """
        values = {"question": problem.question, "first": problem.first, "second": problem.second,
                  "verb": problem.verb, "options": self.options_block(problem.mapping), "lu": lu or problem.verb}
        text = self.prompt.render(**{ph: values[v] for ph, v in PLACEHOLDERS.items()})
        return text.rstrip() if self.own else text


@dataclass(frozen=True)
class TemplateSet:
    """The templates one language is asked with: where they came from, their labels and choices style."""

    lang: str
    folder: str
    source: str
    templates: tuple[EvalTemplate, ...]
    labels: dict[str, str] = field(default_factory=dict)
    choices_style: str = "lines"

    def describe(self) -> dict:
        """What the manifest records: ``{"source", "folder", "templates": {name: version}, "labels",
        "choices_style"}``."""
        return {"source": self.source, "folder": self.folder,
                "templates": {t.name: t.version for t in self.templates},
                "labels": self.labels, "choices_style": self.choices_style}


def template_lang(lang: str) -> str:
    """``lang`` when ``prompts/eval/<lang>/`` exists, else ``generic``."""
    return lang if prompt_exists(f"eval/{lang}/v1.txt") else "generic"


def load_labels(lang: str) -> dict[str, str]:
    """The four option labels of ``lang`` (``labels.txt`` header). Raises :class:`FbagentError` if one is missing."""
    p = load_prompt(f"eval/{template_lang(lang)}/labels.txt")
    missing = [k for k in LABELS if k not in p.meta]
    if missing:
        raise FbagentError(f"prompts/{p.path} lacks the labels {missing}", "add them to its header")
    return {k: p.meta[k] for k in LABELS}


def parse_template_names(spec: str, available: tuple[str, ...] | list[str] = TEMPLATE_NAMES) -> list[str]:
    """``"all"`` -> every available template; ``"v1,v3"`` -> ``["v1", "v3"]`` (order kept, repeats dropped).

    With folder templates (``available`` = file stems such as ``prompt_v1``), ``v1``
    also matches ``prompt_v1``. Raises :class:`FbagentError` for unknown names.
    """
    available = list(available)
    if spec.strip().lower() == ALL_TEMPLATES:
        return available
    names = [s.strip() for s in spec.split(",") if s.strip()]
    out: list[str] = []
    bad: list[str] = []
    for n in names:
        match = n if n in available else (f"prompt_{n}" if f"prompt_{n}" in available else None)
        (out if match else bad).append(match or n)
    if bad or not names:
        raise FbagentError(f"unknown template(s) {bad or spec!r}", f"use --templates all or a list of {','.join(available)}")
    return list(dict.fromkeys(out))


def load_templates(lang: str, names: list[str], choices_style: str = "lines") -> list[EvalTemplate]:
    """Load the named fbagent templates of ``lang`` (falls back to ``generic``)."""
    folder = template_lang(lang)
    labels = load_labels(lang)
    return [EvalTemplate(name=n, lang=folder, prompt=load_prompt(f"eval/{folder}/{n}.txt"), labels=labels,
                         choices_style=choices_style) for n in names]


# -- templates folders in the authors' layout ------------------------------------------------
def _natural(name: str) -> list:
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name)]


def _template_files(folder: Path) -> list[Path]:
    return sorted((p for p in folder.glob("*.txt") if p.is_file() and p.name != "labels.txt"),
                  key=lambda p: _natural(p.name))


def check_placeholders(text: str, where: str) -> None:
    """Refuse a folder template whose placeholders are unknown, malformed or incomplete.

    Known: :data:`PLACEHOLDERS`; required: the question, both sentences and the
    choices (under either name). Raises :class:`FbagentError` naming ``where``.
    """
    try:
        fields = [f for _, f, _, _ in string.Formatter().parse(text) if f is not None]
    except ValueError as err:
        raise FbagentError(f"template {where}: {err}",
                           "write placeholders as {statement_a}; a literal brace is written {{ or }}") from err
    unknown = sorted({f for f in fields if f not in PLACEHOLDERS})
    if unknown:
        known = ", ".join("{" + k + "}" for k in PLACEHOLDERS)
        raise FbagentError(f"template {where}: unknown placeholder(s) " + ", ".join("{" + f + "}" for f in unknown),
                           f"use only {known} (a literal brace is written {{{{ or }}}})")
    have = {PLACEHOLDERS[f] for f in fields}
    missing = [ph for value, ph in REQUIRED.items() if value not in have]
    if missing:
        raise FbagentError(f"template {where}: missing placeholder(s) {', '.join(missing)}",
                           "add them: the model must see the question, both sentences and the choices")


def read_folder_template(path: Path, root: Path, labels: dict[str, str], choices_style: str) -> EvalTemplate:
    """One file of a templates folder -> :class:`EvalTemplate` (checked with :func:`check_placeholders`).

    A file that starts with an fbagent header (``version: ...`` then ``---``)
    keeps its header; otherwise the whole file is the prompt.
    """
    data = path.read_bytes()
    text = decode_text(data, f"template {path}")   # UTF-8, a byte-order mark dropped (as every input file)
    rel = path.relative_to(root).as_posix()
    version = f"{rel}@{hashlib.sha256(data).hexdigest()[:12]}"
    if text.startswith("version:") and "\n---\n" in text:
        prompt = parse_prompt(str(path), text)
        prompt = PromptTemplate(path=str(path), version=version, meta=prompt.meta, body=prompt.body.strip())
    else:
        prompt = PromptTemplate(path=str(path), version=version, meta={}, body=text.strip())
    check_placeholders(prompt.body, str(path))
    folder = path.parent.relative_to(root).as_posix()
    return EvalTemplate(name=path.stem, lang=folder, prompt=prompt, labels=labels, choices_style=choices_style,
                        source=str(root))


def _folder_labels(folder: Path, lang: str) -> dict[str, str]:
    path = folder / "labels.txt"
    if not path.is_file():
        return load_labels(lang)
    return read_labels_file(path)


def read_labels_file(path: Path) -> dict[str, str]:
    """The four option labels of a labels file (``sentence_a: ...`` lines, an optional ``---`` and
    comments after it). Raises :class:`FbagentError` when the file is missing or lacks a label."""
    if not Path(path).is_file():
        raise FbagentError(f"labels file {path} does not exist",
                           "pass --labels with a file of 'sentence_a: ...', 'sentence_b: ...', 'both: ...', "
                           "'neither: ...' lines")
    meta = {}
    text = read_text_input(path, "labels file", "save it as UTF-8 text")
    for line in text.partition("\n---\n")[0].splitlines():
        key, sep, value = line.partition(":")
        if sep:
            meta[key.strip()] = value.strip()
    missing = [k for k in LABELS if not meta.get(k)]
    if missing:
        raise FbagentError(f"labels file {path} lacks {missing}",
                           "write one 'key: label' line for each of " + ", ".join(LABELS))
    return {k: meta[k] for k in LABELS}


def folder_for_language(root: Path, lang: str) -> Path:
    """The folder of ``root`` that serves ``lang``: ``root/<lang>``, else ``root/generic``, else ``root``
    itself when it holds templates. Raises :class:`FbagentError` when none does."""
    for cand in (root / lang, root / "generic", root):
        if cand.is_dir() and _template_files(cand):
            return cand
    have = sorted(p.name for p in root.iterdir() if p.is_dir() and _template_files(p)) if root.is_dir() else []
    raise FbagentError(
        f"templates folder {root} has no templates for language {lang!r}"
        + (f" (it has: {', '.join(have)})" if have else " (no *.txt files)"),
        f"add {root}/{lang}/prompt_v1.txt ... (or {root}/generic/), or pass --templates-lang with one of its languages",
    )


def load_template_set(lang: str, spec: str = ALL_TEMPLATES, templates_dir: Path | None = None,
                      choices_style: str | None = None, labels_file: Path | None = None) -> TemplateSet:
    """The template set that ``lang`` is asked with.

    ``templates_dir`` None: fbagent's ``prompts/eval/<lang>`` (or ``generic``);
    else the folder of :func:`folder_for_language`. ``spec``: ``all`` or a list of
    names (:func:`parse_template_names`); ``choices_style``: ``inline`` /
    ``lines`` / None (``lines`` for fbagent's, ``inline`` for a folder); ``labels_file``: the option
    labels from this file (:func:`read_labels_file`) instead of the folder's ``labels.txt`` or ours,
    so that a labels file need not sit among another tool's templates.
    Raises :class:`FbagentError` for an unknown style, a missing folder or
    language, an unknown name, a bad placeholder or a bad labels file.
    """
    if choices_style is not None and choices_style not in CHOICES_STYLES:
        raise FbagentError(f"unknown choices style {choices_style!r}", "use --choices-style inline or lines")
    if templates_dir is None:
        style = choices_style or "lines"
        templates = load_templates(lang, parse_template_names(spec), style)
        if labels_file is not None:
            labels = read_labels_file(labels_file)
            templates = [replace(t, labels=labels) for t in templates]
        return TemplateSet(lang=lang, folder=templates[0].lang, source="fbagent", templates=tuple(templates),
                           labels=templates[0].labels, choices_style=style)
    root = Path(templates_dir)
    if not root.is_dir():
        raise FbagentError(f"templates folder {root} does not exist",
                           "pass --templates-dir with a folder such as the authors' eval_prompt/")
    style = choices_style or "inline"
    folder = folder_for_language(root, lang)
    labels = read_labels_file(labels_file) if labels_file is not None else _folder_labels(folder, lang)
    files = {p.stem: p for p in _template_files(folder)}
    names = parse_template_names(spec, list(files))
    read = tuple(read_folder_template(files[n], root, labels, style) for n in names)
    return TemplateSet(lang=lang, folder=folder.relative_to(root).as_posix(), source=str(root),
                       templates=read, labels=labels, choices_style=style)
