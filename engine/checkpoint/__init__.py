"""A run's whole state saved and restored, bit for bit."""
