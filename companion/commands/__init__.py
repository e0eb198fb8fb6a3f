"""One module per subcommand; each has `register(subparsers)` and sets `func(args) -> int`."""
