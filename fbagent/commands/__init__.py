"""CLI command groups. ``fbagent --help`` imports none of the command modules (:mod:`fbagent.commands.lazy_group`);
a command imports its own module only. Imports sit at module level, but those of modules that load a lazy package
(``scripts/import_graph.py``'s lists: sqlite-utils, numpy, langgraph, textual, ...), which the command functions
import where they use them, so that a command's ``--help`` stays fast."""
