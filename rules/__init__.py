"""Rules engines for the table companion's games.

This package knows games and nothing else: no OpenCV, Flask, files, clock or global
random. Every engine shares the interface in `rules.core`, so the live companion drives
any game the same way, and `rules.registry` maps a game name to its engine.
"""
