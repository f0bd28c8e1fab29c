"""What a record file is, for every command and the reader: the endings of record files and
the name that means standard input.

``.pdn`` is the Portable Draughts Notation; ``.phn`` the files of the PDN standard's own test
corpus and some archive tools; ``.txt`` plain scoresheets and PDN saved as text.
"""

RECORD_SUFFIXES = (".pdn", ".phn", ".txt")
STDIN = "-"
