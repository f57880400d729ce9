"""Solutions: the GA's archive of what it found, and the exact search that counts
every solution (backtracking, symmetry, the prefixes workers split it by).
"""
