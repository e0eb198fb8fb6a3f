"""`companion words`: the table's house words for dugtungan (list, add, reject, challenge).

The lists live in the data directory (`companion.house_words`); the live table and
`companion check` requests hand them to the rules engine as `house`.
"""

from __future__ import annotations

import argparse

from companion.commands.table_options import table_settings
from companion.errors import UsageError
from companion.house_words import HouseBook, house_file, load_house, save_house, spelled
from companion.jsonio import print_json
from rules.dugtungan.words import Dictionary

CHANGES = {"add": HouseBook.accept, "reject": HouseBook.reject, "forget": HouseBook.forget}
#: What each change says it did, so a command that succeeds never answers with silence.
DONE = {"add": "accepted as a house word", "reject": "rejected as a house word",
        "forget": "forgotten: the word list decides it again"}


def _print_book(book: HouseBook) -> None:
    print(f"accepted: {' '.join(w.upper() for w in sorted(book.words.accept)) or '-'}")
    print(f"rejected: {' '.join(w.upper() for w in sorted(book.words.reject)) or '-'}")
    for c in book.challenges:
        print(f"challenge {c.word.upper()}: {c.votes_for} for, {c.votes_against} against, "
              f"{'accepted' if c.accepted else 'rejected'}")


def _words(args: argparse.Namespace) -> int:
    path = house_file(table_settings(args).data_path)
    book = load_house(path)
    if args.action == "list":
        print_json(book.to_dict()) if args.json else _print_book(book)
        return 0
    if not args.words:
        raise UsageError(f"words {args.action}", "", "name at least one WORD")
    if args.action == "check":
        table = Dictionary(house=book.words)
        for word in args.words:
            print(table.judge(spelled(word)).phrase())
        return 0
    if args.action == "challenge":
        if len(args.words) != 1 or args.votes_for is None or args.votes_against is None:
            raise UsageError("words challenge", "", "needs one WORD, --for N and --against N")
        book, record = book.challenge(args.words[0], args.votes_for, args.votes_against)
        print(f"{record.word.upper()}: {record.votes_for} for, {record.votes_against} against: "
              f"{'accepted as a house word' if record.accepted else 'rejected'}")
    else:
        for word in args.words:
            book = CHANGES[args.action](book, word)
    save_house(path, book)
    if args.action in DONE:
        print(f"{', '.join(spelled(w).upper() for w in args.words)}: {DONE[args.action]} ({path})")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("words", help="dugtungan house words: list, add, reject, forget, check, "
                                          "or record a challenge vote")
    parser.add_argument("action", choices=("list", "add", "reject", "forget", "check", "challenge"))
    parser.add_argument("words", nargs="*", metavar="WORD")
    parser.add_argument("--for", dest="votes_for", type=int, metavar="N", help="challenge: votes to accept")
    parser.add_argument("--against", dest="votes_against", type=int, metavar="N",
                        help="challenge: votes to reject")
    parser.add_argument("--json", action="store_true", help="list: print JSON")
    parser.add_argument("--data-dir", metavar="DIR", help="where the house words live "
                        "(default: the data_dir setting)")
    parser.set_defaults(func=_words, port=None, trailing="words")
