"""Lexicon readers (FrameNet XML via NLTK, JSONL) and the importer."""
