"""The reader's pure engines (no Django): the deck's cells (`cards`) and the order and steps
of a reading (`sequence`, docs/rules/reader.md)."""
