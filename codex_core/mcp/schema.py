"""Cleaning an MCP tool's input schema into the JSON-schema subset the model APIs accept.

The Codex CLI keeps only structural keywords (type, description, enum, items, minItems,
properties, required, additionalProperties, anyOf/oneOf/allOf, $ref and its definitions;
property and definition names sorted), turns `const`
into a one-value `enum`, infers a missing `type` from the keywords present, gives objects
`properties` and arrays `items`, and drops annotations such as `title`, `default`, `format`
or numeric bounds. A schema it cannot type (only a description, `not`, an unknown type)
becomes the empty schema `{}` (anything).
"""

from __future__ import annotations

from typing import Any

_PRIMITIVES = ("string", "number", "boolean", "integer", "object", "array", "null")
_COMBINATORS = ("anyOf", "oneOf", "allOf")
_DEFINITIONS = ("$defs", "definitions")
_NUMERIC = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")


def clean_input_schema(schema: Any) -> dict[str, Any]:
    """The tool's `inputSchema` as the parameters of a function tool (always an object)."""
    cleaned = clean_schema(schema) if isinstance(schema, dict) else {}
    if cleaned.get("type") != "object":
        # The APIs want an object at the root; keep what an object can carry.
        cleaned = {k: v for k, v in cleaned.items() if k not in ("type", "enum", "items")}
        cleaned["type"] = "object"
    cleaned.setdefault("properties", {})
    return _ordered(cleaned)


def clean_schema(schema: Any) -> dict[str, Any]:
    """One (sub)schema, cleaned; booleans become a permissive string schema."""
    if isinstance(schema, bool) or not isinstance(schema, dict):
        return {"type": "string"}
    out: dict[str, Any] = {}
    ref = schema.get("$ref")
    if isinstance(ref, str):
        out["$ref"] = ref
    if "const" in schema:
        out["enum"] = [schema["const"]]
    elif isinstance(schema.get("enum"), list):
        out["enum"] = list(schema["enum"])
    properties = schema.get("properties")
    if isinstance(properties, dict):
        # Sorted, as the Codex CLI's maps serialize.
        out["properties"] = {str(k): clean_schema(properties[k]) for k in sorted(properties)}
    if isinstance(schema.get("required"), list):
        out["required"] = [str(r) for r in schema["required"]]
    extra = schema.get("additionalProperties")
    if isinstance(extra, bool):
        out["additionalProperties"] = extra
    elif isinstance(extra, dict):
        out["additionalProperties"] = clean_schema(extra)
    items = schema.get("items")
    if isinstance(items, dict | bool):
        out["items"] = clean_schema(items)
    min_items = schema.get("minItems")
    if isinstance(min_items, int) and not isinstance(min_items, bool) and min_items >= 0:
        out["minItems"] = min_items
    for key in _COMBINATORS:
        options = schema.get(key)
        if isinstance(options, list):
            out[key] = [clean_schema(option) for option in options]
    for key in _DEFINITIONS:
        definitions = schema.get(key)
        if isinstance(definitions, dict):
            out[key] = {str(k): clean_schema(definitions[k]) for k in sorted(definitions)}
    types = _types(schema, out)
    if not types:
        if any(key in out for key in ("$ref", *_COMBINATORS)):
            if isinstance(schema.get("description"), str):
                out["description"] = schema["description"]
            return _ordered(out)
        return {}
    out["type"] = types[0] if len(types) == 1 else types
    if isinstance(schema.get("description"), str):
        out["description"] = schema["description"]
    if "object" in types:
        out.setdefault("properties", {})
    if "array" in types:
        out.setdefault("items", {"type": "string"})
    return _ordered(out)


def _types(schema: dict[str, Any], out: dict[str, Any]) -> list[str]:
    declared = schema.get("type")
    if isinstance(declared, str):
        names = [declared]
    elif isinstance(declared, list):
        names = [t for t in declared if isinstance(t, str)]
    else:
        names = []
    types = [t for t in names if t in _PRIMITIVES]
    if types or names:
        return types
    if any(key in schema for key in ("properties", "required", "additionalProperties")):
        return ["object"]
    if "items" in schema or "prefixItems" in schema:
        return ["array"]
    if "enum" in out or "format" in schema:
        return ["string"]
    if any(key in schema for key in _NUMERIC):
        return ["number"]
    return []


_ORDER = (
    "$ref",
    "type",
    "description",
    "enum",
    "items",
    "minItems",
    "properties",
    "required",
    "additionalProperties",
    *_COMBINATORS,
    *_DEFINITIONS,
)


def _ordered(schema: dict[str, Any]) -> dict[str, Any]:
    """Keys in a stable order, so request bodies are byte-for-byte reproducible."""
    return {key: schema[key] for key in _ORDER if key in schema}
