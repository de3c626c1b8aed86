"""Clubs entering their own teams through an entry link (issue 20 item 4)."""
