"""Agreement of two annotators (server/rules/agreement.py and ``avd rules agreement``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from server.rules import agreement as ag
from server.settings import REPO_ROOT


def _write(path: Path, rows: list[tuple[str, list[str]]]) -> Path:
    path.write_text(
        "".join(json.dumps({"role": "questioner", "text": t, "labels": labels}) + "\n" for t, labels in rows)
    )
    return path


def test_counts_and_kappa_by_hand(tmp_path: Path) -> None:
    # greeting: first marks lines 1-2, second only line 1 -> observed 3/4, chance 1/2, kappa 0.5
    first = _write(
        tmp_path / "a.jsonl",
        [("Hi!", ["greeting"]), ("Hello there", ["greeting"]), ("Is it red?", []), ("Red?", [])],
    )
    second = _write(
        tmp_path / "b.jsonl", [("Hi!", ["greeting"]), ("Hello there", []), ("Is it red?", []), ("Red?", [])]
    )
    result = ag.compare(ag.load_labels(first), ag.load_labels(second))
    assert (result.lines, result.exact) == (4, 3)
    greeting = next(r for r in result.rules if r.rule == "greeting")
    assert (greeting.first, greeting.second, greeting.both) == (2, 1, 1)
    assert greeting.precision == 1.0 and greeting.recall == 0.5
    assert greeting.kappa == pytest.approx(0.5)
    unused = next(r for r in result.rules if r.rule == "offensive")
    assert unused.kappa is None and unused.precision is None
    assert "| `greeting` | 2 | 1 | 1 | 1.00 | 0.50 | 0.50 |" in ag.render(result)
    assert "`offensive`" not in ag.render(result)  # a rule neither used is left out


def test_full_agreement_is_kappa_one_even_when_one_column_is_constant() -> None:
    assert ag.kappa([True, True], [True, True]) == 1.0
    assert ag.kappa([False, True, False], [False, True, False]) == 1.0


@pytest.mark.parametrize(
    ("second_rows", "message"),
    [
        ([("Hi!", [])], "hold 2 and 1 lines"),
        ([("Hi!", []), ("Something else", [])], "line 2: the texts differ"),
        ([("Hi!", ["greetings"]), ("Is it red?", [])], "b.jsonl:1: unknown label 'greetings'"),
    ],
)
def test_bad_input_names_the_problem(tmp_path: Path, second_rows, message: str) -> None:
    first = _write(tmp_path / "a.jsonl", [("Hi!", ["greeting"]), ("Is it red?", [])])
    second = _write(tmp_path / "b.jsonl", second_rows)
    with pytest.raises(ValueError, match=message):
        ag.compare(ag.load_labels(first), ag.load_labels(second))


def test_cli_on_the_shipped_second_annotation(tmp_path: Path) -> None:
    """The committed relabelling of batch 15 lines up with the batch; a broken file exits 2."""
    gold = REPO_ROOT / "tasks" / "rules-eval" / "heldout_batch15.jsonl"
    second = REPO_ROOT / "tasks" / "rules-eval" / "second-annotator" / "heldout_batch15.jsonl"
    cmd = [sys.executable, "-m", "server.cli", "rules", "agreement", str(gold), str(second), "--json"]
    out = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=REPO_ROOT).stdout)
    assert out["lines"] == sum(1 for line in gold.read_text().splitlines() if line.strip())
    pairs = zip(gold.read_text().splitlines(), second.read_text().splitlines(), strict=True)
    same = sum(set(json.loads(a)["labels"]) == set(json.loads(b)["labels"]) for a, b in pairs)
    assert out["exact"] == same and same < out["lines"]  # a real second opinion, not a copy
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "x"}\n')
    failed = subprocess.run([*cmd[:5], str(gold), str(bad)], capture_output=True, text=True, cwd=REPO_ROOT)
    assert failed.returncode == 2 and "Cannot compare" in failed.stderr
