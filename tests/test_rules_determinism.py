"""Rule verdicts must not depend on the process: every server process (each with its own
PYTHONHASHSEED) has to judge a message the same way, and QC must agree with the live chat."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# A pair whose soft overlap once depended on the order of iterating a set of strings.
CODE = """
from server.rules import text as T
from server.rules.overlap import question_terms, soft_shared
mine = question_terms(T.normalise("Any other person with her?"))[0]
theirs = question_terms(T.normalise("is the boy the man's son or an apprentice?"))[0]
print(soft_shared(mine, theirs))
"""


def test_soft_overlap_is_the_same_under_every_hash_seed() -> None:
    results = set()
    for seed in range(6):  # seed 4 gave 2 and the others 1 before terms were matched in sorted order
        env = {**os.environ, "PYTHONHASHSEED": str(seed), "PYTHONPATH": str(ROOT)}
        done = subprocess.run(
            [sys.executable, "-c", CODE], env=env, capture_output=True, text=True, check=True, timeout=120
        )
        results.add(done.stdout.strip())
    assert len(results) == 1, results


# The text classifiers' log-odds of labelled answers, to the last bit: features were once listed from
# a set of strings ("L:s", "L:o"), so the order their weights were summed in followed the hash seed.
LOGITS = """
import hashlib, json
from server.rules import text as T
from server.rules.learned import default_model
model = default_model()
lines = (ROOT / "tasks/rules-eval/heldout_batch18.jsonl").read_text(encoding="utf-8").splitlines()
out = []
for line in lines:
    record = json.loads(line)
    words = T.words(T.normalise(record["text"]))
    out.append(repr(model._text_logits(record["role"], record["text"], words, 0.1, ())))
print(hashlib.sha256("\\n".join(out).encode()).hexdigest())
"""


def test_text_logits_are_the_same_under_every_hash_seed() -> None:
    code = f"from pathlib import Path\nROOT = Path({str(ROOT)!r})\n" + LOGITS
    results = set()
    for seed in range(4):  # seeds 0, 1 and 3 gave three different sums before the features were sorted
        env = {**os.environ, "PYTHONHASHSEED": str(seed), "PYTHONPATH": str(ROOT)}
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, timeout=300
        )
        results.add(done.stdout.strip())
    assert len(results) == 1, results
