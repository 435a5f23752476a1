"""fbagent: build, validate and evaluate FrameBench-style benchmarks from FrameNet."""

__version__ = "0.1.0"
