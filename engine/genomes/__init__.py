"""The genomes themselves: their encodings, their conflicts, fitness, diversity and
uniqueness hashes. The ground floor: it imports nothing else of the engine.
"""
