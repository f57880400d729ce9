"""The same generation by faster roads for large N, bit for bit with the plain one:
which road a run takes is chosen once, in one table (`roads`); where the children are made and
the survivors gathered (`generation_rows`); kept counts of the population's lines, survivor
rows, and the memetic mode's children.
"""
