"""Retrieval files are read piece by piece: same rounds as parsing the whole document, at any
chunk size, in any key order, without reading far ahead."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.evaluation.data import ExportData, RetrievalRound, iter_retrieval_rounds, read_retrieval
from server.evaluation.jsonstream import JsonStream
from server.evaluation.synthetic import synthetic_records, write_synthetic_export

# any JSON value, with strings full of the characters a naive scanner trips on
_text = st.text(alphabet=st.sampled_from(list('ab"\\/[]{},: \n\té😀\u2028')), max_size=12)
_scalar = (
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | _text
)
_json = st.recursive(
    _scalar,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(_text, inner, max_size=5),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(doc=_json, chunk=st.integers(1, 9), indent=st.sampled_from([None, 1]))
def test_stream_reads_what_json_loads_reads(doc, chunk, indent):
    text = json.dumps(doc, indent=indent, ensure_ascii=bool(chunk % 2))
    stream = JsonStream(io.StringIO(text), chunk=chunk)
    assert stream.read() == json.loads(text)
    stream.end()
    skipped = JsonStream(io.StringIO(text + " \n"), chunk=chunk)
    skipped.skip()
    skipped.end()  # skip consumed exactly one value


def test_numbers_cut_by_a_chunk_are_read_whole():
    text = "[12.5e3, -7, 100000, 0.25, true, null, 31]"
    for chunk in range(1, len(text) + 1):
        assert JsonStream(io.StringIO(text), chunk=chunk).read() == json.loads(text)


@pytest.mark.parametrize("bad", ['{"data": {"answers": ["a", "b"', '{"data": [1, 2,]}', '{"a": 1} {"b": 2}'])
def test_broken_documents_are_reported(bad: str):
    with pytest.raises(ValueError, match=r"at character \d+"):
        stream = JsonStream(io.StringIO(bad), chunk=4, name="x.json")
        stream.read()
        stream.end()


def _whole(path: Path) -> list[RetrievalRound]:
    """The reference: parse the whole document, as the reader used to."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    answers = doc["data"]["answers"]
    return [
        RetrievalRound(
            e["dialog_id"], int(i["round"]), tuple(answers[k] for k in i["answer_options"]), i["gt_index"]
        )
        for e in doc["data"]["dialogs"]
        for i in e["dialog"]
    ]


def _exporter_files(tmp_path: Path) -> Path:
    """Retrieval files written by the exporter's own builder (pools first, one dialog a line)."""
    from server.export.retrieval import RetrievalBuilder

    tmp_path.mkdir(parents=True, exist_ok=True)
    builder = RetrievalBuilder(tmp_path, seed=4)
    for rec in synthetic_records(120, seed=4):
        builder.add(rec)
    builder.write(tmp_path / "retrieval")
    return tmp_path / "retrieval"


@pytest.mark.parametrize("chunk", [3, 64, 1 << 20])
def test_same_rounds_as_the_whole_document(tmp_path: Path, chunk: int):
    synthetic = write_synthetic_export(tmp_path / "synthetic", n_dialogs=40, seed=2) / "retrieval"
    for folder in (synthetic, _exporter_files(tmp_path / "export")):
        for split in ("train", "val", "test"):
            path = folder / f"{split}.json"
            expected = _whole(path)
            assert expected and list(read_retrieval(path, chunk=chunk)) == expected


def test_dialogs_listed_before_the_answer_pool(tmp_path: Path):
    export = write_synthetic_export(tmp_path / "e", n_dialogs=30, seed=1)
    path = export / "retrieval" / "test.json"
    doc = json.loads(path.read_text())
    data = doc.pop("data")
    reordered = {
        "header": {"nested": [1, {"x": None}]},
        "data": {"questions": data["questions"], "dialogs": data["dialogs"], "answers": data["answers"]},
    }
    other = tmp_path / "reordered.json"
    other.write_text(json.dumps(reordered, indent=2))
    assert list(read_retrieval(other, chunk=100)) == _whole(path)
    assert list(ExportData.load(export).retrieval("test")) == _whole(path)


def test_the_first_round_comes_before_the_file_is_read(tmp_path: Path):
    """A large split: the first rounds are served after reading a small part of the file."""
    rng = random.Random(0)
    answers = [f"answer number {i} about the {rng.choice(['sky', 'sea', 'trees'])}" for i in range(5000)]
    dialogs = [
        {
            "dialog_id": f"d{d}",
            "dialog": [
                {
                    "round": r + 1,
                    "gt_index": rng.randrange(100),
                    "answer_options": rng.sample(range(5000), 100),
                }
                for r in range(10)
            ],
        }
        for d in range(1500)
    ]
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"data": {"answers": answers, "dialogs": dialogs}}))
    size = path.stat().st_size
    assert size > 5_000_000
    with path.open(encoding="utf-8") as fh:
        rounds = iter_retrieval_rounds(fh, chunk=1 << 16)
        first = [next(rounds) for _ in range(20)]
        assert fh.buffer.tell() < size // 10  # read: the answer pool and a little more
        assert first[0].candidates == tuple(answers[k] for k in dialogs[0]["dialog"][0]["answer_options"])
        assert sum(1 for _ in rounds) + 20 == 15_000
