"""The pure SSE decoder: line endings, multi-line data, comments, and arbitrary chunking."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from codex_core.client.sse import MAX_EVENT_CHARS, SseDecoder, SseEvent, SseTooLarge, decode_all


def test_sse_decodes_named_and_unnamed_events() -> None:
    body = b'event: response.created\ndata: {"a":1}\n\ndata: [DONE]\n\n'
    assert decode_all([body]) == [
        SseEvent("response.created", '{"a":1}'),
        SseEvent(None, "[DONE]"),
    ]


def test_sse_joins_multi_line_data_with_newlines() -> None:
    assert decode_all([b"data: one\ndata: two\ndata:three\n\n"]) == [
        SseEvent(None, "one\ntwo\nthree")
    ]


def test_sse_skips_comments_and_unknown_fields() -> None:
    body = b": keep-alive\nretry: 100\nfoo: bar\ndata: x\n\n:another\n\n"
    assert decode_all([body]) == [SseEvent(None, "x")]


def test_sse_accepts_crlf_and_bare_cr_line_endings() -> None:
    expected = [SseEvent("e", "1"), SseEvent(None, "2")]
    assert decode_all([b"event: e\r\ndata: 1\r\n\r\ndata: 2\r\n\r\n"]) == expected
    assert decode_all([b"event: e\rdata: 1\r\rdata: 2\r\r"]) == expected


def test_sse_crlf_split_across_chunks_is_one_line_break() -> None:
    assert decode_all([b"data: 1\r", b"\n\r", b"\ndata: 2\r\n\r\n"]) == [
        SseEvent(None, "1"),
        SseEvent(None, "2"),
    ]


def test_sse_blank_line_without_data_dispatches_nothing() -> None:
    assert decode_all([b"event: lonely\n\n\n\ndata: x\n\n"]) == [SseEvent(None, "x")]


def test_sse_keeps_only_one_leading_space_of_a_value() -> None:
    assert decode_all([b"data:  two spaces\n\n"]) == [SseEvent(None, " two spaces")]


def test_sse_field_without_colon_has_empty_value() -> None:
    assert decode_all([b"data\n\n"]) == [SseEvent(None, "")]


def test_sse_utf8_sequence_split_across_chunks_survives() -> None:
    data = "data: héllo ✓\n\n".encode()
    split = data.index("✓".encode()) + 1
    assert decode_all([data[:split], data[split:]]) == [SseEvent(None, "héllo ✓")]


def test_sse_strips_a_leading_byte_order_mark() -> None:
    assert decode_all([b"\xef\xbb", b"\xbfdata: x\n\n"]) == [SseEvent(None, "x")]


def test_sse_event_id_is_remembered() -> None:
    assert decode_all([b"id: 7\ndata: a\n\ndata: b\n\n"]) == [
        SseEvent(None, "a", "7"),
        SseEvent(None, "b", "7"),
    ]


def test_sse_finish_dispatches_complete_lines_missing_the_blank_line() -> None:
    decoder = SseDecoder()
    assert decoder.feed(b"data: [DONE]\n") == []
    assert decoder.finish() == [SseEvent(None, "[DONE]")]


def test_sse_finish_drops_an_unterminated_last_line() -> None:
    decoder = SseDecoder()
    assert decoder.feed(b'data: {"type": "response.comp') == []
    assert decoder.finish() == []


def test_sse_feed_returns_events_as_soon_as_they_complete() -> None:
    decoder = SseDecoder()
    assert decoder.feed(b"data: a\n") == []
    assert decoder.feed(b"\nda") == [SseEvent(None, "a")]
    assert decoder.feed(b"ta: b\n\n") == [SseEvent(None, "b")]


_text = st.text(
    alphabet=st.characters(blacklist_characters="\r\n", blacklist_categories=["Cs"]), max_size=20
)
_event = st.tuples(
    st.one_of(st.none(), _text.filter(lambda s: s != "" and not s.startswith(" "))),
    st.lists(_text, min_size=1, max_size=3),
)
_newline = st.sampled_from(["\n", "\r\n", "\r"])


@st.composite
def _stream(draw: st.DrawFn) -> tuple[bytes, list[SseEvent]]:
    """A random stream body and the events it must decode to."""
    events = draw(st.lists(_event, max_size=6))
    parts: list[str] = []
    expected: list[SseEvent] = []
    for name, data_lines in events:
        if draw(st.booleans()):
            parts.append(":comment" + draw(_newline))
        if name is not None:
            parts.append(f"event: {name}" + draw(_newline))
        for line in data_lines:
            parts.append(f"data: {line}" + draw(_newline))
        blank = draw(_newline)
        # A bare CR followed by an LF would fuse into one CRLF; keep the blank line distinct.
        if parts[-1].endswith("\r") and blank.startswith("\n"):
            blank = "\r"
        parts.append(blank)
        expected.append(SseEvent(name, "\n".join(data_lines)))
    return "".join(parts).encode(), expected


@given(_stream(), st.lists(st.integers(min_value=0, max_value=10_000), max_size=12))
def test_sse_arbitrary_chunking_gives_the_same_events(
    stream: tuple[bytes, list[SseEvent]], cuts: list[int]
) -> None:
    body, expected = stream
    points = sorted({c % (len(body) + 1) for c in cuts})
    chunks = [body[a:b] for a, b in zip([0, *points], [*points, len(body)], strict=True)]
    assert decode_all(chunks) == expected
    assert decode_all([body]) == expected


@given(st.binary(max_size=300), st.lists(st.integers(min_value=0, max_value=300), max_size=8))
def test_sse_any_bytes_decode_the_same_however_chunked(body: bytes, cuts: list[int]) -> None:
    points = sorted({c % (len(body) + 1) for c in cuts})
    chunks = [body[a:b] for a, b in zip([0, *points], [*points, len(body)], strict=True)]
    assert decode_all(chunks) == decode_all([body])


def test_sse_line_longer_than_the_limit_raises_while_it_streams() -> None:
    decoder = SseDecoder(max_chars=100)
    decoder.feed(b"data: " + b"x" * 60)
    with pytest.raises(SseTooLarge) as raised:
        decoder.feed(b"x" * 60)
    assert (raised.value.what, raised.value.limit) == ("line", 100)


def test_sse_line_at_the_limit_is_accepted_in_any_chunking() -> None:
    line = b"data: " + b"y" * 94  # exactly 100 characters
    assert decode_all([line + b"\n\n"], max_chars=100) == [SseEvent(None, "y" * 94)]
    chunks = [line[i : i + 7] for i in range(0, len(line), 7)] + [b"\r", b"\n\n"]
    assert decode_all(chunks, max_chars=100) == [SseEvent(None, "y" * 94)]


def test_sse_event_of_many_data_lines_is_bounded_too() -> None:
    body = b"data: 0123456789\n" * 20 + b"\n"
    with pytest.raises(SseTooLarge) as raised:
        decode_all([body], max_chars=100)
    assert raised.value.what == "event"
    assert decode_all([b"data: 0123456789\n" * 9 + b"\n"], max_chars=100) == [
        SseEvent(None, "\n".join(["0123456789"] * 9))
    ]


def test_sse_default_limit_is_generous_for_real_responses() -> None:
    assert MAX_EVENT_CHARS == 16 * 1024 * 1024
    big = "z" * (4 * 1024 * 1024)
    assert decode_all([f"data: {big}\n\n".encode()]) == [SseEvent(None, big)]
