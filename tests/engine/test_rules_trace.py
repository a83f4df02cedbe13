"""docs/RULES-TRACE.md maps every sentence of the seed documents and every RULES.md parameter to tests.

Checked here: every test id listed exists (file, class, function; a golden case's number exists in its
file; a golden record's name exists), every rule sentence and every parameter has at least one test, the
parameters are exactly RULES.md's, and, when the seed files are at hand, the sentences are exactly the
seeds' (none missing, none changed, in order).
"""

from __future__ import annotations

import ast
import functools
import json
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TRACE = ROOT / "docs" / "RULES-TRACE.md"
# The project's shared documents sit beside the clone (as on the developers' machines and in CI).
SEEDS = Path(os.environ.get("CUBILETE_SEEDS", ROOT.parent / "shared" / "seeds"))
ROW = re.compile(r"^\| (S[123])\.(\d+) \| (.+?) \| (.+) \|$")
PARAM_ROW = re.compile(r"^\| P(\d+) \| (.+?) \| (.+) \|$")
NODE = re.compile(r"`([^`]+)`")


def sentences(text: str) -> list[str]:
    """The sentences of a seed text: each line, split after . ! ? (spaces normalised)."""
    out = []
    for para in text.splitlines():
        para = " ".join(para.split())
        if para:
            out += [s.strip() for s in re.split(r"(?<=[.!?])\s+(?=[^\s\d])", para) if s.strip()]
    return out


def trace_rows() -> dict[str, list[tuple[int, str, str]]]:
    rows: dict[str, list[tuple[int, str, str]]] = {"S1": [], "S2": [], "S3": []}
    for line in TRACE.read_text(encoding="utf-8").splitlines():
        m = ROW.match(line)
        if m:
            rows[m.group(1)].append((int(m.group(2)), m.group(3), m.group(4)))
    return rows


def param_rows() -> dict[int, str]:
    lines = TRACE.read_text("utf-8").splitlines()
    return {int(m.group(1)): m.group(3) for line in lines if (m := PARAM_ROW.match(line))}


@functools.cache
def _defined(path: str) -> set[str]:
    """``Class::function`` and ``function`` names of the tests defined in a test file."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names |= {f"{node.name}::{f.name}" for f in node.body if isinstance(f, ast.FunctionDef)}
    return names


def node_problem(node: str) -> str | None:
    """Why a pytest node id does not name a test of this repository (None when it does)."""
    path, _, rest = node.partition("::")
    if not (ROOT / path).is_file():
        return f"{node}: no file {path}"
    name, _, param = rest.partition("[")
    if name not in _defined(path):
        return f"{node}: no test {name} in {path}"
    param = param.rstrip("]")
    if name == "test_golden_case":
        stem, _, number = param.rpartition("-")
        file = ROOT / "tests" / "golden" / f"{stem}.json"
        if not file.is_file() or not number.isdigit():
            return f"{node}: no golden file {stem}.json"
        if not 1 <= int(number) <= len(json.loads(file.read_text("utf-8"))):
            return f"{node}: {stem}.json has no case {number}"
    if name == "test_golden_record_replays_to_its_result":
        names = [r["name"] for r in json.loads((ROOT / "tests" / "golden" / "records.json").read_text("utf-8"))]
        if param not in names:
            return f"{node}: no golden record {param!r}"
    return None


def test_every_listed_test_exists() -> None:
    nodes = [n for rows in trace_rows().values() for _, _, cell in rows for n in NODE.findall(cell)]
    nodes += [n for cell in param_rows().values() for n in NODE.findall(cell)]
    assert len(nodes) > 200
    problems = [p for n in sorted(set(nodes)) if (p := node_problem(n))]
    assert not problems, problems


def test_the_check_finds_a_missing_test() -> None:
    assert node_problem("tests/engine/test_game.py::TestStart::test_no_such_test") is not None
    assert node_problem("tests/engine/test_golden.py::test_golden_case[generala-999]") is not None
    assert node_problem("tests/engine/test_game.py::TestStart::test_counter_clockwise") is None


@pytest.mark.parametrize("seed", ["S1", "S2", "S3"])
def test_every_rule_sentence_has_a_test(seed: str) -> None:
    rows = trace_rows()[seed]
    assert [n for n, _, _ in rows] == list(range(1, len(rows) + 1)), "sentences numbered 1, 2, 3, ... in order"
    for number, sentence, cell in rows:
        if cell.startswith("— "):
            assert len(cell) > 4, f"{seed}.{number}: say why '{sentence}' states no rule"
        else:
            assert NODE.findall(cell), f"{seed}.{number}: no test for '{sentence}'"
    rules = [r for r in rows if not r[2].startswith("—")]
    assert len(rules) >= len(rows) // 2  # most sentences are rules


def test_every_parameter_of_rules_md_has_a_test() -> None:
    catalogue = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    listed = {int(n) for n in re.findall(r"^\| P(\d+) \|", catalogue, re.M)}
    params = param_rows()
    assert set(params) == listed == set(range(1, 19))
    assert all(NODE.findall(cell) for cell in params.values())


def test_the_deliberate_choices_are_stated() -> None:
    text = TRACE.read_text(encoding="utf-8")
    assert "## Deliberate choices where the seeds are ambiguous" in text
    assert "Three throws, not three re-throws" in text and 'What counts as "a second Generala"' in text


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed documents are not at hand ($CUBILETE_SEEDS)")
def test_the_sentences_are_exactly_the_seeds() -> None:
    files = sorted(SEEDS.glob("*.txt"))
    assert [f.name[:3] for f in files] == ["000", "002", "003"]
    rows = trace_rows()
    for seed, file in zip(("S1", "S2", "S3"), files, strict=True):
        assert [s for _, s, _ in rows[seed]] == sentences(file.read_text(encoding="utf-8")), seed
