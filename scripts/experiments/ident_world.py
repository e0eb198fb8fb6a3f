"""Identification alone on the detector world's training tables and training face families.

Tuning ground for the open-set tests (vision/identify.py): the held-out family and
table kinds never enter. Two steps, so a change to the identifier is measured in
seconds, not in a rerun of the detector:

    nice -n 10 .venv/bin/python scripts/experiments/ident_world.py collect OUT.npz [--scenes 2]
    nice -n 10 .venv/bin/python scripts/experiments/ident_world.py score OUT.npz

`collect` enrolls one deck per training family and game (one generated photo a face,
15% of faces left out, as scripts/bench_vision.py's world_named does), lays its faces
out on the training tables (scripts/detector_world.py) and keeps, for every whole card
the shipped pipeline found (the finds its detector doubts too), its cut-out where the
pipeline left it and at its true outline, with its size and what the pipeline said,
its corners and true outline, and the mask of what of it is seen. `score` enrolls the
decks again from the kept shots and reads the kept cut-outs with the identifier as it
now is (a Gargon or dugtungan deck's names checked by print, vision/print_check.py):
named right, null, wrong and left-out null, with why each true card was refused, by
size and by how far the pipeline's outline lies off the card's.

Measured at the start of the corner-index change (vision/identify.py; 2 scenes, 437
enrolled cards): named as the pipeline cut them 312, at the true outlines 388. Of the
96 cards whose outline the pipeline left 10% or more off (mostly a panel above a ribbon
or banner, or the art inside a frame, which the wide look no longer ranks first), 10
were named as cut, 85 at the true outline: that, not the reading, is most of what is lost.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from detector_world import LAYOUTS, TRAIN_TABLES, world_scene  # noqa: E402
from scripts.lib.evaluate import TruthCard, match_by_centre  # noqa: E402
from scripts.lib.families import TRAINING  # noqa: E402
from scripts.lib.family_tables import dealer, family_deck, family_table  # noqa: E402
from vision.deck import calibrate  # noqa: E402
from vision.detect import ContourCardDetector, CardCutter  # noqa: E402
from vision.embed import DEFAULT_MODEL, OnnxEmbedder  # noqa: E402
from vision.enroll import Enrollment, card_nearest_centre  # noqa: E402
from vision.geometry import side_lengths  # noqa: E402
from vision.print_check import checked_by_print  # noqa: E402
from vision.identify import READ_SIZE, GalleryIdentifier, margin  # noqa: E402
from vision.learned_detect import JointCardDetector, JointSettings, outline_iou  # noqa: E402
from vision.recognize import CardRecognizer  # noqa: E402
from vision.synth.faces import GAMES  # noqa: E402
from vision.synth.tables import RETAKES, cut_out_looks_right, enrollment_scene  # noqa: E402

SEED = 4242  # a training seed: the benchmarks' EVAL_SEED is never looked at here


def enrollment(family: str, game: str, codes, seed: int) -> Enrollment:
    """As scripts/lib/family_tables.enrolled_family_deck, keeping the shots."""
    faces, rng = family_deck(family, game, seed), random.Random(f"enroll:{family}:{game}:{seed}")
    detector = ContourCardDetector()
    taken = Enrollment(game, detector)
    for code in codes:
        for _ in range(RETAKES):
            scene = enrollment_scene(game, code, rng, faces(code))
            corners = card_nearest_centre(scene.image, detector)
            if cut_out_looks_right(corners, scene.cards[0].corners):
                break
        taken.add(scene.image, code, corners)
    return taken


def collect(out: Path, scenes: int, families: tuple[str, ...], before: Path | None = None,
            joint: JointSettings | None = None) -> None:
    """`before`: where to keep, from the same enrolments and scenes, what the pipeline made
    with the joint detector's growth of cut finds off (vision/outline.py): the network
    runs once a scene, and a scene where no find grows is read once. `joint`: the joint
    detector's settings (its shipped ones by default)."""
    embedder = OnnxEmbedder(DEFAULT_MODEL, 1)
    stores: dict[bool, dict[str, np.ndarray]] = {True: {}, False: {}}
    ungrown = JointCardDetector(settings=replace(joint or JointSettings(), grow_least=float("inf")))
    for family in families:
        for game in GAMES:
            key = f"{family}.{game}"
            table = family_table(family, game, SEED, 0)
            taken = enrollment(family, game, table.enrolled, SEED)
            recognizer = CardRecognizer(JointCardDetector(settings=joint), GalleryIdentifier(taken.profile(embedder).gallery, embedder))
            detector = recognizer.detector
            assert isinstance(detector, JointCardDetector)
            faces, rng = dealer(family, game, SEED), random.Random(f"ident-world:{family}:{game}:{SEED}")
            kept: dict[bool, dict[str, list]] = {grow: {} for grow in (True, False)}
            for layout in LAYOUTS:
                for _ in range(scenes):
                    # (the family named is not drawn: `faces` deals the cards)
                    scene = world_scene(rng, (1280, 720), TRAIN_TABLES, ("pips",), layout, card_px=(60, 400), faces=faces)
                    view = detector.network_view(scene.image)
                    sure, doubted = detector.sure_and_doubted(scene.image, view)
                    # every find, the doubted ones too: a doubted find is dropped only where it is not named
                    results = recognizer._read(scene.image, sure + doubted)
                    _keep(kept[True], scene, layout, results, len(sure))
                    if before is not None:
                        sure_off, doubted_off = ungrown.sure_and_doubted(scene.image, view)
                        same = len(sure_off) == len(sure) and all(np.array_equal(a.corners, b.corners) for a, b in zip(sure_off, sure))
                        _keep(kept[False], scene, layout, results if same else recognizer._read(scene.image, sure_off + doubted_off),
                              len(sure_off))
            for grow in (True, False) if before is not None else (True,):
                stores[grow] |= {f"{key}.{name}": np.stack(values) if name in STACKED else np.array(values)
                                 for name, values in kept[grow].items()}
                stores[grow] |= {f"{key}.shots": np.stack(taken.cards), f"{key}.codes": np.array(taken.codes),
                                 f"{key}.enrolled": np.array(sorted(table.enrolled))}
            print(key, len(kept[True]["cuts"]), file=sys.stderr)
    np.savez_compressed(out, **stores[True])
    if before is not None:
        np.savez_compressed(before, **stores[False])


STACKED = ("cuts", "truths", "corners", "outlines", "seen")


def _keep(kept: dict[str, list], scene, layout: str, results: list, sure: int) -> None:
    """For every whole card of `scene` the pipeline found (`results`, the first `sure` of
    them from the detector's sure cards): its cut-out where the pipeline left it and at
    its true outline, what was said of it, its size, outlines and the mask of what is seen."""
    whole = scene.whole()
    cut = CardCutter(scene.image, READ_SIZE)
    for p, t in match_by_centre([r.corners for r in results],
                                [TruthCard(c.code, tuple(c.outline.mean(axis=0))) for c in whole]).pairs:
        mask = np.repeat(whole[t].visible.astype(np.uint8)[..., None] * 255, 3, axis=2)
        for name, value in (("cuts", cut(results[p].corners)), ("truths", cut(whole[t].outline)),
                            ("truth", whole[t].code), ("said", results[p].reading.code or ""),
                            ("sizes", float(side_lengths(whole[t].outline).max())), ("layouts", layout),
                            ("corners", results[p].corners.astype(np.float32)), ("outlines", whole[t].outline),
                            ("shares", whole[t].share), ("doubted", p >= sure),
                            ("seen", CardCutter(mask, READ_SIZE)(whole[t].outline)[..., 0])):
            kept.setdefault(name, []).append(value)


def score(path: Path, which: str) -> dict:
    embedder = OnnxEmbedder(DEFAULT_MODEL, 1)
    data = np.load(path)
    keys = sorted({k.rsplit(".", 1)[0] for k in data.files})
    total: Counter = Counter()
    refused: Counter = Counter()
    by_outline: dict[str, Counter] = {band: Counter() for band in OFF_BANDS}
    report: dict = {}
    for key in keys:
        gallery, _ = calibrate(list(data[f"{key}.shots"]), [str(c) for c in data[f"{key}.codes"]], embedder)
        identifier = GalleryIdentifier(gallery, embedder)
        checked = checked_by_print(identifier, key.split(".")[1])
        enrolled = {str(c) for c in data[f"{key}.enrolled"]}
        counts: Counter = Counter()
        cards = list(data[f"{key}.{which}"])
        readings = checked.identify_many(cards)
        for reading, code, size, card, off, iou in zip(readings, data[f"{key}.truth"], data[f"{key}.sizes"], cards,
                                                       _outline_errors(data, key), _outline_ious(data, key)):
            code = str(code)
            band = "<100" if size < 100 else "<150" if size < 150 else "<250" if size < 250 else ">=250"
            if code in enrolled:
                counts["enrolled"] += 1
                counts["outline_iou_0.9"] += int(iou >= 0.9)
                counts[f"enrolled{band}"] += 1
                outcome = "right" if reading.code == code else "null" if reading.code is None else "wrong"
                counts[outcome] += 1
                counts[f"{outcome}{band}"] += 1
                by_outline[OFF_BANDS[int(np.searchsorted(OFF_EDGES, off, side="right"))]][outcome] += 1
                if outcome == "null" and reading.candidates and reading.candidates[0].code == code:
                    counts["null_ranked_first"] += 1
                    refused[_why(identifier, card)] += 1
            else:
                counts["left_out"] += 1
                counts["left_out_null" if reading.code is None else "wrong"] += 1
        report[key] = dict(counts)
        total += counts
    named = {band: f"{total['right' + band]}/{total['enrolled' + band]}" for band in ("<100", "<150", "<250", ">=250")}
    report["all"] = dict(total) | {"named": round(total["right"] / max(1, total["enrolled"]), 4), "by_size": named,
                                   "outline_iou_0.9_share": round(total["outline_iou_0.9"] / max(1, total["enrolled"]), 4),
                                   "refused_right_first_by": dict(refused),
                                   "named_by_outline_error": {band: f"{c['right']}/{sum(c.values())}"
                                                              for band, c in by_outline.items() if c}}
    return report


OFF_EDGES = (0.02, 0.05, 0.1)  # the pipeline's outline off the true one (its farthest corner over the short side)
OFF_BANDS = ("<0.02", "<0.05", "<0.1", ">=0.1")


def _outline_errors(data, key: str) -> np.ndarray:
    """Per kept card, how far the pipeline's outline lies from the true one: its
    farthest corner from every true corner, over the card's short side (NaN in a file
    collected before the outlines were kept, counted in the last band)."""
    if f"{key}.corners" not in data.files:
        return np.full(len(data[f"{key}.truth"]), np.nan)
    found, true = data[f"{key}.corners"], data[f"{key}.outlines"]
    far = np.linalg.norm(found[:, :, None] - true[:, None], axis=3).min(axis=2).max(axis=1)
    return far / np.stack([side_lengths(t).min() for t in true])


def _outline_ious(data, key: str) -> list[float]:
    """Per kept card, the IoU of the pipeline's outline and the true one (NaN where the
    file holds no outlines)."""
    if f"{key}.corners" not in data.files:
        return [float("nan")] * len(data[f"{key}.truth"])
    return [outline_iou(found, true) for found, true in zip(data[f"{key}.corners"], data[f"{key}.outlines"])]


def _why(identifier: GalleryIdentifier, card: np.ndarray) -> str:
    """Which open-set tests a card whose first-ranked code is right fails."""
    from vision.chroma import colour_cells
    from vision.identify import halved
    from vision.template import details, templates

    g = identifier.gallery
    cards = halved([card])
    sims = g.similarities(identifier.embedder.embed(cards), templates(cards))[0]
    ranking = g.ranked(sims, details(cards)[0], colour_cells(cards)[0])
    n = len(g.codes)
    failed = []
    if ranking.similarity[0] < g.threshold:
        failed.append("similarity")
    if ranking.colour < g.min_colours[ranking.columns[0] % n]:
        failed.append("colour")
    min_consistency, min_fine = g.cuts(ranking.level)
    if ranking.consistency < min_consistency and g.fine(ranking) < min_fine:
        failed.append("print")
    assert margin(ranking, g) < 0 or not failed
    return "+".join(failed) or "none"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("step", choices=("collect", "score"))
    parser.add_argument("path", type=Path)
    parser.add_argument("--scenes", type=int, default=2, help="scenes per layout, family and game (collect)")
    parser.add_argument("--families", default=",".join(TRAINING))
    parser.add_argument("--before", type=Path, help="collect: also keep here what the pipeline made without "
                        "the growth of cut finds (vision/outline.py), from the same scenes")
    parser.add_argument("--joint", default="{}", help="collect: JSON of JointSettings fields")
    parser.add_argument("--cuts", default="cuts", choices=("cuts", "truths"),
                        help="score the pipeline's cut-outs or the cut-outs at the true outlines")
    args = parser.parse_args()
    if args.step == "collect":
        collect(args.path, args.scenes, tuple(args.families.split(",")), args.before, JointSettings(**json.loads(args.joint)))
    else:
        print(json.dumps(score(args.path, args.cuts), indent=1))


if __name__ == "__main__":
    main()
