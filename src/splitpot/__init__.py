"""splitpot: Omaha Hi/Lo poker."""

__version__ = "0.1.0"
