"""fbagent: build, validate and evaluate FrameBench-style benchmarks from FrameNet."""

from fbagent import lean_imports

__version__ = "0.1.0"

lean_imports.install()   # sqlite-utils without pandas and numpy (see fbagent.lean_imports)
