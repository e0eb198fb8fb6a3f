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


def test_every_word_gets_one_pronunciation_in_order() -> None:
    heard = pronounce(["cake", "bike", "ice"])
    assert list(heard) == ["cake", "bike", "ice"]
    assert {w: respellings(w, ipa) for w, ipa in heard.items()} == {"cake": {"keyk"}, "bike": {"bayk"}, "ice": {"ays"}}


def test_a_word_read_letter_by_letter_is_no_loan() -> None:
    """espeak-ng spells an abbreviation out (CET is SI-I-TI): no Filipino word comes of it."""
    heard = pronounce(["cet"])
    assert respellings("cet", heard["cet"]) == set()
