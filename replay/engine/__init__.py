"""Talking to draughts engines: the Hub protocols and DXP, in the shape of python-chess's
``chess.engine``.

The values every protocol shares live in :mod:`replay.engine.limits`; each protocol has a module
of its own (``hub``, ``dxp``).
"""
