"""``cubilete replay FILE --plot OUT --review``: the chart of everyone's chance to win and the decisions
judged by the chance to win they gave up."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cubilete.cli import main
from cubilete.engine import record
from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules
from cubilete.play.bots import make_bot
from cubilete.play.win_review import chance_timeline, win_review, win_review_lines

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Game]:
    """A whole Generala game: the win bot ("Wendy") against the greedy bot ("Gus")."""
    game = Game(find_rules("generala"), ["Wendy", "Gus"], seed="plot-7")
    bots = {0: make_bot("bot:win", 1), 1: make_bot("bot:greedy", 1)}
    while not game.is_over:
        game.apply(bots[game.state.current].choose(game))
    path = tmp_path_factory.mktemp("replay") / "game.json"
    record.save(game, path)
    return path, game


def test_the_timeline_starts_even_ends_with_the_winner_and_every_row_sums_to_one(saved: tuple[Path, Game]) -> None:
    _path, game = saved
    line = chance_timeline(game)
    assert not line.exact and line.players == ("Wendy", "Gus")  # exact only from a two-player table (none here)
    # nobody has thrown: nearly even; the mover is valued playing to win with an optimistic look at later
    # turns (the hint's model, win/play.py), a few points above the points-model's 0.50
    assert line.chances[0][0] == pytest.approx(0.5, abs=0.06)
    for row in line.chances:
        assert sum(row) == pytest.approx(1.0, abs=1e-9)
    winners = game.state.winners
    assert line.chances[-1] == tuple((1.0 / len(winners)) if i in winners else 0.0 for i in range(2))
    assert list(line.turns) == sorted(line.turns) and line.turns[0] == 0


def test_the_win_bot_gives_up_no_chance_and_the_greedy_bot_some(saved: tuple[Path, Game]) -> None:
    _path, game = saved
    review = win_review(game, game.players)
    assert review is not None
    assert not review.exact  # judged by the estimated chances (no two-player table here)
    assert win_review_lines(review)[0].startswith("Chance to win given up (estimated;")
    assert review.total["Wendy"] == pytest.approx(0.0, abs=1e-9)  # it plays the best choice to win every time
    assert review.total["Gus"] > 0.0
    assert all(0.0 <= d.win_loss <= 1.0 for d in review.decisions)


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_replay_plot_writes_a_valid_chart_and_lists_the_chance_given_up(
    saved: tuple[Path, Game], tmp_path: Path, suffix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _game = saved
    out = tmp_path / f"chances{suffix}"
    assert main(["replay", str(path), "--plot", str(out), "--review"]) == 0
    printed = capsys.readouterr().out
    assert "Chance to win given up" in printed and "Gus:" in printed and "Wendy: 0.0 points" in printed
    data = out.read_bytes()
    if suffix == ".png":
        assert data.startswith(PNG_MAGIC)
    else:
        root = ET.fromstring(data)
        assert root.tag.endswith("svg")
        assert b"Wendy" in data or b"<path" in data


def test_replay_plot_refuses_another_format(saved: tuple[Path, Game], tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path, _game = saved
    assert main(["replay", str(path), "--plot", str(tmp_path / "chart.jpg")]) == 2
    assert ".png or .svg" in capsys.readouterr().err
    assert not (tmp_path / "chart.jpg").exists()


def test_one_player_has_no_review_by_chance_to_win(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game(find_rules("generala"), ["Solo"], seed=1)
    bot = make_bot("bot:greedy", 1)
    while not game.is_over:
        game.apply(bot.choose(game))
    path = tmp_path / "solo.json"
    record.save(game, path)
    assert main(["replay", str(path), "--review"]) == 0
    assert "No review by chance to win" in capsys.readouterr().out
