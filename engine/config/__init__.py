"""What a run is asked to be: its fields, the rules between them, the memory budget,
the presets that reproduce published GAs, and which fields a run actually reads.
"""
