"""The web game: FastAPI app, live tables over WebSockets, pages (``cubilete serve``)."""
