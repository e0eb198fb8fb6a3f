"""Measure how the prompts' Tagalog words come out of espeak-ng, and make sample WAVs.

    .venv/bin/python scripts/measure_speech.py [--voice en-us] [--wav-dir docs/speech]

For each word of the games' glossary, some players' names and dugtungan cards and
words, espeak-ng says it three ways: its English voice reading the spelling (what the
table did before), its Indonesian voice reading the spelling (the nearest voice it has
to Tagalog), and the product's way (companion/pronounce.py's phoneme input in the
English voice). Each is compared in broad IPA with the word's Tagalog sounds as the
spelling gives them; `said_right` is the share that match. Prints JSON.
With --wav-dir it also writes one prompt per game as a WAV made by the product's own
speech path, and a README beside them with the text, the espeak-ng input and the voice.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import wave
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.pronounce import GLOSSARY, sounds, spoken  # noqa: E402
from companion.speech import DEFAULT_VOICE, EspeakCommand, utterance_limit  # noqa: E402

NAMES = ("Ligaya", "Ñañez-Dimaculangan", "Dalisay", "Mayumi", "Bituin", "Amihan", "Makisig", "Tala")
CARDS = ("LA", "NGI", "KA", "BA", "NG", "N", "TO", "MU")
WORDS = ("HALIKA", "BAHAY", "ARAW", "KAIBIGAN", "LANGOY", "TUBIG", "SAPAW", "BIHAG")

_IPA = {"E": "ɛ", "aU": "aʊ", "aI": "aɪ", "OI": "ɔɪ", "uI": "uɪ", "eI": "eɪ", "N": "ŋ", "tS": "tʃ",
        "S": "ʃ", "n^": "ɲ", "g": "ɡ", "?": ""}
_DIPHTHONGS = {"aɪ": "1", "aj": "1", "aʊ": "2", "aw": "2", "eɪ": "3", "ɔɪ": "4", "oj": "4", "oʊ": "5",
               "əʊ": "5"}
_BROAD = str.maketrans({"ɑ": "a", "ɐ": "a", "ɪ": "i", "ʊ": "u", "e": "ɛ", "ɔ": "o", "ɾ": "r", "ɹ": "r",
                        "g": "ɡ"})

PROMPTS = {
    "bagani": ("Tikbalang appears! Tikbalang attacks! Every player draws a random card from the player "
               "to the right. Ligaya Ñañez-Dimaculangan defeats Sarimaw: 5 DP.", ("Ligaya Ñañez-Dimaculangan",)),
    "gargon": ("Dalisay plays 1:1 and beats the 2:1 on the table. Battle phase: Mayumi chooses the "
               "first colour.", ("Dalisay", "Mayumi")),
    "dugtungan": ("Everyone passed: NG is a dead card. The table accepts HALIKA. Makisig lays LA as the "
                  "new PAMATO.", ("Makisig",)),
    "lagim": ("Lagim begins: each Baryo holds 7 Soul Coins and 1 Dark Soul Coin and 5 Baryo cards. "
              "Bituin's turn: Twilight. Draw a Baryo card.", ("Bituin",)),
}


def target(word: str, card: bool) -> str:
    """The word's Tagalog sounds in broad IPA, as its spelling gives them (a lone
    consonant card by its letter name, the particle ng as "nang")."""
    said = {"ng": "nang"}.get(word, word + "a" if card and not any(v in word.lower() for v in "aeiou") else word)
    parts, _ = sounds(said)
    return _broad("".join(_IPA.get(s.phoneme, s.phoneme) for s in parts))


def _broad(ipa: str) -> str:
    ipa = re.sub(r"[ˈˌːʔ\s\-_]", "", ipa)
    for pair, mark in _DIPHTHONGS.items():
        ipa = ipa.replace(pair, mark)
    return ipa.translate(_BROAD)


def measure(voice: str) -> dict[str, object]:
    english, indonesian = EspeakCommand(), EspeakCommand()
    english.voice, indonesian.voice = voice, "id"
    rows = []
    terms = [(w, False) for w in GLOSSARY] + [(n, False) for n in NAMES] + [(c, True) for c in CARDS + WORDS]
    for word, card in terms:
        ours = spoken(word, names=[word], syllable_cards=card)
        said = {"english": english.ipa(word), "indonesian": indonesian.ipa(word), "ours": english.ipa(ours)}
        rows.append({"word": word, "target": target(word, card), **said})
    summary = {way: round(sum(_broad(r[way]) == r["target"] for r in rows) / len(rows), 3)
               for way in ("english", "indonesian", "ours")}
    wrong = {way: [r["word"] for r in rows if _broad(r[way]) != r["target"]] for way in summary}
    return {"voice": voice, "words": len(rows), "said_right": summary, "not_right": wrong, "rows": rows}


def write_wavs(out: Path, voice: str) -> list[dict[str, object]]:
    out.mkdir(parents=True, exist_ok=True)
    engine = EspeakCommand(shutil.which("espeak-ng") or "espeak-ng")
    engine.voice = voice
    made = []
    for game, (text, names) in PROMPTS.items():
        said = spoken(text, names, syllable_cards=game == "dugtungan")
        path = out / f"{game}.wav"
        engine.save_to_file(said, str(path))
        with wave.open(str(path)) as w:
            seconds = w.getnframes() / w.getframerate()
        made.append({"game": game, "file": path.name, "text": text, "espeak_input": said, "voice": voice,
                     "rate": engine.rate, "seconds": round(seconds, 2),
                     "time_limit": round(utterance_limit(text, engine.rate), 1)})
    lines = ["# One prompt per game, as the table says it", "",
             "Made by `scripts/measure_speech.py --wav-dir docs/speech` through the product's speech path "
             "(companion/pronounce.py, then the espeak-ng command of companion/speech.py).", ""]
    for m in made:
        lines += [f"## {m['game']}: [{m['file']}]({m['file']}) ({m['seconds']} s, voice {m['voice']}, "
                  f"{m['rate']} words a minute; stopped only past {m['time_limit']} s)", "",
                  f"Text: {m['text']}", "", f"espeak-ng input: `{m['espeak_input']}`", ""]
    (out / "README.md").write_text("\n".join(lines), encoding="utf-8")
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--voice", default=DEFAULT_VOICE)
    parser.add_argument("--wav-dir", type=Path)
    parser.add_argument("--rows", action="store_true", help="print every word's three readings")
    args = parser.parse_args()
    report = measure(args.voice)
    if not args.rows:
        report.pop("rows")
    if args.wav_dir:
        report["wavs"] = write_wavs(args.wav_dir, args.voice)
    print(json.dumps(report, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
