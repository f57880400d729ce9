"""Compiled kernels: `jit` is the one door to numba; the kernels import only numpy,
numba and the engine's genome constants.
"""
