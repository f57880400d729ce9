"""The same generation by faster roads for large N, bit for bit with the plain one:
which road a run takes is chosen once (`paths`); kept counts of the population's lines,
survivor rows, and the memetic mode's children.
"""
