"""Model scoring on FrameBench-style data: protocol, backends, metrics, reports."""
