"""CLI command groups. ``fbagent --help`` imports none of the command modules (:mod:`fbagent.commands.lazy_group`);
a command imports its own module only. Imports sit at module level; a command reaches the rooms it runs (their
analysers, readers, numpy, Textual, ...) through their lazy packages (``from fbagent import generation``, then
``generation.generate(...)``: :func:`fbagent.lean_imports.lazy_attributes`), so that its ``--help`` stays fast."""
