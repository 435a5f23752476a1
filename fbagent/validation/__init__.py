"""Human validation (FrameBench sec. 3.2): who judges what, and what the judgments add up to.

- :mod:`.assignment`: which entries an annotator gets and the four pair tasks built from each;
- :mod:`.aggregate`: correctness and acceptability per entry, the filter, agreement, the report;
- :mod:`.thresholds`: which filter thresholds fit the judgments (the hint where the default surprises);
- :mod:`.export`: items (all, or the validated ones with their human judgments) as JSONL.
"""
