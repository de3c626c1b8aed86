"""The awards desk (issue 19): certificate settings, prizes and printed certificates."""
