"""The chat screen's running tool cells (commands, patches, MCP calls, web searches), found
by their item's id, and what each item's start and completion does to them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from textual.widget import Widget

from codex_core.items import kinds as k
from codex_core.items import notices as n
from codex_core.protocol import ABORTED_BY_USER, INTERRUPTED_EXIT_CODE
from codex_tui.app.widgets.cells.exec_cell import ExecCell
from codex_tui.app.widgets.cells.mcp_cell import McpCell
from codex_tui.app.widgets.cells.patch_cell import PatchCell
from codex_tui.app.widgets.cells.web_search_cell import WebSearchCell


@dataclass
class ToolCells:
    """Cells of tool items that began and have not ended, by item id."""

    execs: dict[str, ExecCell] = field(default_factory=dict)
    patches: dict[str, PatchCell] = field(default_factory=dict)
    mcps: dict[str, McpCell] = field(default_factory=dict)
    searches: dict[str, WebSearchCell] = field(default_factory=dict)

    def started(self, item: k.ThreadItem, cwd: str | None) -> Widget | None:
        """The cell of a tool item that begins to run (a new cell to add), if it is one."""
        match item:
            case k.CommandExecutionItem():
                self.execs[item.id] = ExecCell(item.id, list(item.command))
                return self.execs[item.id]
            case k.FileChangeItem():
                self.patches[item.id] = PatchCell(item.id, dict(item.changes), cwd)
                return self.patches[item.id]
            case k.McpToolCallItem():
                self.mcps[item.id] = McpCell(item.id, item.server, item.tool, item.arguments)
                return self.mcps[item.id]
            case k.WebSearchItem():
                self.searches[item.id] = WebSearchCell(item.id)
                return self.searches[item.id]
            case _:
                return None

    def output(self, item_id: str, chunk: str) -> None:
        """A running command printed `chunk`."""
        running = self.execs.get(item_id)
        if running is not None:
            running.append_output(chunk)

    async def completed(
        self,
        item: k.ThreadItem,
        cause: n.CompletionCause,
        *,
        replay: bool,
        cwd: str | None,
        add: Callable[[Widget], Awaitable[None]],
    ) -> None:
        """Finish the item's cell; `add` a cell that shows only now (an item whose begin
        never came: a replayed command or patch, an MCP call or a search)."""
        if cause == "turn_ended":
            self._cut_short(item)
        if cause != "ended":
            return  # refused (its answer is on screen), cut short, or its id reused
        match item:
            case k.CommandExecutionItem():
                cell = self.execs.pop(item.id, None)
                if cell is None and replay and item.command:
                    cell = ExecCell(item.id, list(item.command))
                    await add(cell)
                if cell is not None:
                    output = item.aggregated_output or (item.stdout + item.stderr)
                    code = item.exit_code if item.exit_code is not None else INTERRUPTED_EXIT_CODE
                    took = item.duration_ms or 0
                    cell.finish(code, output, took, item.timed_out, item.interrupted)
            case k.FileChangeItem():
                patch = self.patches.pop(item.id, None)
                if patch is None and item.changes:  # replayed: the end says what changed
                    patch = PatchCell(item.id, dict(item.changes), cwd)
                    await add(patch)
                if patch is not None:
                    patch.finish(item.status == "completed", item.stderr)
            case k.McpToolCallItem():
                mcp = self.mcps.pop(item.id, None)
                if mcp is None:
                    mcp = McpCell(item.id, item.server, item.tool, None)
                    await add(mcp)
                mcp.finish(item.result, item.error, item.duration_ms)
            case k.WebSearchItem():
                search = self.searches.pop(item.id, None)
                if search is None:
                    await add(WebSearchCell(item.id, item.query))
                else:
                    search.finish(item.query)
            case _:
                pass

    def _cut_short(self, item: k.ThreadItem) -> None:
        """Its turn ended first (a core that died, an old rollout): a command or patch cell
        must not spin on; an MCP call or search stays as it is (its end may still come)."""
        if isinstance(item, k.CommandExecutionItem) and item.id in self.execs:
            cell = self.execs.pop(item.id)
            cell.finish(INTERRUPTED_EXIT_CODE, cell.live, 0, False, interrupted=True)
        elif isinstance(item, k.FileChangeItem) and item.id in self.patches:
            self.patches.pop(item.id).finish(False, ABORTED_BY_USER)
