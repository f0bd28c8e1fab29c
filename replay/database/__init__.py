"""The game database: an SQLite file with every game's tags, moves, the positions it reaches
and where it lives in its source, for instant searches (``pdn index``, ``pdn search``).

- ``schema``: the tables, the schema version, opening and checking a database file;
- ``keys``: a position as a 64-bit key and as bitboards per side and kind;
- ``rows``: a game's main line as the database's rows (native core, else Python);
- ``build``: indexing sources into a database (worker processes, files updated in place);
- ``pattern``: the ``--pattern`` language (some squares fixed, the rest free);
- ``planes``: the pattern index, a bitmap of the positions per square and kind of piece;
- ``query``: searches over the tables, the same criteria as ``pdn filter``.

The schema is documented in docs/database.md.
"""
