"""The operators by kind, each a whole-population numpy function: selection,
crossover, mutation, survivors, and the memetic mode's local search and greedy start.
Operators never import the loop.
"""
