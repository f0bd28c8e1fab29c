"""Reference data on the record layer: opening names (``openings.tsv``) and the ballots of
two- and three-move openings."""
