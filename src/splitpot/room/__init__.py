"""The room's own rules as a pure table host (DESIGN.md "The room"): seats, the clock, the
host's commands, the fair deal's wait, bots; commands and the time in, events and the
store's work out (docs/architecture.md)."""
