"""`codex app-server generate-json-schema`: the schema of what this server implements."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, create_model

from codex_core.lite import Model
from codex_core.servers.app_server import config_read as c
from codex_core.servers.app_server import model_admin as a
from codex_core.servers.app_server import model_extensions as x
from codex_core.servers.app_server import model_methods as m
from codex_core.servers.app_server import model_notify as n
from codex_core.servers.app_server.method_tables import METHODS

NOTIFICATIONS = (*n.NOTIFICATIONS, *a.NOTIFICATIONS)


def _envelope(name: str, method: str, params: type[Model], *, with_id: bool) -> type[BaseModel]:
    fields: dict[str, Any] = {
        "method": (Literal[method], ...),
        "params": (params, ...),
    }
    if with_id:
        fields["id"] = (str | int, ...)
    return create_model(name, **fields)


def _union_schema(title: str, arms: list[type[BaseModel]]) -> dict[str, Any]:
    from typing import Annotated, Union

    from pydantic import Field, TypeAdapter

    union: Any = Annotated[Union[tuple(arms)], Field(discriminator="method")]  # noqa: UP007
    schema = TypeAdapter(union).json_schema(ref_template="#/definitions/{model}")
    defs = schema.pop("$defs", {})
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": title,
        **schema,
        "definitions": defs,
    }


def _model_schema(model: type[Model] | type[BaseModel]) -> dict[str, Any]:
    schema = model.model_json_schema(ref_template="#/definitions/{model}")
    defs = schema.pop("$defs", None)
    out = {"$schema": "http://json-schema.org/draft-07/schema#", **schema}
    if defs:
        out["definitions"] = defs
    return out


def _title(method: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in method.replace("/", " ").split())


def schema_files() -> dict[str, dict[str, Any]]:
    """File name → schema, laid out like Codex's bundle (top level + `v2/`)."""
    files: dict[str, dict[str, Any]] = {}
    requests = [
        _envelope(f"{_title(method)}Request", method, params, with_id=True)
        for method, (params, _handler) in METHODS.items()
    ]
    files["ClientRequest.json"] = _union_schema("ClientRequest", requests)
    notes = [
        _envelope(f"{cls.__name__}Message", cls.METHOD, cls, with_id=False) for cls in NOTIFICATIONS
    ]
    files["ServerNotification.json"] = _union_schema("ServerNotification", notes)
    asks = [
        _envelope(f"{cls.__name__}Request", cls.METHOD, cls, with_id=True)
        for cls in n.SERVER_REQUESTS
    ]
    files["ServerRequest.json"] = _union_schema("ServerRequest", asks)
    files["CommandExecutionRequestApprovalResponse.json"] = _model_schema(n.CommandApprovalResponse)
    files["FileChangeRequestApprovalResponse.json"] = _model_schema(n.FileChangeApprovalResponse)
    files["v1/InitializeParams.json"] = _model_schema(m.InitializeParams)
    files["v1/InitializeResponse.json"] = _model_schema(m.InitializeResponse)
    results: dict[str, type[Model]] = {
        "thread/start": m.ThreadSessionResponse,
        "thread/resume": m.ThreadSessionResponse,
        "thread/fork": m.ThreadSessionResponse,
        "thread/list": m.ThreadListResponse,
        "thread/read": m.ThreadReadResponse,
        "thread/unarchive": a.ThreadUnarchiveResponse,
        "turn/start": m.TurnStartResponse,
        "turn/steer": a.TurnSteerResponse,
        "model/list": m.ModelListResponse,
        "fuzzyFileSearch": m.FuzzyFileSearchResponse,
        "config/read": c.ConfigReadResponse,
        "configRequirements/read": c.ConfigRequirementsReadResponse,
        "account/read": a.GetAccountResponse,
        "account/login/start": a.LoginAccountResponse,
        "hooks/list": x.HooksListResponse,
        "skills/list": x.SkillsListResponse,
    }
    for method, (params, _handler) in METHODS.items():
        if method == "initialize":
            continue
        title = _title(method)
        files[f"v2/{title}Params.json"] = _model_schema(params)
        files[f"v2/{title}Response.json"] = _model_schema(results.get(method, m.EmptyResponse))
    for cls in NOTIFICATIONS:
        files[f"v2/{cls.__name__}.json"] = _model_schema(cls)
    return files


def write_schema(out_dir: Path) -> list[Path]:
    """Write every schema file under `out_dir`; returns the paths written."""
    written: list[Path] = []
    for name, schema in schema_files().items():
        path = out_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        written.append(path)
    return written
