"""CLI command groups. ``fbagent --help`` imports none of the command modules (:mod:`fbagent.commands.lazy_group`);
a command imports its own module only, with what it uses at module level (heavy packages where they are used)."""
