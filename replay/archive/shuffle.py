"""Duplicate groups found on a Dask cluster: the games' fingerprints shuffled by their key,
so that the workers group them, each the keys that fell to it.

``ClusterGrouper`` has ``Grouper``'s interface. The client sends the fingerprints to the
workers in batches as the games stream by (it keeps none of them); at the end a Dask
DataFrame of them is shuffled on the key, each worker groups its keys in reading order with
``Grouper`` itself, and only the groups of two or more copies come back. A key's games all
land in one partition, in reading order once sorted, so the groups are exactly those the
client's ``Grouper`` would make.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from replay.archive.dedupe import Fingerprint, Group, Grouper

BATCH = 50_000  # fingerprints sent to the workers at a time
_INTEGERS = ("ordinal", "score_result", "score_tags", "score_notes")


def fingerprint_frame(rows: list[tuple[int, Fingerprint]]) -> pd.DataFrame:
    """One row per game (the ordinal in reading order, the key in hex, what ``--by``
    compares and how complete the copy is), with fixed dtypes."""
    return pd.DataFrame({
        "ordinal": pd.array([o for o, _ in rows], dtype="int64"),
        "key": pd.array([f.key.hex() if f.key else None for _, f in rows], dtype="string"),
        "white": pd.array([f.white for _, f in rows], dtype="string"),
        "black": pd.array([f.black for _, f in rows], dtype="string"),
        "year": pd.array([f.date[0] for _, f in rows], dtype="Int64"),
        "month": pd.array([f.date[1] for _, f in rows], dtype="Int64"),
        "day": pd.array([f.date[2] for _, f in rows], dtype="Int64"),
        "score_result": pd.array([f.score[0] for _, f in rows], dtype="int64"),
        "score_tags": pd.array([f.score[1] for _, f in rows], dtype="int64"),
        "score_notes": pd.array([f.score[2] for _, f in rows], dtype="int64"),
    })


def _fingerprints(frame: pd.DataFrame) -> list[tuple[int, Fingerprint]]:
    """The rows of ``fingerprint_frame`` as fingerprints again."""
    values = frame.astype(object).where(frame.notna(), None)
    return [(row.ordinal, Fingerprint(bytes.fromhex(row.key), row.white, row.black,
                                      (row.year, row.month, row.day),
                                      (row.score_result, row.score_tags, row.score_notes)))
            for row in values.itertuples(index=False)]


def group_partition(frame: pd.DataFrame, by: str) -> pd.DataFrame:
    """Worker task: the games of a shuffled partition that have copies, as rows with their
    group (the ordinal of its first copy)."""
    grouper = Grouper(by)
    for ordinal, found in _fingerprints(frame.sort_values("ordinal")):
        grouper.add(ordinal, found)
    rows, groups = [], []
    for group in grouper.duplicates():
        rows += zip(group.members, group.prints, strict=True)
        groups += [group.members[0]] * len(group.members)
    return fingerprint_frame(rows).assign(group=pd.array(groups, dtype="int64"))


class ClusterGrouper:
    """``Grouper`` on a cluster's workers (``client``: a ``distributed.Client``)."""

    def __init__(self, client: Any, by: str = "moves+players", batch: int | None = None
                 ) -> None:
        self.client = client
        self.by = by
        self.batch = batch or BATCH
        self.pending: list[tuple[int, Fingerprint]] = []
        self.sent: list[Any] = []  # futures of the batches, held by the workers

    def add(self, ordinal: int, found: Fingerprint) -> None:
        """File a game (a game without moves is never a duplicate)."""
        if found.key is None:
            return
        self.pending.append((ordinal, found))
        if len(self.pending) >= self.batch:
            self._send()

    def _send(self) -> None:
        self.sent.append(self.client.scatter(fingerprint_frame(self.pending)))
        self.pending = []

    def duplicates(self) -> list[Group]:
        """The groups of two or more copies, in the order of their first copy."""
        if self.pending:
            self._send()
        if not self.sent:
            return []
        import dask.dataframe as dd

        frame = dd.from_delayed(self.sent, meta=fingerprint_frame([]))
        found = frame.shuffle("key", npartitions=len(self.sent)).map_partitions(
            group_partition, self.by,
            meta=fingerprint_frame([]).assign(group=pd.array([], dtype="int64")))
        copies = self.client.compute(found).result().sort_values(["group", "ordinal"])
        groups: dict[int, Group] = {}
        for (ordinal, fingerprint), group in zip(_fingerprints(copies.drop(columns="group")),
                                                 copies["group"], strict=True):
            groups.setdefault(group, Group()).add(ordinal, fingerprint)
        return list(groups.values())


__all__ = ["ClusterGrouper", "fingerprint_frame", "group_partition"]
