"""What the dashboard draws, computed without Textual: board and population pictures,
layouts, chart ticks, the explained figures, the solutions' sets and texts, the form's guide,
contrast between colours.

Nothing here imports Textual, Rich or plotext (a contract and a test check it).
"""
