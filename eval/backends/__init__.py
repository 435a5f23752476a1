"""Evaluation backends: vLLM, transformers, llama.cpp, OpenAI-compatible, Gemini."""
