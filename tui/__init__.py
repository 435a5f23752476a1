"""Textual annotation app. Knows no LLM."""
