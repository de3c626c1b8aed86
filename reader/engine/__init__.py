"""Pure rules of the reader's deck (no Django)."""
