"""LSP's base protocol (`Content-Length` framing) read with bounded memory, resynchronising
after bad framing.

pygls' own loop (pygls.io_.run_async) reads a header line whole, reads whatever
`Content-Length` says in one call, and after a wrong length reads the next message's header
as part of a body: one bad message desynchronises it for good. (ruff's server, on the
`lsp-server` crate, stops at the first malformed header instead.) Here a header block is at
most MAX_HEADER bytes, a body at most MAX_BODY (a longer one is skipped as it arrives, its
first bytes kept to answer it), and after a body that is not JSON the stream is searched
again for the next `Content-Length:` header, the bad body included — a length too short or
too long costs that message only.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from interpreter.load.yamlpos import MAX_BYTES

MAX_HEADER = 8_192
# a document of MAX_BYTES is answered TOO-LARGE, so it must arrive: JSON's \uXXXX escapes
# take up to 6 bytes for a 3-byte character
MAX_BODY = 2 * MAX_BYTES + 1_000_000
HEAD = 65_536  # bytes kept of a body too large to read (its id, method and uri are there)
_MARK = re.compile(rb"content-length:", re.I)
_LENGTH = re.compile(rb"content-length:[ \t]*(\d{1,15})[ \t]*$", re.I)
_NEXT = re.compile(rb"Content-Length:[ \t]*\d+\r\n", re.I)


@dataclass(frozen=True)
class Frame:
    """One message's body; or the first HEAD bytes of a body of `size` bytes (too large); or
    (`cut`) a body that ended before the `size` its header gave."""

    body: bytes
    size: int = 0
    cut: bool = False

    @property
    def too_large(self) -> bool:
        return not self.cut and self.size > len(self.body)


class Framer:
    """Bytes in (`feed`), message bodies out (`frames`), in bounded memory."""

    def __init__(self, max_header: int = MAX_HEADER, max_body: int = MAX_BODY) -> None:
        self.max_header, self.max_body = max_header, max_body
        self.buffer = bytearray()
        self._length: int | None = None  # the body being read
        self._skip = 0  # bytes left of a body too large to keep
        self._head = b""
        self._declared = 0
        self._tried = -1  # the length of the incomplete body last tried as JSON
        self.dropped = 0  # bytes thrown away while resynchronising (for the log)

    def feed(self, data: bytes) -> None:
        self.buffer += data

    def next_frame(self) -> Frame | None:
        """The next whole message's body, if it has arrived (one at a time: a body found
        bad is given back with `reject` before the next is cut)."""
        if self._skip:
            return self._skipping()
        if self._length is None and not self._header():
            return None
        assert self._length is not None
        if self._length > self.max_body:
            self._skip = self._declared = self._length
            self._head, self._length = b"", None
            return self._skipping()
        if len(self.buffer) < self._length:
            return None
        self._tried = -1
        body = bytes(self.buffer[:self._length])
        del self.buffer[:self._length]
        self._length = None
        return Frame(body)

    def reject(self, frame: Frame) -> None:
        """`frame` was not a message (its length was wrong): look for the next header
        inside it and after it."""
        self.buffer[:0] = frame.body[1:]
        self._drop_to_header()

    def stalled(self) -> Frame | None:
        """No more bytes arrive while a body is incomplete: when what came of it is already
        a whole JSON text (a strict prefix of an object never is), or the next message's
        header is inside it, the length was too long and the body ends there. (So too for a
        body being skipped as too large, while what was skipped is all kept.)"""
        if self._skip and len(self._head) == self._declared - self._skip:
            body = self._ended(self._head)
            if body is None:
                return None
            self.buffer[:0] = self._head[len(body):]
            self._skip, self._head = 0, b""
            return Frame(body, self._declared, cut=True)
        if self._length is None:
            return None
        body = self._ended(bytes(self.buffer))
        if body is None:
            return None
        del self.buffer[:len(body)]
        size, self._length = self._length, None
        return Frame(body, size, cut=True)

    def _ended(self, partial: bytes) -> bytes | None:
        """The part of an incomplete body that is a whole message, if one is."""
        found = _NEXT.search(partial, 1)
        if found is not None:
            return partial[:found.start()]
        if len(partial) == self._tried:
            return None
        self._tried = len(partial)
        try:
            json.loads(partial)
        except (ValueError, RecursionError):
            return None
        return partial

    def _skipping(self) -> Frame | None:
        take = min(self._skip, len(self.buffer))
        if len(self._head) < HEAD:
            self._head += bytes(self.buffer[:min(take, HEAD - len(self._head))])
        del self.buffer[:take]
        self._skip -= take
        if self._skip:
            return None
        return Frame(self._head, size=self._declared)

    def _header(self) -> bool:
        """Read one header block; True when a body's length is known."""
        while True:
            end = self.buffer.find(b"\r\n\r\n", 0, self.max_header + 4)
            if end < 0:
                if len(self.buffer) > self.max_header:  # a header without end
                    self._drop_to_header(1)
                    continue
                return False
            lines = bytes(self.buffer[:end]).split(b"\r\n")
            length = next((m for line in lines if (m := _LENGTH.match(line))), None)
            if length is None:  # not a header (what is left of a bad body): the next one
                self._drop_to_header(1)
                continue
            del self.buffer[:end + 4]
            self._length = int(length.group(1))
            return True

    def _drop_to_header(self, start: int = 0) -> bool:
        """Throw away the bytes before the next `Content-Length:` (at or after `start`);
        True when one is there. Without one only the last few bytes are kept (a header may
        be arriving), so that garbage cannot fill memory."""
        found = _MARK.search(self.buffer, start)
        if found is None:
            keep = max(len(self.buffer) - len(b"content-length:") + 1, min(start, len(self.buffer)))
            self.dropped += keep
            del self.buffer[:keep]
            return False
        self.dropped += found.start()
        del self.buffer[:found.start()]
        return True
