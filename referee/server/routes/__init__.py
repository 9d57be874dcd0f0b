"""The app's routers, one per area: tables (API), live (WebSocket), pages (HTML), health."""
