"""The table companion application: command line, live table, store, web and speech.

The only package that does I/O besides vision's camera and model loading; it turns
observations into game events and asks `rules` for verdicts.
"""

import os

# NumPy's BLAS would start a thread per core for every small matrix product (a card's
# similarities to its deck): on a Pi the other cores belong to the web server, speech and
# the camera, and on a busy machine those threads spin for more time than the product
# takes. Set here, before any part of the application imports NumPy (the command line,
# the demo, the benchmarks that drive them); a user's own setting wins.
for _blas in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_blas, "1")
