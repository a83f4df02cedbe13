// Finished games, the leaderboard and a player's page.

import { api, el, link, when } from "./api.js";
import { apiErrorText, lang, num, pick, shownName, t } from "./i18n.js";
import { navigate } from "./nav.js";

function loading(root) {
  root.replaceChildren(el("p", { class: "loading" }, t("common.loading")));
}

function failure(root, exc) {
  root.replaceChildren(el("p", { class: "form-error", role: "alert" }, apiErrorText(exc)));
}

function presetTitle(presets, name, fallback) {
  const p = (presets || []).find((x) => x.name === name);
  return p ? pick(p.title, name) : pick(fallback, name);
}

function presetSelect(presets, selected, { all = false, testid = "preset", onchange }) {
  return el(
    "select",
    { "data-testid": testid, "aria-label": t("games.filter"), onchange: (ev) => onchange(ev.target.value) },
    all ? el("option", { value: "", selected: !selected }, t("games.all")) : null,
    presets.map((p) => el("option", { value: p.name, selected: p.name === selected }, pick(p.title, p.name))),
  );
}

/** One finished game as a card: rules, date, players with totals, winner marked. */
export function gameCard(game, presets) {
  const sheet = game.kind === "real-dice"; // a real-dice sheet: its dice were typed at a table
  const players = (game.players || []).map((p, i) =>
    el(
      "li",
      { class: `gp${p.winner ? " winner" : ""}`, "data-testid": `game-${game.id}-player-${i}` },
      p.winner ? el("span", { class: "crown", "aria-hidden": "true" }, "★") : null,
      p.bot || !p.pid
        ? el("span", { class: "gp-name" }, shownName(p.name))
        : link(`/p/${encodeURIComponent(p.pid)}`, p.name, { class: "gp-name" }),
      p.bot ? el("span", { class: "tag" }, t("games.bot")) : null,
      el("span", { class: "gp-total" }, String(p.total ?? "")),
    ),
  );
  return el(
    "li",
    { class: "game-card card", "data-testid": `game-${game.id}` },
    el(
      "div",
      { class: "game-head" },
      el("strong", {}, presetTitle(presets, game.preset, game.title)),
      el("span", { class: "muted" }, when(game.finished_at, lang())),
      game.ended === "abandoned" ? el("span", { class: "tag", "data-testid": "abandoned" }, t("games.abandoned")) : null,
      game.undos ? el("span", { class: "tag", "data-testid": "with-undo", title: t("games.undo.why") }, t("games.undo")) : null,
      sheet ? el("span", { class: "tag", "data-testid": "real-dice", title: t("games.realdice.why") }, t("games.realdice")) : null,
    ),
    el("ol", { class: "game-players" }, players),
    // a sheet opens as it was left at the table (the final sheet, the coach's review), its replay beside it
    sheet
      ? [
          link(`/sheet/${encodeURIComponent(game.id)}`, t("games.sheet"), { class: "btn small ghost" }), " ",
          link(`/replay/${encodeURIComponent(game.id)}?sheet=1`, t("games.replay"), { class: "btn small ghost" }),
        ]
      : link(`/replay/${encodeURIComponent(game.id)}`, t("games.replay"), { class: "btn small ghost" }),
  );
}

export function mountGames(root) {
  const params = new URLSearchParams(location.search);
  const data = { presets: [], games: null, preset: params.get("preset") || "", error: null };
  let alive = true;

  async function load() {
    data.games = null;
    render();
    try {
      const [presets, games] = await Promise.all([api.presets(), api.games(data.preset, 50)]);
      if (!alive) return;
      data.presets = presets;
      data.games = games;
    } catch (exc) {
      data.error = exc;
    }
    if (alive) render();
  }

  function render() {
    document.title = `${t("games.heading")} · ${t("app.title")}`;
    if (data.error) return failure(root, data.error);
    if (data.games === null) return loading(root);
    const filter = presetSelect(data.presets, data.preset, {
      all: true,
      onchange: (value) => {
        data.preset = value;
        navigate(value ? `/games?preset=${encodeURIComponent(value)}` : "/games", { replace: true });
      },
    });
    root.replaceChildren(
      el(
        "section",
        { class: "list-page" },
        el("div", { class: "page-head" }, el("h1", {}, t("games.heading")), filter),
        data.games.length
          ? el("ol", { class: "game-list", "data-testid": "games" }, data.games.map((g) => gameCard(g, data.presets)))
          : el("p", { class: "muted", "data-testid": "games-empty" }, t("common.none")),
      ),
    );
  }

  load();
  return { rerender: render, destroy: () => (alive = false) };
}

export function mountLeaderboard(root) {
  const params = new URLSearchParams(location.search);
  const data = { presets: null, rows: null, preset: params.get("preset") || "generala", error: null, ratings: null, sort: "rating" };
  let alive = true;

  async function load() {
    try {
      if (!data.presets) data.presets = await api.presets();
      // a house-rule table's name is no preset: keep it selectable so its board can be shown
      if (data.preset && !data.presets.some((p) => p.name === data.preset)) {
        data.presets = [...data.presets, { name: data.preset, title: data.preset, house: true }];
      }
      data.rows = null;
      render();
      const [rows, rated] = await Promise.all([
        api.leaderboard(data.preset),
        // house rules are not rated (the server would answer 404)
        data.presets.some((p) => p.name === data.preset && p.house) ? [] : api.ratings(data.preset, data.sort),
      ]);
      if (!alive) return;
      data.rows = rows;
      data.ratings = rated;
    } catch (exc) {
      data.error = exc;
    }
    if (alive) render();
  }

  function render() {
    document.title = `${t("board.heading")} · ${t("app.title")}`;
    if (data.error) return failure(root, data.error);
    if (!data.presets) return loading(root);
    const select = presetSelect(data.presets, data.preset, {
      onchange: (value) => {
        data.preset = value;
        history.replaceState(null, "", `/leaderboard?preset=${encodeURIComponent(value)}`);
        load();
      },
    });
    let body;
    if (data.rows === null) body = el("p", { class: "loading" }, t("common.loading"));
    else if (!data.rows.length) body = el("p", { class: "muted", "data-testid": "board-empty" }, t("common.none"));
    else {
      body = el("div", { class: "table-scroll" }, el(
        "table",
        { class: "board", "data-testid": "board" },
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            el("th", { scope: "col", class: "rank" }, "#"),
            el("th", { scope: "col" }, t("board.name")),
            el("th", { scope: "col", class: "n" }, t("board.games")),
            el("th", { scope: "col", class: "n" }, t("board.wins")),
            el("th", { scope: "col", class: "n" }, t("board.average")),
            el("th", { scope: "col", class: "n" }, t("board.best")),
          ),
        ),
        el(
          "tbody",
          {},
          data.rows.map((r, i) =>
            el(
              "tr",
              { "data-testid": `board-row-${i}` },
              el("td", { class: "rank" }, String(i + 1)),
              el("td", {}, link(`/p/${encodeURIComponent(r.pid)}`, r.name)),
              el("td", { class: "n" }, String(r.games)),
              el("td", { class: "n" }, String(r.wins)),
              el("td", { class: "n" }, num(r.average, 1)),
              el("td", { class: "n" }, String(r.best)),
            ),
          ),
        ),
      ));
    }
    root.replaceChildren(
      el(
        "section",
        { class: "list-page" },
        el("div", { class: "page-head" }, el("h1", {}, t("board.heading")), select),
        body,
        ratingsBoard(data, (sort) => {
          data.sort = sort;
          load();
        }),
      ),
    );
  }

  load();
  return { rerender: render, destroy: () => (alive = false) };
}

/** The two ratings of a preset (docs/RATINGS.md): results (mu - 3 sigma, with sigma) and loss per decision. */
function ratingsBoard(data, onSort) {
  const rows = data.ratings || [];
  const sort = el(
    "select",
    { "data-testid": "ratings-sort", "aria-label": t("ratings.sort"), onchange: (ev) => onSort(ev.target.value) },
    ["rating", "decision"].map((v) => el("option", { value: v, selected: data.sort === v }, t(`ratings.by.${v}`))),
  );
  return el(
    "section",
    { class: "ratings" },
    el("div", { class: "page-head" }, el("h2", {}, t("ratings.heading")), sort),
    el("p", { class: "muted" }, t("ratings.intro")),
    rows.length
      ? el(
          "div",
          { class: "table-scroll" },
          el(
            "table",
            { class: "board", "data-testid": "ratings" },
            el(
              "thead",
              {},
              el(
                "tr",
                {},
                el("th", { scope: "col" }, "#"),
                el("th", { scope: "col" }, t("board.name")),
                el("th", { scope: "col", class: "n" }, t("board.games")),
                el("th", { scope: "col", class: "n", title: t("ratings.rating.why") }, t("ratings.rating")),
                el("th", { scope: "col", class: "n", title: t("daily.loss.why") }, t("daily.loss")),
                el("th", { scope: "col" }, t("ratings.like")),
              ),
            ),
            el(
              "tbody",
              {},
              rows.map((r, i) =>
                el(
                  "tr",
                  { "data-testid": `rating-row-${i}` },
                  el("td", {}, String(i + 1)),
                  el("td", {}, link(`/p/${encodeURIComponent(r.pid)}`, r.name)),
                  el("td", { class: "n" }, String(r.games)),
                  el("td", { class: "n" }, `${num(r.rating, 1)} ± ${num(r.uncertainty, 1)}`),
                  el(
                    "td",
                    { class: "n" },
                    r.decision
                      ? `${num(r.decision.loss_per_decision, 3)} [${num(r.decision.ci[0], 3)}, ${num(r.decision.ci[1], 3)}]`
                      : "–",
                  ),
                  el("td", {}, r.decision && r.decision.plays_like ? t(`level.${r.decision.plays_like}`) : "–"),
                ),
              ),
            ),
          ),
        )
      : el("p", { class: "muted", "data-testid": "ratings-empty" }, t("common.none")),
  );
}

/** A small line of the rating after each ranked game (inline SVG: no library, nothing the CSP blocks). */
function ratingChart(history) {
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  const w = 240;
  const h = 48;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("class", "rating-chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("ratings.chart", { n: history.length }));
  const values = history.map((p) => p.rating);
  const lo = Math.min(...values, 0);
  const hi = Math.max(...values, lo + 1);
  const x = (i) => (values.length < 2 ? w / 2 : (i * (w - 8)) / (values.length - 1) + 4);
  const y = (v) => h - 4 - ((v - lo) * (h - 8)) / (hi - lo);
  const line = document.createElementNS(NS, "polyline");
  line.setAttribute("points", values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "));
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "currentColor");
  line.setAttribute("stroke-width", "2");
  svg.append(line);
  return svg;
}

export function mountPlayer(root, { pid }) {
  const data = { player: null, presets: [], error: null };
  let alive = true;

  Promise.all([api.player(pid), api.presets()])
    .then(([player, presets]) => {
      data.player = player;
      data.presets = presets;
    })
    .catch((exc) => {
      data.error = exc;
    })
    .finally(() => alive && render());

  function render() {
    if (data.error) return failure(root, data.error);
    if (!data.player) return loading(root);
    const p = data.player;
    const names = p.names || [];
    document.title = `${names[0] || p.pid} · ${t("app.title")}`;
    const stats = Object.entries(p.stats || {});
    root.replaceChildren(
      el(
        "section",
        { class: "list-page" },
        el("h1", { "data-testid": "player-name" }, t("player.heading", { name: names[0] || p.pid })),
        names.length > 1 ? el("p", { class: "muted" }, t("player.names", { names: names.slice(1).join(", ") })) : null,
        el("h2", {}, t("player.stats")),
        stats.length
          ? el("div", { class: "table-scroll" }, el(
              "table",
              { class: "board", "data-testid": "player-stats" },
              el(
                "thead",
                {},
                el(
                  "tr",
                  {},
                  el("th", { scope: "col" }, t("player.rules")),
                  el("th", { scope: "col", class: "n" }, t("board.games")),
                  el("th", { scope: "col", class: "n" }, t("board.wins")),
                  el("th", { scope: "col", class: "n" }, t("board.average")),
                  el("th", { scope: "col", class: "n" }, t("board.best")),
                ),
              ),
              el(
                "tbody",
                {},
                stats.map(([preset, s]) =>
                  el(
                    "tr",
                    {},
                    el("td", {}, presetTitle(data.presets, preset, preset)),
                    el(
                      "td",
                      { class: "n" },
                      String(s.games),
                      s.games_with_undo ? el("span", { class: "muted" }, ` ${t("player.undo", { n: s.games_with_undo })}`) : null,
                    ),
                    el("td", { class: "n" }, s.games ? String(s.wins) : "–"),
                    el("td", { class: "n" }, s.games ? num(s.average, 1) : "–"),
                    el("td", { class: "n" }, s.games ? String(s.best) : "–"),
                  ),
                ),
              ),
            ))
          : el("p", { class: "muted" }, t("common.none")),
        Object.keys(p.ratings || {}).length ? el("h2", {}, t("ratings.heading")) : null,
        Object.entries(p.ratings || {}).map(([preset, r]) =>
          el(
            "div",
            { class: "card player-rating", "data-testid": `player-rating-${preset}` },
            el("strong", {}, presetTitle(data.presets, preset, preset)),
            el(
              "p",
              {},
              `${t("ratings.rating")}: ${num(r.rating, 1)} ± ${num(r.uncertainty, 1)} · ${t("board.games")}: ${r.games}`,
            ),
            el(
              "p",
              {},
              r.decision
                ? `${t("daily.loss")}: ${num(r.decision.loss_per_decision, 3)} [${num(r.decision.ci[0], 3)}, ${num(r.decision.ci[1], 3)}] (${r.decision.decisions})` +
                    (r.decision.plays_like ? ` · ${t("ratings.playslike", { level: t(`level.${r.decision.plays_like}`) })}` : "") +
                    (r.decision.win_given_up_per_decision !== null && r.decision.win_given_up_per_decision !== undefined
                      ? ` · ${t("ratings.wingivenup", { pct: num(100 * r.decision.win_given_up_per_decision, 2), n: r.decision.win_decisions })}`
                      : "")
                : t("ratings.nodecisions"),
            ),
            r.history && r.history.length ? ratingChart(r.history) : null,
          ),
        ),
        el("h2", {}, t("player.games")),
        (p.games || []).length
          ? el("ol", { class: "game-list" }, p.games.map((g) => gameCard(g, data.presets)))
          : el("p", { class: "muted" }, t("common.none")),
      ),
    );
  }

  render();
  return { rerender: render, destroy: () => (alive = false) };
}
