"""The ``pdn`` command line (typer): one module per command, registered in ``cli.app``."""
