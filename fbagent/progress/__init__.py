"""The one progress protocol of long-running library calls (:mod:`.events`).

``generate``, ``verifier calibrate`` and the eval tasks report through it; the CLI renders it with
one renderer (:mod:`fbagent.commands.progress_view`). Standard library only, so any room may import it.
"""
