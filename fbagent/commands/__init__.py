"""CLI command groups. Modules here import only typer/fbagent.commands.options at import time."""
