"""LangGraph agents: frame-pair selection and the per-entry generation graph."""
