"""The referee at the table: a FastAPI app with cameras, an SQLite event store and phone pages.

`app.create_app(settings)` builds it; `referee serve` runs it on uvicorn (docs/server.md).
"""
