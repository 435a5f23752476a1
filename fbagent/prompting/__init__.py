"""From the prompt files to the messages a model reads: the code side of ``prompts/`` (the data,
installed as ``fbagent.prompts``).

- :mod:`.files`: one versioned prompt file (``PromptTemplate``: header fields, system and user text);
- :mod:`.messages`: the prompt set of one language and style (:class:`~.messages.Prompts`) and the
  chat messages of every generation task (generate, extend, screen, define, judge);
- :mod:`.fewshot`: few-shot completion prompts for base models (``--prompt-style fewshot``);
- :mod:`.patterns`: each language's fixed question forms (``prompts/generate/patterns.toml``), shown
  by the prompts and held against the generated question by :mod:`fbagent.checks.self_check`.

Used by generation (:mod:`fbagent.agents.entry_graph`), pair screening (:mod:`fbagent.pairs.screening`),
the verifier (:mod:`fbagent.verifier.verify`, calibration) and evaluation's templates (:mod:`fbagent.eval`).
"""
