"""Running work over sources: the machinery every tool shares, and no notation module imports.

- ``partitions``: sources cut into pieces of whole games that one worker reads alone;
- ``runner``: partitions in, results out, in input order, in this process, worker processes
  (``parallel``) or on a Dask cluster;
- ``reading``: one source's games parsed in worker processes;
- ``dataset``: big outputs written as folders of parts by the workers;
- ``output``: output files written all or nothing, never over an input.
"""

RUNNERS = ("local", "dask")  # this machine's processes, or a Dask cluster
