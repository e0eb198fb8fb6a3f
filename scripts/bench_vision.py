"""Measure detection, identification, open-set rejection and speed; print JSON.

    nice -n 10 .venv/bin/python scripts/bench_vision.py [--scenes 30] [--seed N] [--only real,scenes,speed,printed,tracking,realdev,world,families]

first:  (not in the default set) the real photos again, ours and the original recipe each
        reading each photo as the first of a fresh process, --runs processes apiece.
real:   ../shared/data/realphotos, one-shot protocol (its README), with two pHash
        baselines (imagehash, train extra) run on the same photos: the open-source
        detector's own recipe (scripts/phash_original.py) and pHash over our detector
        (scripts/phash_baseline.py); `speedup_vs_<baseline>` is their mean time over ours.
        `ours_at_webcam_size` reads the large photos decoded at a quarter (cards under
        the size they are read at, as a webcam sees them).
scenes: generated tables of all four games from EVAL_SEED (never used in training;
        --seed picks another unseen one), each deck enrolled from generated photos
        with 15% of faces left out.
speed:  one thread everywhere; 1280x720 frames with 8 cards; detection, and beside it the
        detector before issue 21's card check and local maps, taken in turn; the card
        check per contour candidate; identification alone per
        card; decode-to-names per real photo; peak memory of `companion recognize`.
realdev: (not in the default set) ../shared/data/realphotos-dev: detection recall and
        precision over its 27 photos, per source and all, also for the detector as it was
        before the card check and local maps (`contour_unchecked`) (with --detector-model, an
        experimental learned detector, scripts/learned_detector.py, beside it); and its
        one-shot protocol (`realdev_one_shot`): a gallery
        cut from the four single-suit blackjack photos (crops round each card, as
        `companion enroll` takes them), a fixed fifth of the 52 faces left out, tested on
        the three mixed blackjack_surface photos. Measured, never tuned on.
families: generated tables (EVAL_SEED) dealt from one deck of each face family of
        scripts/lib/families.py (--families), all four games, 15% of faces never enrolled;
        the held-out family (never trained or tuned on) under "held_out_family", the
        others under "training_families". Besides the usual tally, identification is
        scored over the cards the detector found: enrolled ones named right / left null /
        named wrong, and left-out ones null. With --only printed,families the printed
        readers are measured on every family too.
printed: the printed readers against PP-OCR (scripts/bench_printed.py, --scenes per set).
world_named: (not in the default set) identification on the same held-out tables and
        layouts (--world-scenes per layout and game), cards dealt from one deck of each
        --families face family (the held-out `heirloom` is the one that predicts a real
        deck), all four games, 15% of faces never enrolled, cards 60-400 px tall: the
        scene tally and identification over the cards found, per layout and game.
world:  (not in the default set) detection on generated 1280x720 tables of the table
        kinds and the face family held out of the learned detector's and the card
        check's training (scripts/detector_world.py), per layout (apart, row, grid,
        pile, fan), --world-scenes per layout, the same detectors as realdev.
tracking: tracking on generated videos, seat zones for 2-6 seats, and the whole
        per-frame pipeline on a 1280x720 video (scripts/bench_tracking.py).
Every time is a median over several runs; on the real photos the systems take their
runs in turn, so a slow spell of a shared machine falls on all of them alike.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread everywhere, as the companion package sets it

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_printed import printed_report  # noqa: E402
from bench_tracking import FRAMES, TABLES, VIDEOS, pipeline_speed, tracking, zones  # noqa: E402
from vision.deck import DeckProfile  # noqa: E402
from vision.detectors import DETECTOR_KINDS, DetectorKind, card_detector  # noqa: E402
from vision.detect import ContourCardDetector, ContourDetectorSettings, rectify  # noqa: E402
from vision.embed import DEFAULT_MODEL, OnnxEmbedder, file_sha256  # noqa: E402
from vision.enroll import Enrollment  # noqa: E402
from scripts.lib.evaluate import (MarkedPhoto, Tally, TruthCard, detection_counts, marked_photo_truth,  # noqa: E402
                             match_by_centre, one_shot_gallery, one_shot_shots, quad_iou, real_photo_truth,
                             without_gallery)
from vision.imageio import decode  # noqa: E402
from vision.learned_detect import LearnedCardDetector  # noqa: E402
from vision.interfaces import BatchIdentifier, CardDetector  # noqa: E402
from vision.refine import refine_quads  # noqa: E402
from vision.print_check import checked_by_print  # noqa: E402
from vision.identify import GalleryIdentifier  # noqa: E402
from vision.recognize import CardRecognizer  # noqa: E402
from vision.synth.faces import GAMES  # noqa: E402
from scripts.lib.families import FAMILIES, HELD_OUT  # noqa: E402
from scripts.lib.family_tables import dealer, enrolled_family_deck, family_table  # noqa: E402
from vision.synth.scenes import EVAL_SEED, TRAIN_SEEDS  # noqa: E402
from vision.synth.tables import enrolled_deck, game_table  # noqa: E402

REAL = ROOT.parent / "shared" / "data" / "realphotos"
REALDEV = ROOT.parent / "shared" / "data" / "realphotos-dev"
DEV_GALLERY = ("blackjack_club1.png", "blackjack_diamond3.png", "blackjack_heart3.png", "blackjack_spade3.png")
DEV_TESTS = ("blackjack_surface1.png", "blackjack_surface3.png", "blackjack_surface4.png")
DEV_CROP = 100  # pixels each way from a gallery card's centre: its long side is about 140 in these photos
DEV_LEFT_OUT = 0.2  # share of the 52 faces never enrolled, drawn once from a fixed seed


def timed_in_turn(fns: dict, runs: int) -> dict[str, tuple[float, object]]:
    """`timed` of each of `fns`, their runs taken in turn (one run of each, `runs`
    times): a slow spell of this shared machine then falls on every system alike,
    rather than on whichever was being timed when it came."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    out: dict[str, object] = {}
    for _ in range(runs):
        for name, fn in fns.items():
            start = time.process_time()
            out[name] = fn()
            times[name].append(time.process_time() - start)
    return {name: (statistics.median(times[name]), out[name]) for name in fns}


def timed(fn, runs: int) -> tuple[float, object]:
    """Median seconds of `runs` calls, and the last result. Seconds are this process's
    CPU time: everything runs on one thread, and on a machine shared with other jobs
    CPU time is what a dedicated core would show as wall time."""
    return timed_in_turn({"": fn}, runs)[""]


class AtWebcamSize:
    """Ours on the photos decoded at a quarter where they are large (longer side at
    least 1280 then): the 40 cards of alpha_deck.jpg at about 157x220 px, the size a
    1280x720 webcam over a small table sees a card, under the 180x252 they are read at."""

    def __init__(self, recognizer: CardRecognizer) -> None:
        self.recognizer = recognizer

    def recognize_file(self, data: bytes):
        return self.recognizer.recognize_file(data, min_side=1280)


DETECTOR: DetectorKind = "joint"  # --detector: the detector every identification figure runs through


def shipped() -> CardDetector:
    """The detector the figures are of (`--detector`; the app's default unless told)."""
    return card_detector(DETECTOR)


def one_shot_enrollment() -> Enrollment:
    """The real photos' one-shot gallery (their README), enrolled as `companion enroll` would."""
    enrollment = Enrollment("generic", ContourCardDetector())  # as `companion enroll`: a close-up of one card
    for code, image in one_shot_shots(REAL):
        enrollment.add(image, code)
    return enrollment


def real_photos(embedder: OnnxEmbedder, runs: int) -> dict:
    from phash_baseline import PhashBaseline  # needs the train extra (imagehash)
    from phash_original import OriginalPhashDetector

    truth = real_photo_truth(REAL)
    gallery_index = set(one_shot_gallery(truth))
    enrollment = one_shot_enrollment()
    deck = enrollment.profile(embedder)
    ours = CardRecognizer(shipped(), GalleryIdentifier(deck.gallery, embedder))
    baselines = {"phash_original": OriginalPhashDetector(enrollment.cards, enrollment.codes),
                 "phash_on_our_detector": PhashBaseline(enrollment.cards, enrollment.codes)}
    variants = {"ours_at_webcam_size": AtWebcamSize(ours)}
    codes = set(enrollment.codes)
    report: dict = {"enrolled": len(codes), "threshold": round(deck.gallery.threshold, 4), "min_consistency": round(deck.gallery.min_consistency, 4), "min_colour_median": round(float(np.median(deck.gallery.min_colours)), 4),
                    "calibration": deck.calibration}
    systems = {"ours": ours, **variants, **baselines}
    tallies = {name: Tally() for name in systems}
    seconds: dict[str, list[float]] = {name: [] for name in systems}
    misses: dict[str, list[dict]] = {name: [] for name in systems}
    for photo, cards in truth.items():
        data = (REAL / photo).read_bytes()
        timings = timed_in_turn({name: lambda system=system: system.recognize_file(data)
                                 for name, system in systems.items()}, runs)
        for name, (elapsed, results) in timings.items():
            seconds[name].append(elapsed)
            results, test = without_gallery(photo, results, cards, gallery_index)
            match = tallies[name].add(results, test, codes)
            misses[name] += [{"photo": photo, "truth": test[t].code, "said": results[p].reading.code,
                              "top": [(c.code, c.score) for c in results[p].reading.candidates[:2]]}
                             for p, t in match.pairs
                             if results[p].reading.code != (test[t].code if test[t].code in codes else None)]
            misses[name] += [{"photo": photo, "truth": test[t].code, "said": "not found"} for t in match.unmatched_truth]
    for name in systems:
        report[name] = tallies[name].summary() | {
            "seconds_per_photo": {p: round(s, 4) for p, s in zip(truth, seconds[name])},
            "seconds_per_photo_mean": round(float(np.mean(seconds[name])), 4), "mistakes": misses[name]}
    for name in baselines:
        report[f"speedup_vs_{name}"] = round(report[name]["seconds_per_photo_mean"]
                                             / report["ours"]["seconds_per_photo_mean"], 2)
    return report


def first_call_seconds(system: str, photo: str, embedder: OnnxEmbedder) -> float:
    """CPU seconds of `system`'s first photo in this process ("ours" or "phash_original"),
    decode to names: what one `companion recognize` of one photo costs once the deck is
    loaded, and what the open-source tool pays per photo, which it reads once."""
    from phash_original import OriginalPhashDetector

    enrollment = one_shot_enrollment()
    reader = (CardRecognizer(shipped(), GalleryIdentifier(enrollment.profile(embedder).gallery, embedder))
              if system == "ours" else OriginalPhashDetector(enrollment.cards, enrollment.codes))
    data = (REAL / photo).read_bytes()
    return timed(lambda: reader.recognize_file(data), 1)[0]


def first_calls(model: Path, runs: int) -> dict:
    """Ours and the original pHash recipe each reading each real photo as the first photo
    of a fresh process, `runs` processes apiece, in turn: no run finds the buffers,
    caches and lazily built tables of an earlier read of the same photo, as repeated
    runs in one process do (the recipe then reads the 27-MP photo a quarter faster)."""
    photos = list(real_photo_truth(REAL))
    seconds: dict[str, list[float]] = {"ours": [], "phash_original": []}
    for photo in photos:
        times: dict[str, list[float]] = {name: [] for name in seconds}
        for _ in range(runs):
            for name in seconds:
                done = subprocess.run([sys.executable, __file__, "--first-call", name, photo, "--model", str(model),
                                       "--detector", DETECTOR],
                                      check=True, capture_output=True, text=True, cwd=ROOT)
                times[name].append(float(done.stdout))
        for name in seconds:
            seconds[name].append(statistics.median(times[name]))
    report: dict = {name: {"seconds_per_photo": {p: round(t, 4) for p, t in zip(photos, values)},
                           "seconds_per_photo_mean": round(float(np.mean(values)), 4)}
                    for name, values in seconds.items()}
    report["speedup_vs_phash_original"] = round(report["phash_original"]["seconds_per_photo_mean"]
                                                / report["ours"]["seconds_per_photo_mean"], 2)
    return report


def detectors(model: Path | None) -> dict[str, CardDetector]:
    """The detector `companion recognize` uses (`joint`: the contour finds the network does
    not refuse, and the network's cards where none lies; vision/learned_detect.py), the
    network's cards alone (`learned`), the contour detector alone (vision/detect.py), that one without the learned card
    check, the local-contrast maps and the straight-edge search for overlapping cards (the
    detector before issue 21's changes), and without only that search
    (`contour_no_overlaps`, vision/overlap.py); given another learned model
    (scripts/train_detector.py), that model alone and added to the contour detector
    (scripts/learned_detector.py), to compare in one run."""
    out: dict[str, CardDetector] = {"joint": card_detector("joint"), "learned": card_detector("learned"),
                                    "contour": ContourCardDetector(),
                                    "contour_unchecked": unchecked_detector(),
                                    "contour_no_overlaps": ContourCardDetector(ContourDetectorSettings(overlaps=False))}
    if model is not None:
        from learned_detector import ContourPlusLearned

        learned = LearnedCardDetector(model)
        out |= {"learned_model": learned, "contour_plus_learned_model": ContourPlusLearned(learned)}
    return out


def unchecked_detector() -> ContourCardDetector:
    """The contour detector as it was before the learned card check, the local maps and
    the straight-edge search for overlapping cards."""
    return ContourCardDetector(ContourDetectorSettings(overlaps=False), verifier=None)


def realdev(detector: CardDetector) -> dict:
    """Detection over ../shared/data/realphotos-dev (its README's rule: a quad holding a
    card's centre, ignored places don't care), per source and over all 27 photos, the
    photos decoded as `companion recognize` decodes them and each find fitted to the
    edges as it fits them."""
    totals: dict[str, list[int]] = {}
    misses: dict[str, int] = {}
    for photo, truth in marked_photo_truth(REALDEV).items():
        image, factor = decode((REALDEV / "photos" / photo).read_bytes())
        quads = [q * factor for q in refine_quads(image, [d.corners for d in detector.detect(image)])]
        counts = detection_counts(quads, truth)
        for key in (photo.split("_")[0], "all"):
            totals[key] = [a + b for a, b in zip(totals.get(key, [0, 0, 0]), counts)]
        if counts[1] < counts[0] or counts[2] > counts[1]:
            misses[photo] = {"cards": counts[0], "found": counts[1], "finds": counts[2]}
    report = {key: {"cards": n, "recall": round(found / n, 4), "precision": round(found / max(finds, 1), 4)}
              for key, (n, found, finds) in totals.items()}
    return report | {"photos_not_all_right": misses}


def world_layouts(detector: CardDetector, scenes_per_layout: int, seed: int = EVAL_SEED, held_out: bool = True) -> dict:
    """Detection on generated 1280x720 tables of the held-out table kinds and the held-out
    face family (scripts/detector_world.py: none of them in training or tuning), per
    layout: recall and precision by the centre rule (cards mostly hidden don't care),
    and how many found cards' outlines overlap the truth by IoU >= 0.9. `held_out`
    False: the training kinds and families instead, from their own seed (what the
    detector's settings were tuned on)."""
    from detector_world import (HELD_OUT_FAMILY, HELD_OUT_TABLES, HIDDEN, LAYOUTS, TRAIN_FAMILIES, TRAIN_TABLES,
                                WHOLE, world_scene)

    tables, families = (HELD_OUT_TABLES, (HELD_OUT_FAMILY,)) if held_out else (TRAIN_TABLES, TRAIN_FAMILIES)
    rng = random.Random(f"detector-{'heldout' if held_out else 'tune'}:{seed}")
    report = {}
    for layout in LAYOUTS:
        n = found = finds = tight = 0
        for _ in range(scenes_per_layout):
            scene = world_scene(rng, (1280, 720), tables, families, layout, card_px=(60, 400))
            whole = [c for c in scene.cards if c.share >= WHOLE]
            hidden = [c for c in scene.cards if HIDDEN <= c.share < WHOLE and c.visible.any()]
            truth = MarkedPhoto(tuple(TruthCard("", tuple(c.outline.mean(axis=0))) for c in whole),
                                tuple(tuple(np.argwhere(c.visible).mean(axis=0)[::-1]) for c in hidden))
            quads = refine_quads(scene.image, [d.corners for d in detector.detect(scene.image)])
            counts = detection_counts(quads, truth)
            n, found, finds = n + counts[0], found + counts[1], finds + counts[2]
            for p, t in match_by_centre(quads, truth.cards).pairs:
                tight += quad_iou(quads[p], whole[t].outline) >= 0.9
        report[layout] = {"cards": n, "recall": round(found / max(n, 1), 4), "precision": round(found / max(finds, 1), 4),
                          "outline_iou_0.9": round(tight / max(found, 1), 4)}
    return report | {"tables": list(tables), "families": list(families), "seed": seed}


def eval_deck(game: str, codes, embedder: OnnxEmbedder, seed: int = EVAL_SEED) -> DeckProfile:
    return enrolled_deck(game, codes, embedder, random.Random(f"enroll:{game}:{seed}"))


def scenes(embedder: OnnxEmbedder, count: int, seed: int = EVAL_SEED) -> dict:
    report, overall = {}, Tally()
    for game in GAMES:
        table = game_table(game, seed, count)
        deck = eval_deck(game, table.enrolled, embedder, seed)
        recognizer = CardRecognizer(shipped(), checked_by_print(GalleryIdentifier(deck.gallery, embedder), game))
        tally, mistakes = Tally(), []
        for index, scene in enumerate(table.scenes):
            truth = [TruthCard(c.code, tuple(c.corners.mean(axis=0))) for c in scene.cards]
            results = recognizer.recognize(scene.image)
            for t in (tally, overall):
                match = t.add(results, truth, set(table.enrolled), [c.corners for c in scene.cards])
            mistakes += [{"scene": index, "table": scene.table, "truth": truth[t].code, "said": results[p].reading.code}
                         for p, t in match.pairs
                         if results[p].reading.code != (truth[t].code if truth[t].code in table.enrolled else None)]
            mistakes += [{"scene": index, "table": scene.table, "truth": truth[t].code, "said": "not found"}
                         for t in match.unmatched_truth]
        report[game] = tally.summary() | {"left_out": len(table.left_out), "threshold": round(deck.gallery.threshold, 4), "min_consistency": round(deck.gallery.min_consistency, 4), "min_colour_median": round(float(np.median(deck.gallery.min_colours)), 4),
                                          "mistakes": mistakes[:20]}
    report["all_games"] = overall.summary()
    report["seed"] = seed
    return report


FOUND_COUNTS = ("enrolled_found", "named_right", "left_null", "named_wrong", "left_out_found", "left_out_rejected")


def count_found(counts: dict[str, int], results, truth: list[TruthCard], enrolled: set[str]) -> None:
    """Identification alone, over the cards the detector found in one scene: enrolled
    ones named right, left null or named wrong; left-out ones null or named."""
    for p, t in match_by_centre([r.corners for r in results], truth).pairs:
        said, code = results[p].reading.code, truth[t].code
        if code in enrolled:
            counts["enrolled_found"] += 1
            counts["named_right" if said == code else "left_null" if said is None else "named_wrong"] += 1
        else:
            counts["left_out_found"] += 1
            counts["left_out_rejected" if said is None else "named_wrong"] += 1


def found_shares(counts: dict[str, int]) -> dict:
    def share(a: int, b: int) -> float | None:
        return round(a / b, 4) if b else None
    return counts | {"enrolled_named_right": share(counts["named_right"], counts["enrolled_found"]),
                     "enrolled_left_null": share(counts["left_null"], counts["enrolled_found"]),
                     "left_out_null": share(counts["left_out_rejected"], counts["left_out_found"])}


def family_scenes(embedder: OnnxEmbedder, count: int, seed: int, families: tuple[str, ...]) -> dict:
    """`families` section of the docstring: per family and game, the scene tally
    (scripts/lib/evaluate.py) and identification over the cards found (`count_found`)."""
    report: dict = {"held_out_family": {}, "training_families": {}, "seed": seed}
    for family in families:
        entry = {}
        for game in GAMES:
            table = family_table(family, game, seed, count)
            deck = enrolled_family_deck(family, table, embedder, seed)
            recognizer = CardRecognizer(shipped(), checked_by_print(GalleryIdentifier(deck.gallery, embedder), game))
            tally, counts, enrolled = Tally(), dict.fromkeys(FOUND_COUNTS, 0), set(table.enrolled)
            for scene in table.scenes:
                results = recognizer.recognize(scene.image)
                truth = [TruthCard(c.code, tuple(c.corners.mean(axis=0))) for c in scene.cards]
                tally.add(results, truth, enrolled, [c.corners for c in scene.cards])
                count_found(counts, results, truth, enrolled)
            entry[game] = {"scenes": tally.summary(), "found_cards": found_shares(counts)}
        report["held_out_family" if family == HELD_OUT else "training_families"][family] = entry
    return report


def world_named(embedder: OnnxEmbedder, scenes_per_layout: int, seed: int, families: tuple[str, ...]) -> dict:
    """`world_named` in the docstring: per family, layout and game, the scene tally and
    identification over the cards found; "all_games" sums the games per layout."""
    from detector_world import HELD_OUT_FAMILY, HELD_OUT_TABLES, HIDDEN, LAYOUTS, WHOLE, world_scene

    report: dict = {"tables": list(HELD_OUT_TABLES), "seed": seed}
    for family in families:
        tallies = {layout: (Tally(), dict.fromkeys(FOUND_COUNTS, 0)) for layout in LAYOUTS}
        entry: dict = {layout: {} for layout in LAYOUTS}
        for game in GAMES:
            table = family_table(family, game, seed, 0)
            deck = enrolled_family_deck(family, table, embedder, seed)
            recognizer = CardRecognizer(shipped(), checked_by_print(GalleryIdentifier(deck.gallery, embedder), game))
            faces, enrolled = dealer(family, game, seed), set(table.enrolled)
            rng = random.Random(f"world-named:{family}:{game}:{seed}")
            for layout in LAYOUTS:
                tally, counts = Tally(), dict.fromkeys(FOUND_COUNTS, 0)
                for _ in range(scenes_per_layout):
                    scene = world_scene(rng, (1280, 720), HELD_OUT_TABLES, (HELD_OUT_FAMILY,), layout, card_px=(60, 400),
                                        faces=faces)
                    whole = scene.whole()
                    truth = [TruthCard(c.code, tuple(c.outline.mean(axis=0))) for c in whole]
                    results = recognizer.recognize(scene.image)
                    unmatched = set(match_by_centre([r.corners for r in results], truth).unmatched_predictions)
                    hidden = [c.visible for c in scene.cards if HIDDEN <= c.share < WHOLE]
                    results = [r for i, r in enumerate(results) if i not in unmatched or not _on_any(r.corners, hidden)]
                    for scored, found in ((tally, counts), tallies[layout]):
                        scored.add(results, truth, enrolled, [c.outline for c in whole])
                        count_found(found, results, truth, enrolled)
                entry[layout][game] = {"scenes": tally.summary(), "found_cards": found_shares(counts)}
        for layout, (tally, counts) in tallies.items():
            entry[layout]["all_games"] = {"scenes": tally.summary(), "found_cards": found_shares(counts)}
        report[family] = entry
    return report


def _on_any(corners: np.ndarray, masks: list[np.ndarray]) -> bool:
    """Whether a find's centre lies on any of `masks` (cards partly hidden: either way)."""
    x, y = (int(round(float(v))) for v in corners.mean(axis=0))
    return any(0 <= y < m.shape[0] and 0 <= x < m.shape[1] and bool(m[y, x]) for m in masks)


def realdev_one_shot_deck(embedder: OnnxEmbedder) -> tuple[DeckProfile, set[str]]:
    """The one-shot protocol's deck (`realdev` in the docstring), enrolled from crops of
    the four single-suit blackjack photos, and the faces left out of it."""
    shots = [shot for photo in DEV_GALLERY for shot in one_shot_shots(REALDEV, photo, DEV_CROP)]
    faces = sorted({code for code, _ in shots})
    left_out = set(random.Random("realphotos-dev:left-out").sample(faces, round(DEV_LEFT_OUT * len(faces))))
    enrollment = Enrollment("generic", ContourCardDetector())  # as `companion enroll`: a close-up of one card
    for code, image in shots:
        if code not in left_out:
            enrollment.add(image, code)
    return enrollment.profile(embedder), left_out


def realdev_one_shot(embedder: OnnxEmbedder) -> dict:
    """`realdev` in the docstring: the tally of the three test photos (over all their
    cards) and identification over the cards found (`count_found`)."""
    deck, left_out = realdev_one_shot_deck(embedder)
    recognizer = CardRecognizer(shipped(), GalleryIdentifier(deck.gallery, embedder))
    truth = real_photo_truth(REALDEV)
    tally, counts, enrolled, mistakes = Tally(), dict.fromkeys(FOUND_COUNTS, 0), set(deck.gallery.codes), []
    for photo in DEV_TESTS:
        results = recognizer.recognize(cv2.imread(str(REALDEV / "photos" / photo), cv2.IMREAD_COLOR))
        match = tally.add(results, truth[photo], enrolled)
        count_found(counts, results, truth[photo], enrolled)
        mistakes += [{"photo": photo, "truth": truth[photo][t].code, "said": results[p].reading.code}
                     for p, t in match.pairs if results[p].reading.code not in (None, truth[photo][t].code)]
    return {"enrolled_faces": len(enrolled), "left_out_faces": sorted(left_out), "gallery_photos": list(DEV_GALLERY),
            "test_photos": list(DEV_TESTS), "scenes": tally.summary(), "found_cards": found_shares(counts),
            "wrong_names": mistakes}


def speed_frames(embedder: OnnxEmbedder) -> tuple[list[np.ndarray], BatchIdentifier]:
    """The speed figures' frames, ten 1280x720 Gargon tables of 8 cards (EVAL_SEED + 1,
    15% of the faces never enrolled), and an identifier of the deck enrolled for them,
    its names checked by print as `companion` checks them (also scripts/profile_frame.py's)."""
    table = game_table("gargon", EVAL_SEED + 1, 10, cards=(8, 8))
    deck = eval_deck("gargon", table.enrolled, embedder)
    return [scene.image for scene in table.scenes], checked_by_print(GalleryIdentifier(deck.gallery, embedder), "gargon")


def speed(embedder: OnnxEmbedder, runs: int) -> dict:
    frames, identifier = speed_frames(embedder)
    recognizer = CardRecognizer(shipped(), identifier)
    detector, contour, unchecked = shipped(), ContourCardDetector(), unchecked_detector()
    no_overlaps = ContourCardDetector(ContourDetectorSettings(overlaps=False))
    frame_ms, detect_ms, contour_ms, unchecked_ms, no_overlaps_ms, check_ms, ident_ms = [], [], [], [], [], [], []
    for frame in frames:
        frame_ms.append(timed(lambda f=frame: recognizer.recognize(f), runs)[0] * 1000)
        times = timed_in_turn({"now": lambda f=frame: detector.detect(f),
                               "contour": lambda f=frame: contour.detect(f),
                               "unchecked": lambda f=frame: unchecked.detect(f),
                               "no_overlaps": lambda f=frame: no_overlaps.detect(f)}, runs)
        detect_ms.append(times["now"][0] * 1000)
        contour_ms.append(times["contour"][0] * 1000)
        unchecked_ms.append(times["unchecked"][0] * 1000)
        no_overlaps_ms.append(times["no_overlaps"][0] * 1000)
        small, _, quads, scores, _ = contour.candidates(frame)
        assert contour.verifier is not None
        check_ms.append(timed(lambda: contour.verifier.cards(small, quads, scores), runs)[0] * 1000 / max(1, len(quads)))
        cards = [rectify(frame, d.corners) for d in detector.detect(frame)]
        ident_ms.append(timed(lambda c=cards: identifier.identify_many(c), runs)[0] * 1000 / max(1, len(cards)))
    return {"frame_1280x720_8_cards_ms_median": round(statistics.median(frame_ms), 2),
            "detector": DETECTOR,
            "detection_only_ms_median": round(statistics.median(detect_ms), 2),
            "detection_contour_ms_median": round(statistics.median(contour_ms), 2),
            "detection_unchecked_ms_median": round(statistics.median(unchecked_ms), 2),
            "detection_no_overlaps_ms_median": round(statistics.median(no_overlaps_ms), 2),
            "card_check_ms_per_candidate_median": round(statistics.median(check_ms), 3),
            "identification_ms_per_card_median": round(statistics.median(ident_ms), 3),
            "model_bytes": embedder.model.stat().st_size,
            "companion_recognize_peak_rss_mb": peak_memory_mb(embedder)}


def peak_memory_mb(embedder: OnnxEmbedder) -> float:
    """Peak RSS of a real `companion recognize` run on the largest real photo, read from
    GNU time (getrusage of a child would count the forked benchmark's own pages)."""
    with tempfile.TemporaryDirectory() as tmp:
        deck = one_shot_enrollment().profile(embedder).save(Path(tmp) / "deck.npz")
        done = subprocess.run(["/usr/bin/time", "-v", sys.executable, "-m", "companion.cli", "recognize", "--deck",
                               str(deck), "--json", "--model", str(embedder.model), str(REAL / "alpha_deck.jpg")],
                              check=True, capture_output=True, text=True, cwd=ROOT)
    kilobytes = next(line for line in done.stderr.splitlines() if "Maximum resident set size" in line).split()[-1]
    return round(int(kilobytes) / 1024, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=30, help="generated scenes per game")
    parser.add_argument("--detector", choices=DETECTOR_KINDS, default="joint",
                        help="the detector every identification and speed figure runs through")
    parser.add_argument("--detector-model", type=Path, help="another learned detector's ONNX model to compare (realdev, world)")
    parser.add_argument("--world-scenes", type=int, default=20, help="held-out generated scenes per layout")
    parser.add_argument("--runs", type=int, default=3, help="timing runs per measurement (median)")
    parser.add_argument("--only", default="real,scenes,speed,printed,tracking")
    parser.add_argument("--ocr-cards", type=int, default=40, help="cards per printed set also read by PP-OCR")
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--seed", type=int, default=EVAL_SEED,
                        help="seed of the generated scenes: a second evaluation seed checks that a change did not fit the first")
    parser.add_argument("--families", default=",".join(FAMILIES),
                        help="face families for --only families,world_named (scripts/lib/families.py), comma-separated")
    parser.add_argument("--first-call", nargs=2, metavar=("SYSTEM", "PHOTO"), help=argparse.SUPPRESS)  # one of first_calls' processes
    args = parser.parse_args()
    global DETECTOR
    DETECTOR = args.detector
    if args.first_call:
        cv2.setNumThreads(1)
        print(first_call_seconds(*args.first_call, OnnxEmbedder(args.model, threads=1)))
        return
    if args.seed in TRAIN_SEEDS:
        parser.error(f"--seed {args.seed} is a training seed (TRAIN_SEEDS); evaluate on one the model never saw")
    cv2.setNumThreads(1)
    embedder = OnnxEmbedder(args.model, threads=1)
    parts = set(args.only.split(","))
    out: dict = {"model": args.model.name, "model_sha256": file_sha256(args.model), "threads": 1,
                 "timing": "median CPU seconds of this single-threaded process", "load_average": os.getloadavg()}
    if "real" in parts and REAL.is_dir():
        out["real_photos"] = real_photos(embedder, args.runs)
    if "realdev" in parts and REALDEV.is_dir():
        out["realdev"] = {name: realdev(detector) for name, detector in detectors(args.detector_model).items()}
    if "world" in parts:
        out["held_out_world"] = {name: world_layouts(detector, args.world_scenes, args.seed)
                                 for name, detector in detectors(args.detector_model).items()}
    if "world_named" in parts:
        out["held_out_world_named"] = world_named(embedder, args.world_scenes, args.seed, tuple(args.families.split(",")))
    if "first" in parts and REAL.is_dir():
        out["real_photos_first_call"] = first_calls(args.model, args.runs)
    if "scenes" in parts:
        out["generated_scenes"] = scenes(embedder, args.scenes, args.seed)
    if "speed" in parts:
        out["speed"] = speed(embedder, args.runs)
    if "realdev" in parts and REALDEV.is_dir():
        out["realphotos_dev_one_shot"] = realdev_one_shot(embedder)
    families = tuple(args.families.split(",")) if "families" in parts else ()
    if "families" in parts:
        out["face_families"] = family_scenes(embedder, args.scenes, args.seed, families)
    if "printed" in parts:
        out["printed_readers"] = printed_report(args.scenes, args.ocr_cards, families=families)
    if "tracking" in parts:
        out["tracking"] = tracking(VIDEOS)
        out["zones"] = zones(TABLES)
        out["pipeline"] = pipeline_speed(FRAMES)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
