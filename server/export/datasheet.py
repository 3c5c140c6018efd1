"""``datasheet.md``: what is in an export, how it was collected and how it was made.

The counts are gathered while records stream by (``DatasetStats.add``); the text is
rendered at the end. Nothing here depends on the time of the export, so the datasheet is
byte-identical when the same data is exported twice with the same seed.
"""

from __future__ import annotations

import platform
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from server.dialog.protocol import EMOTIONS
from server.export.retrieval import NUM_CANDIDATES, SplitCounts
from server.export.schema import SCHEMA_VERSION, SPLITS

PHASES = ("questioner_before_reveal", "questioner_after_reveal", "answerer")


@dataclass
class DatasetStats:
    dialogs: Counter[str] = field(default_factory=Counter)  # split -> dialogs
    incomplete: Counter[str] = field(default_factory=Counter)  # split -> incomplete dialogs
    images: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    emotions: dict[tuple[str, str], Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    changed_after_reveal: int = 0
    both_answers: int = 0
    rounds: int = 0
    genres: Counter[str] = field(default_factory=Counter)
    verdicts: Counter[str] = field(default_factory=Counter)
    settings: Counter[str] = field(default_factory=Counter)
    workers: set[str] = field(default_factory=set)

    def add(self, record: dict[str, Any]) -> None:
        split = record["split"]
        self.dialogs[split] += 1
        if not record["complete"]:
            self.incomplete[split] += 1
        self.images[split].add(record["stimulus"]["image_sha256"])
        self.rounds += len(record["rounds"])
        self.genres[record["stimulus"]["genre"] or "(none)"] += 1
        self.verdicts[record["qc"]["verdict"] if record["qc"] else "(no QC verdict)"] += 1
        self.settings[_settings_text(record["collection"]["settings"])] += 1
        self.workers.add(record["questioner"]["worker_id"])
        self.workers.add(record["answerer"]["worker_id"])
        before = record["questioner"]["before_reveal"]
        after = record["questioner"]["after_reveal"]
        answerer = record["answerer"]["response"]
        for phase, response in zip(PHASES, (before, after, answerer), strict=True):
            self.emotions[(split, phase)][response["emotion"] if response else "(missing)"] += 1
        if before and after:
            self.both_answers += 1
            self.changed_after_reveal += before["emotion"] != after["emotion"]


def _settings_text(settings: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(settings.items())) or "(none recorded)"


def _table(header: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


PROTOCOL_SUMMARY = """\
Two crowd workers are paired live and given different roles. The **answerer** sees an
artwork together with two short opinions about it written by earlier viewers: one naming a
positive emotion and one naming a negative emotion. The **questioner** sees only the two
opinions (in the order recorded as `shown_first`), never the picture, and asks about it.
The server enforces ten strictly alternating rounds (a question, then its answer) with a
time limit on every turn. After the last answer, and still without the picture, the
questioner chooses one of nine emotions (amusement, awe, contentment, excitement, anger,
disgust, fear, sadness, something else) and explains the choice. The picture is then
shown to the questioner, who chooses an emotion and explains it a second time; the
answerer also chooses an emotion and explains it. Workers agree to a consent text first.
Dialogs end early when a worker leaves, runs out of time or stays disconnected too long;
such dialogs are marked incomplete and appear only in exports made with `--status all`."""


def render(
    *,
    stats: DatasetStats,
    study: str,
    command: str,
    status: str,
    since: str | None,
    seed: int,
    ratios: tuple[float, float, float],
    excluded: dict[str, int],
    retrieval: dict[str, SplitCounts] | None,
    images_mode: str,
    missing_images: list[str],
    versions: dict[str, str],
) -> str:
    total = sum(stats.dialogs.values())
    parts = [
        f"# Datasheet: affective visual dialogs, study `{study}`",
        "",
        f"Record schema version {SCHEMA_VERSION} (see `docs/export.md`). {total} dialogs, "
        f"{stats.rounds} rounds, {len(stats.workers)} distinct (pseudonymous) workers.",
        "",
        "## Selection",
        "",
        f"- status: `{status}`" + (f", dialogs that ended at or after {since}" if since else ""),
        "- only final dialogs are exported; the export reads one consistent database snapshot",
        "",
        "Dialogs of the study that were left out, by reason:",
        "",
        _table(["reason", "dialogs"], [[k, v] for k, v in excluded.items()]) if excluded else "None.",
        "",
        "## Splits",
        "",
        f"Grouped by image (no image is in two splits), stratified by the questioner's emotion "
        f"after the reveal; target ratios train/val/test = {ratios[0]:g}/{ratios[1]:g}/{ratios[2]:g}, "
        f"seed {seed}.",
        "",
        _table(
            ["split", "dialogs", "share", "images", "incomplete"],
            [
                [
                    s,
                    stats.dialogs[s],
                    _pct(stats.dialogs[s], total),
                    len(stats.images[s]),
                    stats.incomplete[s],
                ]
                for s in SPLITS
            ],
        ),
        "",
        "## Emotions",
        "",
    ]
    for phase in PHASES:
        title = phase.replace("_", " ")
        all_counts: Counter[str] = Counter()
        for split in SPLITS:
            all_counts.update(stats.emotions[(split, phase)])
        names = [e for e in EMOTIONS if all_counts[e]] + sorted(k for k in all_counts if k not in EMOTIONS)
        rows = [
            [name, all_counts[name], _pct(all_counts[name], total)]
            + [_pct(stats.emotions[(s, phase)][name], stats.dialogs[s]) for s in SPLITS]
            for name in names
        ]
        parts += [f"### {title}", "", _table(["emotion", "dialogs", "all", *SPLITS], rows), ""]
    changed = stats.changed_after_reveal
    parts += [
        f"The questioner changed emotion after seeing the image in {changed} of "
        f"{stats.both_answers} dialogs with both answers ({_pct(changed, stats.both_answers)}).",
        "",
        "## Genres and quality control",
        "",
        _table(["genre", "dialogs"], [[k, v] for k, v in sorted(stats.genres.items())]),
        "",
        _table(["QC verdict", "dialogs"], [[k, v] for k, v in sorted(stats.verdicts.items())]),
        "",
        "## Answer retrieval",
        "",
    ]
    if retrieval is None:
        parts += ["Not generated for this export.", ""]
    else:
        parts += [
            f"`retrieval/<split>.json` (VisDial v1.0 layout): {NUM_CANDIDATES} candidate answers per "
            "answered round, drawn with the seed from other dialogs of the same split.",
            "",
            _table(
                ["split", "dialogs", "rounds", "distinct answers", "rounds with < 100 candidates"],
                [[s, c.dialogs, c.rounds, c.answers, c.short_rounds] for s, c in retrieval.items()],
            ),
            "",
        ]
    parts += [
        "## Images",
        "",
        (
            "Copied to `images/`, named by the SHA-256 of their bytes."
            if images_mode == "copy"
            else "Listed in `images.jsonl` (not copied)."
        )
        + (
            f" {len(missing_images)} missing from the media store: {', '.join(missing_images)}."
            if missing_images
            else ""
        ),
        "",
        "## Collection protocol",
        "",
        PROTOCOL_SUMMARY,
        "",
        "Protocol settings recorded with the dialogs:",
        "",
        _table(["settings", "dialogs"], [[k, v] for k, v in sorted(stats.settings.items())]),
        "",
        "## Privacy",
        "",
        "Worker ids are pseudonyms (keyed SHA-256 of the internal id with the study secret); "
        "crowd-platform ids are never exported. Chat text and explanations are published as written.",
        "",
        "## How this export was made",
        "",
        f"    {command}",
        "",
        _table(["component", "version"], [[k, v] for k, v in sorted(versions.items())]),
        "",
    ]
    return "\n".join(parts)


def versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": platform.python_version(), "schema": SCHEMA_VERSION}
    for name in ("avd", "numpy", "sqlalchemy", "textblob"):
        try:
            out[name] = version(name)
        except PackageNotFoundError:  # pragma: no cover
            out[name] = "not installed"
    return out
