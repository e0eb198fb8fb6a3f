"""Prompts say Tagalog words the Tagalog way, cards as syllables, and are never cut short.

The espeak-ng tests hear nothing: espeak-ng's --ipa output says which sounds the voice
makes, and its WAV output how long a prompt lasts.
"""

from __future__ import annotations

import shutil
import wave

import pytest

from companion.pronounce import phonemes, spoken
from companion.speech import DEFAULT_VOICE, EspeakCommand, utterance_limit

espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")


def test_stress_falls_on_the_second_last_syllable_unless_an_accent_says_otherwise():
    assert phonemes("Tikbalang") == "tik'balaN"
    assert phonemes("halimáw") == "hali'maU"
    assert phonemes("Kontra") == "'kontra"


def test_a_hyphen_joins_two_words_or_marks_a_glottal_stop_after_a_prefix():
    assert phonemes("araw-araw") == "'araU 'araU"
    assert phonemes("pag-asa") == "pag'?asa"
    assert phonemes("Ñañez-Dimaculangan") == "'n^an^Es dimaku'laNan"


def test_only_tagalog_words_names_and_cards_change():
    text = spoken("Ben defeats Sarimaw: 5 DP. Ben has 3 AP to spend.", names=["Ben"])
    assert text == "[['bEn]] defeats [[sari'maU]]: 5 DP. [['bEn]] has 3 AP to spend."
    assert spoken("Dalisay plays 1:1 over 2:1:1.") == "Dalisay plays 1 and 1 over 2 and 1 and 1."
    assert spoken("NG is a dead card.", syllable_cards=True) == "[['Na]] is a dead card."


@espeak
@pytest.mark.parametrize("word, sound, not_sound", [
    ("Sapaw", "aʊ", "ɔː"), ("Halimaw", "aʊ", "ɔː"), ("Sarimaw", "aʊ", "ɔː"), ("Lagim", "ɡ", "dʒ")])
def test_the_english_voice_says_tagalog_words_with_their_own_sounds(word, sound, not_sound):
    voice = EspeakCommand()
    before, after = voice.ipa(word), voice.ipa(spoken(word))
    assert not_sound in before, "espeak-ng's English reading, which the phonemes correct"
    assert sound in after and not_sound not in after


@espeak
def test_a_dugtungan_syllable_is_said_as_one_syllable_not_spelt():
    voice = EspeakCommand()
    assert "ɛl" in voice.ipa("LA")
    assert voice.ipa(spoken("LA", syllable_cards=True)).replace("ˈ", "") == "la"


LONG_PROMPTS = [
    "Tikbalang appears! Tikbalang attacks! Every player draws a random card from the player to the right. "
    "Ligaya Ñañez-Dimaculangan defeats Sarimaw: 5 DP. Ligaya Ñañez-Dimaculangan puts down Bagani ni Apo: 9 AP.",
    "Lagim begins: each Baryo holds 7 Soul Coins and 1 Dark Soul Coin and 5 Baryo cards. "
    "Bituin's turn: Twilight. Draw a Baryo card.",
]


@espeak
@pytest.mark.parametrize("rate", [80, 165])
def test_no_prompt_is_cut_at_any_rate(tmp_path, rate):
    voice = EspeakCommand()
    voice.voice, voice.rate = DEFAULT_VOICE, rate
    for n, text in enumerate(LONG_PROMPTS):
        out = tmp_path / f"{n}.wav"
        voice.save_to_file(spoken(text, names=["Ligaya Ñañez-Dimaculangan", "Bituin"]), str(out))
        with wave.open(str(out)) as w:
            seconds = w.getnframes() / w.getframerate()
        assert seconds < utterance_limit(text, rate), (text, seconds)
        if rate == 165 and n == 0:
            assert seconds > 12, "the old fixed 12 s limit would have cut this prompt"
