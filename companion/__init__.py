"""The table companion application: command line, live table, store, web and speech.

The only package that does I/O besides vision's camera and model loading; it turns
observations into game events and asks `rules` for verdicts.
"""
