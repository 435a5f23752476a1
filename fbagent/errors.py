"""User-facing errors: one clear line naming the problem and the fix, exit code 2."""

from __future__ import annotations


class FbagentError(Exception):
    """A problem the user can fix: bad input, missing key, unknown lexicon...

    ``str(err)`` is one line: ``problem`` followed by ``fix`` when given. The CLI
    prints it as ``error: <problem> Fix: <fix>`` and exits with code 2, after the
    failed operation has changed nothing already stored.
    """

    exit_code = 2

    def __init__(self, problem: str, fix: str | None = None) -> None:
        self.problem = problem.rstrip(".")
        self.fix = fix
        super().__init__(self.line())

    def line(self) -> str:
        """The one-line message: ``"<problem>. Fix: <fix>"``."""
        return f"{self.problem}. Fix: {self.fix}" if self.fix else f"{self.problem}."
