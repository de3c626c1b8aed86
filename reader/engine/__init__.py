"""The reader's pure engine: the order and steps of a reading (docs/rules/reader.md)."""
