"""``studio`` entry point: the GUI when no command is given, otherwise one of the subcommands.

Each subcommand lives in ``studio/cli/commands/<name>.py`` and exposes ``register(subparsers)``, which adds its
parser and sets ``func`` (``func(args) -> exit code``). Exit codes: 0 ok, 1 findings or failure, 2 usage or I/O.
"""
from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from . import commands
from .paths import default_project


class StudioArgumentParser(argparse.ArgumentParser):
    """argparse exits 2 on usage errors, which is our contract; keep its message short."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``studio`` parser with every subcommand, or only ``command``'s when it names one (``main`` asks for
    that when the command comes first: start-up then imports one command module, not all of them)."""
    parser = StudioArgumentParser(
        prog="studio",
        description="Authoring studio for tactical wargames. Without a command, opens the window on a project.",
    )
    parser.add_argument("--project", metavar="DIR", help="project folder to open (default: the sample project)")
    parser.add_argument("--screenshot", metavar="OUT.png", help="render the window offscreen to a PNG and exit")
    parser.add_argument("--open", metavar="DOC_ID", dest="open_doc", help="document to open (with the window)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=StudioArgumentParser)
    names = sorted(info.name for info in pkgutil.iter_modules(commands.__path__))
    only = [n for n in (command, f"{command}_cmd") if command and n in names]
    for name in only[:1] or names:
        importlib.import_module(f"{commands.__name__}.{name}").register(sub)
    return parser


def run_gui(args: argparse.Namespace) -> int:
    try:
        from studio.qt.app import run
    except ImportError as exc:  # pragma: no cover - depends on the install
        print(f"studio: the window is not available: {exc}", file=sys.stderr)
        return 2
    return run(project=args.project or str(default_project()), screenshot=args.screenshot, open_doc=args.open_doc)


def main(argv: list[str] | None = None) -> int:
    """Run ``studio`` with ``argv`` (default: the command line). ``args.command_line`` tells a command whether
    it runs as a process of its own (``argv`` None), which may use caches between runs (``studio validate``)."""
    command_line = argv is None
    argv = sys.argv[1:] if argv is None else list(argv)
    first = argv[0] if argv and not argv[0].startswith("-") else None
    args = build_parser(first).parse_args(argv)
    args.command_line = command_line
    if args.command is None:
        return run_gui(args)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("studio: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
