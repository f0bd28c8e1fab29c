"""The Move value: one legal move, quiet or capturing, with its whole route; the errors a
move written as text can raise."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from replay.rules.variants import Variant


class InvalidMoveError(ValueError):
    """Text that is not a move in any notation (``"c9-d4"``, ``"hello"``)."""


class IllegalMoveError(ValueError):
    """A move that is written correctly but is not legal in the position."""


class AmbiguousMoveError(ValueError):
    """A move whose text fits several legal moves (a short or minimal form); the message
    lists them."""


class Move:
    """A move: origin, landing squares in order, captured squares in capture order, promotion.

    Squares are internal indices (see ``pdn.squares``). ``path`` holds every landing square
    after the origin; its last element is the destination. Two routes that take the same pieces
    from the same origin to the same destination are the same move: equality and hashing
    use ``(origin, destination, captured set)`` only.

    A move generated for a variant (``variant``) prints in that variant's notation (``c3-d4``,
    ``c3:e5``, ``22x15``: origin and destination; ``Board.text`` writes paths and other
    notations); a bare ``Move`` prints internal indices.
    """

    __slots__ = ("captured_mask", "captures", "destination", "origin", "path", "promotes",
                 "variant")

    def __init__(self, origin: int, path: tuple[int, ...], captures: tuple[int, ...] = (),
                 promotes: bool = False, captured_mask: int = 0,
                 variant: Variant | None = None) -> None:
        self.origin = origin
        self.path = path
        self.destination = path[-1]
        self.captures = captures
        self.promotes = promotes
        self.captured_mask = captured_mask
        self.variant = variant

    @property
    def is_capture(self) -> bool:
        return bool(self.captures)

    @property
    def key(self) -> tuple[int, int, int]:
        """Identity of the move: origin, destination and the set of captured squares."""
        return self.origin, self.destination, self.captured_mask

    @property
    def route_key(self) -> tuple[int, int, tuple[int, ...]]:
        """Identity of the route as engines that keep duplicate captures count it."""
        return self.origin, self.destination, self.captures

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __str__(self) -> str:
        """Origin and destination in the variant's notation, ``c3-d4`` or ``c3:e5``."""
        if self.variant is None:
            origin, destination, separator = str(self.origin), str(self.destination), "x"
        else:
            gametype = self.variant.gametype
            names = gametype.notation.names
            origin, destination = (names.get(square, str(square)) if isinstance(names, dict)
                                   else names[square] for square in (self.origin,
                                                                     self.destination))
            separator = gametype.capture_separator
        return f"{origin}{separator if self.captures else '-'}{destination}"

    def __repr__(self) -> str:
        if self.variant is not None:
            return f"Move({str(self)!r})"
        sep = "x" if self.captures else "-"
        return f"Move({sep.join(str(s) for s in (self.origin, *self.path))})"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with its variant, so that it prints the same in another process."""
        return Move, (self.origin, self.path, self.captures, self.promotes, self.captured_mask,
                      self.variant)
