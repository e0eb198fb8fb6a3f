"""English words respelt as Filipino writes its loans (scripts/lib/respell.py), with the
pronunciation from the real espeak-ng: what scripts/build_lexicon.py adds to the lexicon."""

from __future__ import annotations

import pytest

from scripts.lib.respell import pronounce, respellings

# English word -> the Filipino spellings written down from knowledge of Filipino (KWF
# rules: F is P, V is B, SH is SY, CH is TS, J is DY, an I before an initial S cluster).
EXPECTED = {
    "school": {"iskul"}, "computer": {"kompyuter"}, "television": {"telebisyon"},
    "basketball": {"basketbol"}, "jacket": {"dyaket"}, "teacher": {"titser"},
    "elevator": {"elebeytor"}, "video": {"bidyo"}, "piano": {"piyano"}, "exam": {"eksam"},
    "juice": {"dyus"}, "truck": {"trak"}, "shampoo": {"syampu"}, "electrician": {"elektrisyan"},
    "text": {"tekst", "teks"}, "hotdog": {"hotdog", "hatdog", "hotdag", "hatdag"}, "doctor": {"doktor", "daktor"},
    "charger": {"tsardyer"}, "interview": {"interbyu"},
}


@pytest.fixture(scope="module")
def heard() -> dict[str, str]:
    return pronounce(EXPECTED)


@pytest.mark.parametrize("english", sorted(EXPECTED))
def test_an_english_word_is_respelt_the_way_filipino_writes_it(english: str, heard: dict[str, str]) -> None:
    assert respellings(english, heard[english]) == EXPECTED[english]


# One rule each: English word -> its Filipino spellings, written down from the rule.
BY_RULE = {
    # a written vowel that speech drops lines up with no sound, so the others keep their letters
    "dropped vowel": {"different": {"diprent", "dipren"}, "interest": {"intrest", "intres"},
                      "every": {"ebri"}},
    # SH is S before an I or an ER: SYI and SYER are no Filipino syllables
    "sh before i": {"machine": {"masin"}, "shirt": {"sert"}, "tshirt": {"tisert"}},
    # each T or D between consonants may go, as speech drops it, but not before L, R, S, Y
    "t or d between consonants": {"postman": {"postman", "posman"}, "handbag": {"handbag", "hanbag"},
                                  "westbound": {"westbawnd", "wesbawnd", "westbawn", "wesbawn"},
                                  "country": {"kantri"}, "bench": {"bents"}},
    # NG before K is written NG or, as English spells it, N
    "ng before k": {"pink": {"pink", "pingk"},
                    "softdrinks": {"soptdringks", "soptdrinks", "sopdringks", "sopdrinks"}},
    # the unwritten vowel of a final -LE is E or O
    "final le": {"simple": {"simpel", "simpol"}, "people": {"pipel", "pipol"},
                 "tricycle": {"traysikel", "traysikol"}},
    # a first-syllable E that speech reduces before the stress is E or I; one further off stays E
    "reduced first e": {"event": {"ebent", "eben", "ibent", "iben"}, "decide": {"desayd", "disayd"},
                        "electric": {"elektrik", "ilektrik"}, "electrician": {"elektrisyan"}},
}


@pytest.mark.parametrize("rule", sorted(BY_RULE))
def test_each_respelling_rule_gives_the_spellings_filipino_writes(rule: str) -> None:
    expected = BY_RULE[rule]
    heard = pronounce(expected)
    assert {w: respellings(w, ipa) for w, ipa in heard.items()} == expected


def test_every_word_gets_one_pronunciation_in_order() -> None:
    heard = pronounce(["cake", "bike", "ice"])
    assert list(heard) == ["cake", "bike", "ice"]
    assert {w: respellings(w, ipa) for w, ipa in heard.items()} == {"cake": {"keyk"}, "bike": {"bayk"}, "ice": {"ays"}}


def test_a_word_read_letter_by_letter_is_no_loan() -> None:
    """espeak-ng spells an abbreviation out (CET is SI-I-TI): no Filipino word comes of it."""
    heard = pronounce(["cet"])
    assert respellings("cet", heard["cet"]) == set()
