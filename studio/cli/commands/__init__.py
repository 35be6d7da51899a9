"""One module per ``studio`` subcommand; each has ``register(subparsers)``."""
