"""Drawing one widget at once, ahead of the screen's next frame (a keystroke's echo).

Textual draws a changed widget at the screen's next frame, and that frame also lays out
and draws whatever else changed meanwhile: while an answer streams, the growing answer
(its Markdown, the transcript's layout, every line that scrolled). A key typed then waited
for all of it before its echo reached the terminal. `paint_now` draws just the widget's
changed lines, right away, when that is exact: the widget sits where the screen's last
frame put it and will stay there (its place in a fresh arrangement of its parent is the
same), so the lines drawn are the ones the next frame would draw there. Otherwise it does
nothing and the next frame draws the widget as usual.
"""

from __future__ import annotations

from textual._arrange import arrange
from textual.geometry import Region
from textual.screen import Screen
from textual.widget import Widget


def paint_now(widget: Widget) -> bool:
    """Draw `widget`'s pending changes now, alone; False when it must wait for the frame."""
    app = widget.app
    if app._batch_count or app.is_inline or app.is_headless or not widget._repaint_required:
        return False
    screen = widget.screen
    parent = widget.parent
    if screen is not app.screen or parent is not screen or not screen.is_current:
        return False
    compositor = screen._compositor
    placed = compositor.visible_widgets.get(widget)
    if placed is None or widget._layout_required:
        return False
    if not _placed_at(screen, widget, placed[0]):
        return False
    waiting = set(compositor._dirty_regions)  # others' changes wait for the frame
    compositor._dirty_regions.clear()
    compositor.update_widgets({widget})
    widget._repaint_required = False  # drawn: the next frame has nothing to add for it
    update = compositor.render_update(screen_stack=app._background_screens)
    compositor._dirty_regions.update(waiting)
    app._display(screen, update)
    return True


def _placed_at(screen: Screen[object], widget: Widget, region: Region) -> bool:
    """Whether a layout of the screen now would put `widget` at `region`: a pending layout
    elsewhere (the transcript growing) leaves it there, a sibling that changed height since
    the last frame (not yet laid out) moves it. Arranged afresh, not from the screen's cache
    (a change is known to it only once the changed widget is idle)."""
    size = screen.size
    for placement in arrange(screen, screen._nodes, size, size).placements:
        if placement.widget is widget:
            return placement.region + placement.offset == region
    return False
