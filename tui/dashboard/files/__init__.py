"""The files the dashboard keeps and writes: its small settings file and the files it
exports. No Textual here.
"""
