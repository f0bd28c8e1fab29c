"""The HTML viewer: one self-contained page to step through games (``pdn view``).

- ``page``: the page and its data (``viewer_html``, ``write_viewer``, ``ViewerPage``);
- ``board`` and ``moves``: the board drawing and the move list it shows;
- ``viewer.js`` and ``viewer.css``: the page's script and style, inlined into every page.
"""

from replay.viewer.page import ViewerPage, viewer_html, write_viewer

__all__ = ["ViewerPage", "viewer_html", "write_viewer"]
