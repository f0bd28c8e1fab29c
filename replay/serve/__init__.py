"""``pdn serve``: the arbiter's desk and an analysis board in the browser.

- ``desk``: the games loaded, their reports and their edits (no web framework);
- ``pages``: the pages as HTML, everything escaped; ``desk.js`` and ``desk.css`` beside them;
- ``words``: the pages' language, its switch and the texts of ``desk.js`` from the catalogs;
- ``app``: the Starlette application, pages and JSON API; ``security``: the guard around it;
- ``engines``: the Hub engines behind "Evaluate"; ``server``: uvicorn on a bound socket.

Starlette and uvicorn (the ``[serve]`` extra) are imported by ``app`` and ``server`` only.
"""
