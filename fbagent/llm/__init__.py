"""LLM backends (gemini, openai, local) through instructor, with the llm_calls cache."""
