"""The store's Alembic migrations (env.py and versions/), applied by open_store()."""
