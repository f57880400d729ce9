"""The Textual dashboard and the `queens` command line, over the engine in `engine/`."""
