"""Versioned prompt templates (package data). Each file starts with a version line."""
