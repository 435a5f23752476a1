"""LangGraph agents: the per-entry generation graph (:mod:`.entry_graph`). Pair screening, the other
agent, lives with pair selection (:mod:`fbagent.pairs.screening`); the prompts both read are
:mod:`fbagent.prompting`."""
