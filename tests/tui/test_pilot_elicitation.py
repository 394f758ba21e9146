"""Pilot tests: an MCP server's elicitation as a form, and Esc on an MCP approval prompt."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, Static

from codex_core.protocol import (
    ElicitationRequestEvent,
    ExecApprovalOp,
    ExecApprovalRequestEvent,
    InterruptOp,
    ResolveElicitationOp,
    TaskStartedEvent,
)
from codex_tui.app.codex_app import CodexApp
from codex_tui.app.screens.approval import ApprovalScreen
from codex_tui.app.screens.chat import ChatScreen
from codex_tui.app.screens.elicitation import ElicitationScreen
from tests.tui.fake_core import PROJECT, FakeBoot, frozen_clock, options, settle

SIZE = (100, 34)
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Full name", "description": "As on your badge"},
        "age": {"type": "integer", "title": "Age"},
        "subscribe": {"type": "boolean", "title": "Subscribe to updates", "default": True},
        "color": {"type": "string", "title": "Colour", "enum": ["red", "green"]},
    },
    "required": ["name"],
}


def make_app() -> tuple[CodexApp, FakeBoot]:
    boot = FakeBoot()
    return CodexApp(boot, options(), clock=frozen_clock()), boot


def elicitation(schema: dict[str, Any] | None = None) -> ElicitationRequestEvent:
    return ElicitationRequestEvent(
        server_name="everything",
        id="1",
        message="Please provide your contact details",
        requested_schema=schema or SCHEMA,
    )


def mcp_request() -> ExecApprovalRequestEvent:
    return ExecApprovalRequestEvent(
        call_id="m1", command=["mcp", "docs", "wipe", "{}"], cwd=PROJECT, reason=None
    )


async def test_elicitation_form_accepts_typed_values() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boot.core.emit(TaskStartedEvent(), elicitation())
        await settle(pilot, boot.core)
        assert isinstance(app.screen, ElicitationScreen)
        await pilot.press(*"Ada Lovelace")
        app.screen.query_one("#field-age", Input).value = "36"
        app.screen.query_one("#field-name", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        assert boot.core.ops_of(ResolveElicitationOp) == [
            ResolveElicitationOp(
                server_name="everything",
                request_id="1",
                decision="accept",
                content={"name": "Ada Lovelace", "age": 36, "subscribe": True},
            )
        ]
        assert isinstance(app.screen, ChatScreen)


async def test_elicitation_needs_required_fields_then_declines_or_cancels() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boot.core.emit(
            TaskStartedEvent(), elicitation(), elicitation().model_copy(update={"id": "2"})
        )
        await settle(pilot, boot.core)
        await pilot.press("enter")  # the name is required
        await settle(pilot)
        assert isinstance(app.screen, ElicitationScreen)
        error = app.screen.query_one("#elicitation-error", Static)
        assert "Full name is required" in str(error.render())
        await pilot.press("ctrl+d")
        await settle(pilot)
        assert isinstance(app.screen, ElicitationScreen), "the second request follows"
        await pilot.press("escape")
        await settle(pilot)
        assert [
            (op.request_id, op.decision, op.content)
            for op in boot.core.ops_of(ResolveElicitationOp)
        ] == [
            ("1", "decline", None),
            ("2", "cancel", None),
        ]


async def test_escape_on_an_mcp_approval_cancels_the_call_and_the_turn_goes_on() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boot.core.emit(TaskStartedEvent(), mcp_request())
        await settle(pilot, boot.core)
        assert isinstance(app.screen, ApprovalScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert boot.core.ops_of(ExecApprovalOp) == [ExecApprovalOp(id="m1", decision="abort")]
        assert boot.core.ops_of(InterruptOp) == []  # the core tells the model; no interrupt


async def test_ctrl_c_on_an_mcp_approval_also_stops_the_turn() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boot.core.emit(TaskStartedEvent(), mcp_request())
        await settle(pilot, boot.core)
        await pilot.press("ctrl+c")
        await settle(pilot)
        assert boot.core.ops_of(ExecApprovalOp) == [ExecApprovalOp(id="m1", decision="abort")]
        assert len(boot.core.ops_of(InterruptOp)) == 1
