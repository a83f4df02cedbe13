"""Schemas of every frame a client may send, and the error frames the server answers with.

A frame is one JSON object of at most :data:`MAX_FRAME` bytes; anything else is answered
with an error frame and changes nothing (docs/WEB.md lists the codes).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError

T = TypeVar("T")
MAX_FRAME = 4096
NAME_MAX = 24

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=NAME_MAX)]


class Frame(BaseModel):
    """Fields every client frame may not go beyond."""

    model_config = ConfigDict(extra="forbid", strict=True)


class Sit(Frame):
    """Take an empty human seat."""

    type: Literal["sit"]
    seat: int = Field(ge=0, le=7)
    name: Name


class Act(Frame):
    """Play an action (engine JSON: roll / score / stand) on the state version the client saw."""

    type: Literal["act"]
    version: int = Field(ge=0)
    action: dict[str, Any]


class Undo(Frame):
    """Take back the lone person's last decision (and the bots' moves after it) at a table against bots."""

    type: Literal["undo"]
    version: int = Field(ge=0)


class Hint(Frame):
    """Ask the coach about the player's own decision."""

    type: Literal["hint"]


class Ping(Frame):
    """Keep-alive."""

    type: Literal["ping"]


class Seek(Frame):
    """Lobby: seek a game of these rules (a preset's name) with this many people, under this name."""

    type: Literal["seek"]
    rules: str = Field(max_length=64)
    players: int = Field(ge=2, le=8)
    name: Name


class Cancel(Frame):
    """Lobby: stop seeking."""

    type: Literal["cancel"]


class Hello(Frame):
    """The first frame of every connection: who is there (the seat token, if any) and the language.

    The token travels in this frame, never in the URL, so it stays out of access logs and histories."""

    type: Literal["hello"]
    token: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_-]{16,64}$")
    lang: str | None = Field(default=None, max_length=16)


ClientFrame = Annotated[Sit | Act | Undo | Hint | Ping, Field(discriminator="type")]
_frames: TypeAdapter[Sit | Act | Undo | Hint | Ping] = TypeAdapter(ClientFrame)
_hello: TypeAdapter[Hello] = TypeAdapter(Hello)


class ProtocolError(Exception):
    """A frame refused: its code and message go back to the client in an error frame."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def error_frame(code: str, message: str) -> dict[str, str]:
    """The frame that answers a refused message."""
    return {"type": "error", "code": code, "message": message}


def parse_hello(text: str | bytes) -> Hello:
    """The first frame of a connection, or a :class:`ProtocolError` saying what is wrong with it."""
    data = _json_object(text)
    if data.get("type") != "hello":
        raise ProtocolError("bad-message", "the first frame is {\"type\": \"hello\", \"token\": ...}")
    try:
        return _hello.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "frame"
        raise ProtocolError("bad-message", f"{where}: {first['msg']}") from None


def _json_object(text: str | bytes) -> dict[str, Any]:
    if isinstance(text, bytes):
        raise ProtocolError("bad-message", "frames are JSON text, not binary")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME:
        raise ProtocolError("too-big", f"a frame may hold at most {MAX_FRAME} bytes")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad-json", "the frame is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad-message", "a frame is a JSON object with a \"type\"")
    return data


LobbyFrame = Annotated[Seek | Cancel | Ping, Field(discriminator="type")]
_lobby_frames: TypeAdapter[Seek | Cancel | Ping] = TypeAdapter(LobbyFrame)


def _after_hello(adapter: TypeAdapter[T], text: str | bytes) -> T:
    """A frame after the hello, validated by ``adapter``, or a :class:`ProtocolError` saying what is wrong."""
    data = _json_object(text)
    if data.get("type") == "hello":
        raise ProtocolError("bad-message", "hello is only the first frame of a connection")
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "frame"
        raise ProtocolError("bad-message", f"{where}: {first['msg']}") from None


def parse_lobby_frame(text: str | bytes) -> Seek | Cancel | Ping:
    """A frame of the lobby's WebSocket, or a :class:`ProtocolError` saying what is wrong with it."""
    return _after_hello(_lobby_frames, text)


def parse_frame(text: str | bytes) -> Sit | Act | Undo | Hint | Ping:
    """The client frame in ``text``, or a :class:`ProtocolError` saying what is wrong with it."""
    return _after_hello(_frames, text)
