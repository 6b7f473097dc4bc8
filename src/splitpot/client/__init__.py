"""The terminal game's client of the room's protocol: a table's picture folded from the
room's frames (``state``), the offline table that makes those frames in process
(``local``), the room over the network (``remote``), and the game the front ends drive
(``game``)."""
