"""The modal form an MCP server's `elicitation/create` asks the user to fill.

Each property of the requested (flat) schema gets a field: text and numbers an input,
booleans a checkbox, enums a select. Enter (or ctrl+s) accepts once the required fields are
filled and numbers parse; ctrl+d declines; esc cancels. A URL request shows the address to
open instead of fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Select, Static

from codex_core.items import notices as n
from codex_core.protocol import ElicitationAction
from codex_tui.app.formatting import truncate_line


@dataclass(frozen=True)
class ElicitationAnswer:
    """What the user chose, with the form's values when accepting."""

    action: ElicitationAction
    content: dict[str, Any] | None = None


@dataclass(frozen=True)
class FormField:
    """One property of the requested schema."""

    name: str
    kind: str
    """`string`, `number`, `integer`, `boolean` or `enum`."""
    title: str
    description: str | None
    required: bool
    default: Any
    choices: list[tuple[str, str]]
    """(label, value) for an enum."""


def form_fields(schema: dict[str, Any] | None) -> list[FormField]:
    """The fields of a requested schema, in its property order."""
    properties = (schema or {}).get("properties")
    if not isinstance(properties, dict):
        return []
    required = set((schema or {}).get("required") or [])
    fields: list[FormField] = []
    for name, spec in properties.items():
        if not isinstance(spec, dict):
            continue
        choices = _choices(spec)
        kind = "enum" if choices else str(spec.get("type") or "string")
        if kind not in ("string", "number", "integer", "boolean", "enum"):
            kind = "string"
        fields.append(
            FormField(
                name=str(name),
                kind=kind,
                title=str(spec.get("title") or name),
                description=spec.get("description")
                if isinstance(spec.get("description"), str)
                else None,
                required=name in required,
                default=spec.get("default"),
                choices=choices,
            )
        )
    return fields


def _choices(spec: dict[str, Any]) -> list[tuple[str, str]]:
    if isinstance(spec.get("enum"), list):
        values = [str(v) for v in spec["enum"]]
        names = spec.get("enumNames")
        labels = (
            [str(n) for n in names]
            if isinstance(names, list) and len(names) == len(values)
            else values
        )
        return list(zip(labels, values, strict=True))
    options = spec.get("oneOf") or spec.get("anyOf")
    if isinstance(options, list) and all(isinstance(o, dict) and "const" in o for o in options):
        return [(str(o.get("title") or o["const"]), str(o["const"])) for o in options]
    return []


def field_value(field: FormField, raw: Any) -> tuple[Any, str | None]:
    """The value to send for one field, or an error naming what is wrong."""
    if field.kind == "boolean":
        return bool(raw), None
    if raw is None or raw is Select.NULL or raw == "":
        return None, (f"{field.title} is required" if field.required else None)
    if field.kind in ("number", "integer"):
        try:
            number = int(raw) if field.kind == "integer" else float(raw)
        except ValueError:
            return (
                None,
                f"{field.title} must be {'a whole number' if field.kind == 'integer' else 'a number'}",
            )
        return number, None
    return str(raw), None


FORM_ROWS = 24
"""The most rows the fields take before they scroll."""


class ElicitationScreen(ModalScreen[ElicitationAnswer]):
    """Asks for what the server wants; answers accept (with values), decline or cancel."""

    CSS_PATH = "elicitation.tcss"
    BINDINGS = [
        Binding("ctrl+s", "accept", "submit", show=False, priority=True),
        Binding("ctrl+d", "answer('decline')", "decline", show=False, priority=True),
        Binding("escape", "answer('cancel')", "cancel", show=False),
        Binding("ctrl+c", "answer('cancel')", "cancel", show=False, priority=True),
    ]

    def __init__(self, request: n.ElicitationRequested) -> None:
        super().__init__()
        self.request = request
        self.fields = form_fields(request.requested_schema) if request.mode == "form" else []

    def compose(self) -> ComposeResult:
        request = self.request
        with Vertical(id="elicitation"):
            yield Static(
                Content.assemble(
                    ("The MCP server ", "bold"),
                    (request.server_name, "bold $accent"),
                    (" asks for your input", "bold"),
                ),
                id="elicitation-title",
            )
            yield Static(Content(truncate_line(request.message, 2000)), id="elicitation-message")
            with VerticalScroll(id="elicitation-form"):
                if request.mode == "url":
                    yield Static(
                        Content.assemble(
                            ("open  ", "$text-muted"), (request.url or "", "underline")
                        )
                    )
                for field in self.fields:
                    yield from self._field(field)
            yield Static("", id="elicitation-error")
            hint = "enter submit" if request.mode == "form" else "enter done"
            yield Static(
                Content.from_markup(f"[$text-muted]{hint} · ctrl+d decline · esc cancel[/]"),
                id="elicitation-keys",
            )

    def _field(self, field: FormField) -> ComposeResult:
        label = Content.assemble((field.title, "bold"), (" *" if field.required else "", "$error"))
        if field.description:
            label = Content.assemble(label, ("  " + field.description, "$text-muted"))
        if field.kind == "boolean":
            yield Checkbox(label, bool(field.default), id=f"field-{field.name}", classes="field")
            return
        yield Static(label, classes="field-label")
        widget: Widget
        if field.kind == "enum":
            default = str(field.default) if field.default is not None else Select.NULL
            widget = Select(
                field.choices,
                value=default,
                allow_blank=not field.required or default is Select.NULL,
            )
        else:
            kind = {"number": "number", "integer": "integer"}.get(field.kind, "text")
            value = "" if field.default is None else str(field.default)
            widget = Input(value=value, type=kind, placeholder=field.kind)  # type: ignore[arg-type]
        widget.id = f"field-{field.name}"
        widget.add_class("field")
        yield widget

    def on_mount(self) -> None:
        """Focus the first field."""
        fields = self.query(".field")
        if fields:
            fields.first().focus()
        self.call_after_refresh(self._fit)

    def on_resize(self) -> None:
        """Keep the keys on screen: the form scrolls in what the dialog has left."""
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        box = self.query_one("#elicitation")
        form = self.query_one("#elicitation-form")
        others = sum(
            child.outer_size.height + child.styles.margin.height
            for child in box.children
            if child is not form
        )
        # The dialog may take 90% of the screen, borders included.
        room = int(self.size.height * 0.9) - 2 - others - form.styles.margin.height
        form.styles.max_height = max(3, min(FORM_ROWS, room))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in a text field submits the form."""
        event.stop()
        self.action_accept()

    def key_enter(self) -> None:
        """Enter elsewhere (a checkbox, no fields, a URL) submits too."""
        focused = self.focused
        if not isinstance(focused, Select | Input):
            self.action_accept()

    def action_accept(self) -> None:
        """Check the values and accept."""
        content: dict[str, Any] = {}
        for field in self.fields:
            widget = self.query_one(f"#field-{field.name}")
            raw = widget.value if isinstance(widget, Input | Select | Checkbox) else None
            value, error = field_value(field, raw)
            if error:
                self.query_one("#elicitation-error", Static).update(
                    Content.assemble((error, "$error"))
                )
                widget.focus()
                return
            if value is not None:
                content[field.name] = value
        self.dismiss(ElicitationAnswer("accept", content if self.request.mode == "form" else None))

    def action_answer(self, action: str) -> None:
        """Decline or cancel."""
        self.dismiss(ElicitationAnswer("decline" if action == "decline" else "cancel"))
