"""Legal move generation on integer bitboards, one shared engine for every variant.

A position is three integers -- ``own``, ``opp`` and ``kings`` bitboards over the internal
square indices of ``pdn.squares`` -- plus the side to move (0 White, 1 Black). Quiet men moves
and the test "is there any capture" are whole-board shifts; captures are enumerated by a
depth-first search over precomputed neighbour and ray tables. The variant's rules
(``replay.rules.variants``) only change tables and a few switches, never the code path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache

from pdn.squares import FILES
from replay.rules.move import Move
from replay.rules.variants import (
    HIGHEST_VALUE,
    ITALIAN_ORDER,
    KING_MUST_CAPTURE,
    MAJORITY,
    MAJORITY_THEN_KINGS,
    PASS_THROUGH,
    PROMOTE_AND_CONTINUE,
    PROMOTE_AND_STOP,
    Direction,
    Variant,
)

WHITE, BLACK = 0, 1


def iter_bits(bits: int) -> Iterable[int]:
    """Indices of the set bits, lowest first."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


class MoveGenerator:
    """Legal moves of one variant; build it once with ``generator_for(variant)``."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        geo = variant.geometry
        self.width, self.height = geo.width, geo.height
        self.playable = geo.playable
        self.board_mask: int = sum(1 << sq for sq in geo.playable)
        self.geometry = geo
        self.size = geo.size  # internal indices, ghosts included (pdn.squares)
        self.file_masks = {
            name: sum(1 << sq for sq in geo.playable if geo.row_col(sq)[1] == col)
            for col, name in enumerate(FILES[:geo.width])}
        # by square: every playable square of its column (short notation's rivals)
        self.column_masks = tuple(
            self.file_masks.get(FILES[geo.row_col(sq)[1]], 0) if geo.is_playable(sq) else 0
            for sq in range(self.size))
        self.promotion_mask = (
            sum(1 << sq for sq in geo.playable if geo.row_col(sq)[0] == geo.height - 1),
            sum(1 << sq for sq in geo.playable if geo.row_col(sq)[0] == 0),
        )
        self._steps: dict[Direction, list[int]] = {}
        self._rays: dict[Direction, list[tuple[int, ...]]] = {}
        # Per colour: (shift, source mask) for quiet men moves; (shift, source mask) for
        # the capture test; neighbour tables for man captures.
        self.man_shifts = tuple(self._shifts(self._color_dirs(variant.man_moves, c), 1)
                                for c in (WHITE, BLACK))
        self.man_capture_shifts = tuple(
            self._shifts(self._color_dirs(variant.man_captures, c), 2) for c in (WHITE, BLACK))
        self.man_capture_steps = tuple(
            tuple(self._step_table(d) for d in self._color_dirs(variant.man_captures, c))
            for c in (WHITE, BLACK))
        self.man_back_steps = tuple(
            tuple(self._step_table((-dr, -dc)) for dr, dc in self._color_dirs(variant.man_moves, c))
            for c in (WHITE, BLACK))
        self.king_move_rays = tuple(self._ray_table(d) for d in variant.king_moves)
        self.king_move_steps = tuple(self._step_table(d) for d in variant.king_moves)
        self.king_capture_dirs = variant.king_captures
        self.king_capture_rays = tuple(self._ray_table(d) for d in variant.king_captures)
        self.king_capture_steps = tuple(self._step_table(d) for d in variant.king_captures)
        self.opposite = tuple(
            variant.king_captures.index((-dr, -dc)) if (-dr, -dc) in variant.king_captures else -1
            for dr, dc in variant.king_captures)
        self._filter = _precedence_filter(variant)
        # The variant's switches as the generator's own attributes: read at every node, they
        # are native fields of the compiled class (the variant is an interpreted dataclass).
        self.forced_capture: bool = variant.forced_capture
        self.men_capture_kings: bool = variant.men_capture_kings
        self.flying_kings: bool = variant.flying_kings
        self.max_king_moves: int = variant.max_king_moves
        self.remove_at_once: bool = variant.remove_at_once
        self.king_lands_behind: bool = variant.king_lands_behind
        # Where captured pieces stay until the move ends they block the way back anyway.
        self.king_turns_back: bool = variant.king_turns_back or not variant.remove_at_once
        self.promotion_continues = variant.promotion_in_capture == PROMOTE_AND_CONTINUE
        self.promotion_stops = variant.promotion_in_capture == PROMOTE_AND_STOP
        self.promotion_passes = variant.promotion_in_capture == PASS_THROUGH
        # Whether two men of one file can step to the same square (two man moves with the
        # same change of column); where not, a quiet move's rival in its file is a king.
        self.men_share_files = len({dc for _, dc in variant.man_moves}) < len(variant.man_moves)

    # -- tables -----------------------------------------------------------------------------

    @staticmethod
    def _color_dirs(dirs: tuple[Direction, ...], color: int) -> tuple[Direction, ...]:
        return dirs if color == WHITE else tuple((-dr, dc) for dr, dc in dirs)

    def _neighbour(self, square: int, direction: Direction) -> int:
        if not (self.board_mask >> square) & 1:
            return -1
        row, col = self.geometry.row_col(square)
        target = self.geometry.at(row + direction[0], col + direction[1])
        return -1 if target is None else target

    def _step_table(self, direction: Direction) -> list[int]:
        if direction not in self._steps:
            self._steps[direction] = [self._neighbour(sq, direction)
                                      for sq in range(self.size)]
        return self._steps[direction]

    def _ray_table(self, direction: Direction) -> list[tuple[int, ...]]:
        if direction not in self._rays:
            step = self._step_table(direction)
            rays = []
            for square in range(self.size):
                ray, current = [], step[square]
                while current >= 0:
                    ray.append(current)
                    current = step[current]
                rays.append(tuple(ray))
            self._rays[direction] = rays
        return self._rays[direction]

    def _shifts(self, dirs: tuple[Direction, ...], reach: int) -> tuple[tuple[int, int], ...]:
        result = []
        for direction in dirs:
            step = self._step_table(direction)
            mask = 0
            for square in self.playable:
                target = square
                for _ in range(reach):
                    target = step[target] if target >= 0 else -1
                if target >= 0:
                    mask |= 1 << square
            result.append((self.geometry.offset(*direction), mask))
        return tuple(result)

    # -- the public API ---------------------------------------------------------------------

    def moves(self, own: int, opp: int, kings: int, color: int, frozen: int = 0) -> list[Move]:
        """Every legal move, one per distinct (origin, destination, captured set).

        ``frozen`` marks kings that may not make a non-capturing move now (Frisian's limit on
        moves in a row by the same king, docs/rules.md); 0 everywhere else.
        """
        captures = self.captures(own, opp, kings, color)
        if captures and self.forced_capture:
            return unique(captures)
        return unique(captures) + self.quiet_moves(own, opp, kings, color, frozen)

    def count(self, own: int, opp: int, kings: int, color: int, keep_duplicates: bool = False,
              frozen: int = 0) -> int:
        """The number of legal moves, without building quiet moves (perft's leaf count)."""
        if self.forced_capture and not self.has_capture(own, opp, kings, color):
            return self.count_quiet(own, opp, kings, color, frozen)
        captures = self.captures(own, opp, kings, color)
        if captures and self.forced_capture:
            return len(unique(captures, keep_duplicates))
        return (len(unique(captures, keep_duplicates))
                + self.count_quiet(own, opp, kings, color, frozen))

    def has_capture(self, own: int, opp: int, kings: int, color: int) -> bool:
        """Whether the side to move has any capture (cheap: shifts, then king rays)."""
        empty = self.board_mask & ~(own | opp)
        men = own & ~kings
        if men:
            prey = opp if self.men_capture_kings else opp & ~kings
            for shift, mask in self.man_capture_shifts[color]:
                if shift > 0:
                    if (((((men & mask) << shift) & prey) << shift) & empty):
                        return True
                elif (((((men & mask) >> -shift) & prey) >> -shift) & empty):
                    return True
        own_kings = own & kings
        if own_kings and self.flying_kings:
            for square in iter_bits(own_kings):
                for rays in self.king_capture_rays:
                    ray = rays[square]
                    for index, target in enumerate(ray):
                        if (empty >> target) & 1:
                            continue
                        if ((opp >> target) & 1 and index + 1 < len(ray)
                                and (empty >> ray[index + 1]) & 1):
                            return True
                        break
        elif own_kings:
            for square in iter_bits(own_kings):
                for steps in self.king_capture_steps:
                    target = steps[square]
                    if target >= 0 and (opp >> target) & 1:
                        landing = steps[target]
                        if landing >= 0 and (empty >> landing) & 1:
                            return True
        return False

    def quiet_moves(self, own: int, opp: int, kings: int, color: int, frozen: int = 0
                    ) -> list[Move]:
        """Every non-capturing move (none by the ``frozen`` kings)."""
        empty = self.board_mask & ~(own | opp)
        variant = self.variant  # the moves print in its notation
        promotion = self.promotion_mask[color]
        result = []
        men = own & ~kings
        for shift, mask in self.man_shifts[color]:
            targets = ((men & mask) << shift if shift > 0 else (men & mask) >> -shift) & empty
            for target in iter_bits(targets):
                promotes = bool((promotion >> target) & 1)
                result.append(Move(target - shift, (target,), (), promotes, 0, variant))
        own_kings = own & kings & ~frozen
        if self.flying_kings:
            for square in iter_bits(own_kings):
                for rays in self.king_move_rays:
                    for target in rays[square]:
                        if not (empty >> target) & 1:
                            break
                        result.append(Move(square, (target,), (), False, 0, variant))
        else:
            for square in iter_bits(own_kings):
                for steps in self.king_move_steps:
                    target = steps[square]
                    if target >= 0 and (empty >> target) & 1:
                        result.append(Move(square, (target,), (), False, 0, variant))
        return result

    def quiet_moves_to(self, own: int, opp: int, kings: int, color: int, destination: int,
                       origins: int) -> list[Move]:
        """The quiet moves to ``destination`` from the squares in the ``origins`` mask
        (the resolver's fast path: only the squares that can reach it are looked at)."""
        empty = self.board_mask & ~(own | opp)
        variant = self.variant  # the moves print in its notation
        if not (empty >> destination) & 1:
            return []
        result = []
        men = own & ~kings & origins
        promotes = bool((self.promotion_mask[color] >> destination) & 1)
        for back in self.man_back_steps[color]:
            origin = back[destination]
            if origin >= 0 and (men >> origin) & 1:
                result.append(Move(origin, (destination,), (), promotes, 0, variant))
        own_kings = own & kings & origins
        if own_kings:
            flying = self.flying_kings
            for rays in self.king_move_rays:
                for origin in rays[destination]:
                    if (own_kings >> origin) & 1:
                        result.append(Move(origin, (destination,), (), False, 0, variant))
                    if not flying or not (empty >> origin) & 1:
                        break
        return result

    def count_quiet(self, own: int, opp: int, kings: int, color: int, frozen: int = 0) -> int:
        """The number of non-capturing moves (none by the ``frozen`` kings)."""
        empty = self.board_mask & ~(own | opp)
        men = own & ~kings
        total = 0
        for shift, mask in self.man_shifts[color]:
            targets = ((men & mask) << shift if shift > 0 else (men & mask) >> -shift) & empty
            total += targets.bit_count()
        own_kings = own & kings & ~frozen
        if own_kings:
            if self.flying_kings:
                for square in iter_bits(own_kings):
                    for rays in self.king_move_rays:
                        for target in rays[square]:
                            if not (empty >> target) & 1:
                                break
                            total += 1
            else:
                for square in iter_bits(own_kings):
                    for steps in self.king_move_steps:
                        target = steps[square]
                        if target >= 0 and (empty >> target) & 1:
                            total += 1
        return total

    def captures(self, own: int, opp: int, kings: int, color: int, origins: int = -1
                 ) -> list[Move]:
        """Every capture route allowed by the variant's precedence rule (duplicates kept).

        ``origins`` limits the search to the pieces on those squares where the choice among
        captures is free (the resolver names the piece); with a precedence rule every piece
        is searched, since another piece's capture may outrank theirs.
        """
        if self._filter is not None:
            origins = -1
        routes: list[Move] = []
        candidates = (self._capturing_men(own, opp, kings, color) | (own & kings)) & origins
        for origin in iter_bits(candidates):
            self._piece_captures(origin, own, opp, kings, color, routes)
        if routes and self._filter is not None:
            routes = self._filter(routes, kings)
        return routes

    def capturing_pieces(self, own: int, opp: int, kings: int, color: int) -> int:
        """The pieces that may capture: the men that have a capture, and every king."""
        return self._capturing_men(own, opp, kings, color) | (own & kings)

    # -- capture search ---------------------------------------------------------------------

    def _capturing_men(self, own: int, opp: int, kings: int, color: int) -> int:
        """The men that have at least one capture (shifting the landing squares back)."""
        empty = self.board_mask & ~(own | opp)
        men = own & ~kings
        prey = opp if self.men_capture_kings else opp & ~kings
        found = 0
        for shift, mask in self.man_capture_shifts[color]:
            if shift > 0:
                found |= ((((empty >> shift) & prey) >> shift) & men & mask)
            else:
                found |= ((((empty << -shift) & prey) << -shift) & men & mask)
        return found

    def _piece_captures(self, origin: int, own: int, opp: int, kings: int, color: int,
                        out: list[Move]) -> None:
        variant = self.variant  # the moves print in its notation
        empty = (self.board_mask & ~(own | opp)) | (1 << origin)
        promotion = self.promotion_mask[color]
        remove_at_once = self.remove_at_once
        man_steps = self.man_capture_steps[color]
        king_steps = self.king_capture_steps
        king_rays = self.king_capture_rays
        opposite = self.opposite
        lands_behind = self.king_lands_behind
        flying = self.flying_kings
        continues = self.promotion_continues
        stops = self.promotion_stops
        passes = self.promotion_passes

        def step_search(square: int, is_king: bool, jumpable: int, empty: int,
                        path: tuple[int, ...], caps: tuple[int, ...], mask: int) -> bool:
            """Captures by a piece that jumps to the square right behind its prey."""
            found = False
            for step in (king_steps if is_king else man_steps):
                over = step[square]
                if over < 0 or not (jumpable >> over) & 1:
                    continue
                land = step[over]
                if land < 0 or not (empty >> land) & 1:
                    continue
                found = True
                bit = 1 << over
                new_jumpable = jumpable & ~bit
                new_empty = empty | bit if remove_at_once else empty
                new_path, new_caps, new_mask = path + (land,), caps + (over,), mask | bit
                if not is_king and (promotion >> land) & 1:
                    if continues:
                        if not king_search(land, new_jumpable, new_empty, new_path, new_caps,
                                           new_mask, -1):
                            out.append(Move(origin, new_path, new_caps, True, new_mask, variant))
                        continue
                    if stops:
                        out.append(Move(origin, new_path, new_caps, True, new_mask, variant))
                        continue
                if not step_search(land, is_king, new_jumpable, new_empty, new_path, new_caps,
                                   new_mask):
                    promotes = (not is_king and passes
                                and bool((promotion >> land) & 1))
                    out.append(Move(origin, new_path, new_caps, promotes, new_mask, variant))
            return found

        def king_search(square: int, jumpable: int, empty: int, path: tuple[int, ...],
                        caps: tuple[int, ...], mask: int, came: int) -> bool:
            """Captures by a flying king; ``came`` is the index of the last direction."""
            promotes = not is_king_at_start
            found = False
            for index, rays in enumerate(king_rays):
                if came >= 0 and not turns_back and opposite[came] == index:
                    continue
                ray = rays[square]
                length = len(ray)
                i = 0
                while i < length and (empty >> ray[i]) & 1:
                    i += 1
                if i + 1 >= length:
                    continue
                prey = ray[i]
                if not (jumpable >> prey) & 1 or not (empty >> ray[i + 1]) & 1:
                    continue
                found = True
                bit = 1 << prey
                new_jumpable = jumpable & ~bit
                new_empty = empty | bit if remove_at_once else empty
                new_caps, new_mask = caps + (prey,), mask | bit
                landings = []
                i += 1
                while i < length and (new_empty >> ray[i]) & 1:
                    landings.append(ray[i])
                    i += 1
                    if lands_behind:
                        break
                continued = False
                for landing in landings:
                    if king_search(landing, new_jumpable, new_empty, path + (landing,), new_caps,
                                   new_mask, index):
                        continued = True
                if not continued:
                    for landing in landings:
                        out.append(Move(origin, path + (landing,), new_caps, promotes, new_mask,
                                        variant))
            return found

        turns_back = self.king_turns_back
        is_king_at_start = bool((kings >> origin) & 1)
        jumpable = opp if is_king_at_start or self.men_capture_kings else opp & ~kings
        if is_king_at_start and flying:
            king_search(origin, jumpable, empty, (), (), 0, -1)
        else:
            step_search(origin, is_king_at_start, jumpable, empty, (), (), 0)
        # The two searches reach each other (and themselves) through their closure cells:
        # emptied, the cells leave no reference cycle behind for the garbage collector
        # (a batch of replayed games left tens of thousands of such cells).
        step_search = king_search = None  # type: ignore[assignment]


def unique(moves: list[Move], keep_duplicates: bool = False) -> list[Move]:
    """One move per (origin, destination, captured set), or per route with keep_duplicates
    (routes taking the same pieces in another order count apart; docs/rules.md)."""
    if len(moves) < 2:
        return moves
    seen: dict[object, Move] = {}
    for move in moves:
        seen.setdefault(move.route_key if keep_duplicates else move.key, move)
    return list(seen.values())


def _majority(routes: list[Move], kings: int) -> list[Move]:
    best = max(len(move.captures) for move in routes)
    return [move for move in routes if len(move.captures) == best]


def _majority_then_kings(routes: list[Move], kings: int) -> list[Move]:
    def weight(move: Move) -> tuple[int, int]:
        return len(move.captures), (move.captured_mask & kings).bit_count()

    best = max(weight(move) for move in routes)
    return [move for move in routes if weight(move) == best]


def _king_first(routes: list[Move], kings: int) -> list[Move]:
    by_kings = [move for move in routes if (kings >> move.origin) & 1]
    return by_kings or routes


def _best(routes: list[Move], weight: Callable[[Move], tuple]) -> list[Move]:
    weights = [weight(move) for move in routes]
    best = max(weights)
    return [move for move, w in zip(routes, weights, strict=True) if w == best]


def _italian_order(routes: list[Move], kings: int) -> list[Move]:
    """docs/rules.md Italian: most pieces, then with a king, then most kings, then the kings
    met earliest (the capture-order tuple of king flags, compared lexicographically)."""
    def weight(move: Move) -> tuple:
        order = tuple((kings >> square) & 1 for square in move.captures)
        return len(order), (kings >> move.origin) & 1, sum(order), order

    return _best(routes, weight)


def _highest_value(king_value: tuple[int, int]) -> Callable[[list[Move], int], list[Move]]:
    """docs/rules.md Frisian: the highest value taken, then a capture by a king."""
    man_weight, king_weight = king_value

    def keep(routes: list[Move], kings: int) -> list[Move]:
        def weight(move: Move) -> tuple[int, int]:
            taken_kings = (move.captured_mask & kings).bit_count()
            value = man_weight * (len(move.captures) - taken_kings) + king_weight * taken_kings
            return value, (kings >> move.origin) & 1

        return _best(routes, weight)

    return keep


_PRECEDENCE: dict[str, Callable[[list[Move], int], list[Move]]] = {
    MAJORITY: _majority,
    MAJORITY_THEN_KINGS: _majority_then_kings,
    KING_MUST_CAPTURE: _king_first,
    ITALIAN_ORDER: _italian_order,
}


def _precedence_filter(variant: Variant) -> Callable[[list[Move], int], list[Move]] | None:
    """The function that keeps the captures a variant allows, or None for free choice."""
    if variant.precedence == HIGHEST_VALUE:
        return _highest_value(variant.king_value)
    return _PRECEDENCE.get(variant.precedence)


@cache
def generator_for(variant: Variant) -> MoveGenerator:
    """The (cached) move generator of a variant."""
    return MoveGenerator(variant)
