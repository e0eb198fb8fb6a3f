"""What the benchmarks, training scripts and tests share, kept out of the installed packages.

Truth and scoring against marked photos (`evaluate`), faces printed in many fonts
(`printed_faces`), the face families a real deck might look like (`families`,
`family_tables`) and scripted table videos with the tracker's scoring (`scripted`):
none of it runs at a table, so none of it ships. Importable as `scripts.lib` from the
repository (the tests' `pythonpath`; each script puts the repository on `sys.path`).
"""
