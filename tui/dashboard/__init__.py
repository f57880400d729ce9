"""The Textual dashboard: the app, its screens, widgets and keys, and what only it uses.

It knows the lab (records, time travel) and the engine; it never imports the command line.
"""
