"""Walk one large JSON document a piece at a time, so it never has to be one Python object.

The retrieval files hold a whole split in one document (VisDial layout: pools of texts and
then, per dialog, 100 candidate indices per round); a million rounds is some 400 MB of
JSON and several GB as Python objects. :class:`JsonStream` reads the file in chunks and
lets the caller step through objects (:meth:`JsonStream.members`) and arrays
(:meth:`JsonStream.elements`), decoding only the small values it asks for
(:meth:`JsonStream.value`, with the standard library's C decoder) and skipping the rest.
Memory is bounded by the largest single value decoded, not by the file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, TextIO

_SPACE = re.compile(r"[ \t\n\r]*")
_NUMBER_TAIL = re.compile(r"[0-9.eE+-]*")
CHUNK = 1 << 20


class JsonStream:
    """A cursor over a JSON text read from ``fh`` in chunks of ``chunk`` characters.

    ``members`` yields each key of an object and ``elements`` yields once per array element;
    after each yield the caller must consume exactly one value (``value``, ``skip``, or a
    nested ``members``/``elements`` walk) before asking for the next.
    """

    def __init__(self, fh: TextIO, chunk: int = CHUNK, name: str = "JSON") -> None:
        self.fh = fh
        self.chunk = max(1, chunk)
        self.name = name
        self.buf = ""
        self.pos = 0
        self.consumed = 0  # characters dropped from the front of buf (for error positions)
        self.eof = False
        self.decoder = json.JSONDecoder()

    def _fill(self) -> bool:
        """Read more text, keeping the unread part; reads grow with the buffer (no quadratic rescans)."""
        if self.eof:
            return False
        data = self.fh.read(max(self.chunk, len(self.buf) - self.pos))
        if not data:
            self.eof = True
            return False
        self.consumed += self.pos
        self.buf = self.buf[self.pos :] + data
        self.pos = 0
        return True

    def _error(self, what: str) -> ValueError:
        return ValueError(f"{self.name}: {what} at character {self.consumed + self.pos}")

    def peek(self) -> str:
        """The next character that is not white space ('' at the end of the text)."""
        while True:
            self.pos = _SPACE.match(self.buf, self.pos).end()  # type: ignore[union-attr]
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self._fill():
                return ""

    def _take(self, allowed: str) -> str:
        char = self.peek()
        if not char or char not in allowed:
            raise self._error(f"expected one of {allowed!r}, found {char or 'the end'!r}")
        self.pos += 1
        return char

    def value(self) -> Any:
        """Decode the next whole value (meant for small ones: a string, a number, one element)."""
        self.peek()
        while True:
            try:
                obj, end = self.decoder.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as exc:
                if self._fill():
                    continue
                raise self._error(exc.msg) from None
            # a number cut by the chunk's end ("12" of "12.5e3") may go on in the next chunk
            number = isinstance(obj, int | float) and not isinstance(obj, bool)
            if number and _NUMBER_TAIL.fullmatch(self.buf, end) and self._fill():
                continue
            self.pos = end
            return obj

    def members(self) -> Iterator[str]:
        """The keys of the object that starts here; consume each key's value before the next."""
        self._take("{")
        if self.peek() == "}":
            self.pos += 1
            return
        while True:
            if self.peek() != '"':
                raise self._error("expected a key")
            key = self.value()
            self._take(":")
            yield key
            if self._take(",}") == "}":
                return

    def elements(self) -> Iterator[None]:
        """Once per element of the array that starts here; consume the element each time."""
        self._take("[")
        if self.peek() == "]":
            self.pos += 1
            return
        while True:
            yield None
            if self._take(",]") == "]":
                return

    def skip(self) -> None:
        """Step over the next value without building it whole."""
        char = self.peek()
        if char == "{":
            for _ in self.members():
                self.skip()
        elif char == "[":
            for _ in self.elements():
                self.skip()
        else:
            self.value()

    def read(self) -> Any:
        """The next value built piece by piece (equals ``json.load``; for tests and small parts)."""
        char = self.peek()
        if char == "{":
            return {key: self.read() for key in self.members()}
        if char == "[":
            return [self.read() for _ in self.elements()]
        return self.value()

    def end(self) -> None:
        """Check that nothing but white space follows the document."""
        if self.peek():
            raise self._error("extra data after the document")
