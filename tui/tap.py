"""Controls that take a tap or a click as well as a key: the answers, ratings, skip, next, comment.

A control is a chunk of a packed line (:func:`fbagent.tui.layout.pack`, so
it never splits from its label) styled with Textual's ``@click`` action: the
Static that shows the line runs the screen's action when the chunk is
clicked, in a terminal with mouse support and in a browser (textual-serve
forwards taps as clicks), exactly as the key bound to the same action does.
Textual draws such chunks with its link style (underlined; highlighted under
the pointer), so they look tappable.
"""

from __future__ import annotations

from textual.content import Content

from fbagent.tui.layout import as_content


def tap(chunk: Content | str | tuple[str, str], action: str) -> Content:
    """``chunk`` that runs ``action`` (a Textual action string such as ``screen.choose('A')``) when clicked or tapped."""
    content = as_content(chunk)
    return content.stylize(f"@click={action}", 0, len(content.plain))
