"""CLI command groups. Modules here import only typer/fbagent.options at import time."""
