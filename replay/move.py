"""The Move value: one legal move, quiet or capturing, with its whole route."""

from __future__ import annotations


class Move:
    """A move: origin, landing squares in order, captured squares in capture order, promotion.

    Squares are internal indices (see ``pdn.squares``). ``path`` holds every landing square
    after the origin; its last element is the destination. Two routes that take the same pieces
    from the same origin to the same destination are the same move: equality and hashing
    use ``(origin, destination, captured set)`` only.
    """

    __slots__ = ("captured_mask", "captures", "destination", "origin", "path", "promotes")

    def __init__(self, origin: int, path: tuple[int, ...], captures: tuple[int, ...] = (),
                 promotes: bool = False, captured_mask: int = 0) -> None:
        self.origin = origin
        self.path = path
        self.destination = path[-1]
        self.captures = captures
        self.promotes = promotes
        self.captured_mask = captured_mask

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

    def __repr__(self) -> str:
        sep = "x" if self.captures else "-"
        return f"Move({sep.join(str(s) for s in (self.origin, *self.path))})"
