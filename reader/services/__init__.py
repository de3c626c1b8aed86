"""Writes of the reader app: the deck's cards and the recordings, one transaction each."""
