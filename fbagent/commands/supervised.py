"""Which commands run under the crash supervisor (:func:`fbagent.crash.supervise`): a part of the CLI's
command tree, so it lives beside the commands; :mod:`fbagent.crash` knows processes, not commands.

``generate``, ``verifier calibrate`` and ``eval run|frame-id|sembench`` load native engines (llama.cpp,
PyTorch, vLLM) whose faults would kill the process with no word but the shell's.
"""

from __future__ import annotations

SUPERVISED = {("generate",), ("verifier", "calibrate"), ("eval", "run"), ("eval", "frame-id"),
              ("eval", "sembench")}


def command_of(argv: list[str]) -> tuple[str, ...]:
    """The command words of ``argv`` (without the program name): ``["eval", "run", "--x"]`` -> ``("eval", "run")``;
    a one-word command of :data:`SUPERVISED` (``generate``) stops after its word."""
    words: list[str] = []
    for arg in argv:
        if arg.startswith("-"):
            break
        words.append(arg)
        if len(words) == 2:
            break
    if words and (words[0],) in SUPERVISED:
        return (words[0],)
    return tuple(words)


def is_supervised(argv: list[str]) -> bool:
    """Whether ``fbagent ARGV`` runs in a supervised child: one of :data:`SUPERVISED`, not ``--help``."""
    return command_of(argv) in SUPERVISED and "--help" not in argv
