"""One way to run work over sources: partitions in, results out, in input order.

Every command that reads many games (the reader, validate, stats, convert and the archive
tools) gives a runner a function of one ``Partition`` and gets the results back in file
order. Two engines stand behind one interface:

- ``local``: this process cuts each file into byte ranges of whole games
  (``partitions.file_partitions``: bytes searches, no decoding) and, once more than
  ``PARALLEL_MIN_BYTES`` have been planned (at once when ``jobs`` > 1 was asked for), hands
  the ranges to ``jobs`` worker processes that read them themselves (0: one per core this
  process may run on, ``usable_cores``; with one core, this process alone); below that it
  works alone, since starting workers would cost more than they save. Standard input and
  URLs are read by this process and travel as text, by the same rule.
- ``dask``: a ``distributed`` cluster, at ``scheduler`` (or ``DASK_SCHEDULER_ADDRESS``), else
  a ``LocalCluster`` of ``jobs`` worker processes. The workers find the partitions of each
  file and read them themselves (``replay.run.partitions``); only standard input goes through the
  client. Whoever shows progress (the command line) may ``watch_clusters``: it is told the
  dashboard's address of every cluster opened and how many tasks are submitted and done.
"""

from __future__ import annotations

import os
from abc import abstractmethod
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, Any, TypeVar

from replay.run import RUNNERS, workers
from replay.run.parallel import in_order
from replay.run.partitions import (
    STDIN,
    Partition,
    client_partitions,
    file_facts,
    file_partitions,
    file_url,
    plan_ranges,
    scan_range,
)

if TYPE_CHECKING:  # a process pool is imported when one starts (a short run needs none)
    from concurrent.futures import ProcessPoolExecutor

R = TypeVar("R")
PARALLEL_MIN_BYTES = 1 << 18  # worker processes repay their start from about here (measured)
PARTITION_CHARS = 1 << 17  # a local partition: a few hundred games
CLUSTER_PARTITION_BYTES = 1 << 23  # a cluster partition: some thousands of games
SCHEDULER_VARIABLE = "DASK_SCHEDULER_ADDRESS"


@dataclass(frozen=True)
class ClusterWatch:
    """What a watcher of Dask runs is told: the dashboard's address (None without one) when
    a runner opens, and the tasks submitted and done so far as they change (the latter from
    the client's event loop thread)."""

    opened: Callable[[str | None], None]
    tasks: Callable[[int, int], None]


_watchers: list[ClusterWatch] = []


@contextmanager
def watch_clusters(watch: ClusterWatch) -> Iterator[None]:
    """Tell ``watch`` about the Dask runners opened within the block."""
    _watchers.append(watch)
    try:
        yield
    finally:
        _watchers.remove(watch)


def usable_cores() -> int:
    """The cores this process may run on (``taskset``, a container's CPU set), which the
    default ``--jobs`` fills: on one core, worker processes would only add the cost of
    sending them work and results."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # no CPU affinity on this system (macOS, Windows)
        return os.cpu_count() or 1


class EngineUnavailableError(ImportError):
    """The engine asked for is not installed (``pip install 'pdn-toolkit[dask]'``)."""


class Runner(AbstractContextManager):
    """Runs a function over partitions, results in input order."""

    @abstractmethod
    def partitions(self, source: str, encoding: str | None = None,
                   size: int | None = None) -> Iterator[Partition]:
        """The partitions of one source (``-``: standard input), of about ``size`` characters
        on one machine; ``OSError`` when it cannot be read."""

    @abstractmethod
    def map(self, function: Callable[..., R], partitions: Iterable[Partition], *args: Any
            ) -> Iterator[R]:
        """``function(partition, *args)`` for every partition, in order."""

    def run(self, function: Callable[..., R], sources: Iterable[str], *args: Any,
            encoding: str | None = None, size: int | None = None) -> Iterator[R]:
        """``map`` over every partition of every source, in order."""
        partitions = chain.from_iterable(self.partitions(s, encoding, size) for s in sources)
        return self.map(function, partitions, *args)

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the workers this runner started."""


class LocalRunner(Runner):
    """This process reads; worker processes work once the input is large enough."""

    def __init__(self, jobs: int = 0, threshold: int = PARALLEL_MIN_BYTES) -> None:
        self.workers = jobs or usable_cores()
        self.threshold = 0 if jobs > 1 else threshold
        self.seen = 0
        self.pool: ProcessPoolExecutor | None = None

    def partitions(self, source: str, encoding: str | None = None,
                   size: int | None = None) -> Iterator[Partition]:
        if source == STDIN or "://" in source or not os.path.isfile(source):
            return client_partitions(source, encoding, size or PARTITION_CHARS)
        return file_partitions(source, encoding, size or PARTITION_CHARS)

    def map(self, function: Callable[..., R], partitions: Iterable[Partition], *args: Any
            ) -> Iterator[R]:
        iterator = iter(partitions)
        if self.workers > 1 and self.pool is None:
            head = []  # read ahead until the input is seen to be large enough for workers
            for partition in iterator:
                head.append(partition)
                self.seen += partition.size
                if self.seen > self.threshold:
                    self.pool = workers.pool(self.workers)
                    break
            iterator = chain(head, iterator)
        if self.pool is None:
            return (function(partition, *args) for partition in iterator)
        return in_order(self.pool, function, ((p, *args) for p in iterator), self.workers)

    def close(self) -> None:
        """Shut the pool down: the calls not yet started are cancelled, the workers finish
        the partition they hold and exit (``replay.run.workers`` says why they are not
        killed)."""
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
            self.pool = None


class DaskRunner(Runner):
    """A ``distributed`` cluster: its workers plan and read the partitions of every file."""

    def __init__(self, scheduler: str | None = None, jobs: int = 0) -> None:
        try:
            import dask  # noqa: F401 - distributed needs it; say so when either is missing
            import distributed
        except ImportError as error:
            raise EngineUnavailableError(
                "the dask engine needs Dask: pip install 'pdn-toolkit[dask]'") from error
        address = scheduler or os.environ.get(SCHEDULER_VARIABLE)
        self.cluster = None
        self.owned = True
        if address:
            self.client = distributed.Client(address, set_as_default=False)
        elif (current := _current_client(distributed)) is not None:
            self.client, self.owned = current, False
        else:
            self.cluster = distributed.LocalCluster(
                n_workers=jobs or usable_cores(), threads_per_worker=1,
                processes=True, dashboard_address=":0", silence_logs=40)
            self.client = distributed.Client(self.cluster, set_as_default=False)
        self.workers = max(1, len(self.client.scheduler_info().get("workers", {})))
        self.submitted = self.done = 0
        dashboard = _dashboard(self.client)
        for watch in _watchers:
            watch.opened(dashboard)

    def _watched(self, futures: list) -> list:
        """Count ``futures`` as submitted, and each as done when it is."""
        self.submitted += len(futures)
        if _watchers:
            for future in futures:
                future.add_done_callback(self._one_done)
            self._tell()
        return futures

    def _one_done(self, _future: Any) -> None:
        self.done += 1
        self._tell()

    def _tell(self) -> None:
        for watch in _watchers:
            watch.tasks(self.submitted, self.done)

    def partitions(self, source: str, encoding: str | None = None,
                   size: int | None = None) -> Iterator[Partition]:
        if source == STDIN:  # only the client can read its own standard input
            yield from client_partitions(source, encoding, size or PARTITION_CHARS)
            return
        url = file_url(source)
        facts = self._watched([self.client.submit(file_facts, url, encoding, pure=False)]
                              )[0].result()
        length = CLUSTER_PARTITION_BYTES  # ``size`` is for one machine; a cluster's are larger
        starts = range(0, max(facts.size, 1), length)
        cuts = self.client.gather(self._watched(self.client.map(
            scan_range, [url] * len(starts), starts, [length] * len(starts),
            [facts] * len(starts), pure=False)))
        yield from plan_ranges(source, url, facts, cuts)

    def map(self, function: Callable[..., R], partitions: Iterable[Partition], *args: Any
            ) -> Iterator[R]:
        return self.in_order(self.submit(function, partition, *args)
                             for partition in partitions)

    def submit(self, function: Callable[..., Any], *args: Any) -> Any:
        """One task on the cluster, counted in the progress; its future (arguments may be
        futures: the workers pass their results)."""
        return self._watched([self.client.submit(function, *args, pure=False)])[0]

    def in_order(self, futures: Iterable[Any]) -> Iterator[Any]:
        """The results of ``futures`` in order, taking new ones only while at most twice
        as many as there are workers wait: the client holds a few results at a time."""
        pending: deque = deque()
        for future in futures:
            pending.append(future)
            while len(pending) > 2 * self.workers:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()

    def close(self) -> None:
        if self.owned:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def _dashboard(client: Any) -> str | None:
    """The address of the cluster's dashboard, if it serves one."""
    try:
        if "dashboard" not in client.scheduler_info().get("services", {}):
            return None
        return str(client.dashboard_link)
    except (KeyError, AttributeError, OSError):
        return None


def _current_client(distributed: Any) -> Any:
    """The ``distributed.Client`` a caller has open, if any."""
    try:
        return distributed.get_client()
    except ValueError:
        return None


def open_runner(engine: str = "local", *, jobs: int = 0, scheduler: str | None = None
                ) -> Runner:
    """A runner for ``engine`` (``local`` or ``dask``); use it as a context manager.

    Raises ``ValueError`` for an unknown engine and ``EngineUnavailableError`` when Dask's
    ``distributed`` is not installed.
    """
    if engine == "local":
        if scheduler:
            raise ValueError("--scheduler needs --runner dask")
        return LocalRunner(jobs)
    if engine == "dask":
        return DaskRunner(scheduler, jobs)
    raise ValueError(f"unknown runner '{engine}'; known: {', '.join(RUNNERS)}")
