"""``cogarch --help`` and every subcommand's help are plain text: no reStructuredText markup
(double backquotes, roles such as ``:class:``) reaches the terminal."""

from __future__ import annotations

import argparse
import re

from cogarch.experiments.cli.command import build_parser

MARKUP = re.compile(r"``|:(class|func|mod|data|meth|attr):`")


def _parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    found = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found += _parsers(sub)
    return found


def test_no_help_text_shows_markup() -> None:
    for parser in _parsers(build_parser()):
        text = parser.format_help()
        assert not MARKUP.search(text), f"'{parser.prog} --help' shows markup:\n{text}"
