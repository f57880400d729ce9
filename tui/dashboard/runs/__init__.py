"""The dashboard's runs without Textual: the run on show and its gate, recording, time
travel and rewinds, ancestry, the series the charts read, speed and the stop rule.

Nothing here imports Textual, Rich or plotext (a contract and a test check it): it is tested
without an app.
"""
