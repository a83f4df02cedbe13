// The daily duplicate challenge: today's games (everyone plays the same dice alone) and each day's standings.

import { api, el, keepingFocus, link, savedName, saveName, toast } from "./api.js";
import { apiErrorText, num, pick, t } from "./i18n.js";
import { navigate } from "./nav.js";

/** /daily: today's challenges, a name and a Play button for each. */
export function mountDaily(root) {
  const page = { list: null, name: savedName(), busy: false };
  let alive = true;
  api.daily()
    .then((list) => {
      page.list = list;
      if (alive) render();
    })
    .catch((exc) => toast(apiErrorText(exc)));

  async function play(c) {
    const name = page.name.trim();
    if (name.length < 1 || name.length > 24) {
      toast(t("err.badname"));
      return;
    }
    saveName(name);
    page.busy = true;
    render();
    try {
      const made = await api.playDaily(c.date, c.preset, name);
      if (alive) navigate(made.url);
    } catch (exc) {
      page.busy = false;
      toast(exc.status === 409 ? t("daily.played") : apiErrorText(exc));
      render();
    }
  }

  const render = keepingFocus(draw);

  function draw() {
    document.title = `${t("nav.daily")} · ${t("app.title")}`;
    const name = el("input", {
      id: "daily-name",
      type: "text",
      maxlength: "24",
      autocomplete: "nickname",
      "data-testid": "daily-name",
      value: page.name,
      oninput: (ev) => (page.name = ev.target.value),
    });
    root.replaceChildren(
      el(
        "section",
        { class: "list-page daily" },
        el("h1", {}, t("nav.daily")),
        el("p", { class: "muted" }, t("daily.intro")),
        el("div", { class: "field" }, el("label", { for: "daily-name" }, t("home.name")), name),
        page.list === null
          ? el("p", { class: "loading" }, t("common.loading"))
          : el(
              "ul",
              { class: "game-list" },
              page.list.map((c) =>
                el(
                  "li",
                  { class: "game-card card", "data-testid": `daily-${c.preset}` },
                  el("div", { class: "game-head" }, el("strong", {}, pick(c.title, c.preset))),
                  el("p", { class: "muted" }, t("daily.players", { n: c.players })),
                  el("p", { class: "muted small mono", title: t("daily.commitment.why") }, `${t("daily.commitment")}: ${c.commitment.slice(0, 16)}…`),
                  el(
                    "button",
                    { type: "button", class: "btn primary", "data-testid": `daily-play-${c.preset}`, disabled: page.busy, onclick: () => play(c) },
                    t("daily.play"),
                  ),
                  " ",
                  link(c.url, t("daily.standings"), { class: "btn small ghost", "data-testid": `daily-standings-${c.preset}` }),
                ),
              ),
            ),
      ),
    );
  }

  render();
  return { rerender: render, destroy: () => (alive = false) };
}

/** /daily/<date>/<preset>: the day's standings; once the day is over, its seed and every game to replay. */
export function mountStandings(root, { day, preset }) {
  let data = null;
  let alive = true;
  api.dailyStandings(day, preset)
    .then((d) => {
      data = d;
      if (alive) render();
    })
    .catch((exc) => {
      data = { error: apiErrorText(exc) };
      if (alive) render();
    });

  function render() {
    document.title = `${t("daily.standings")} · ${t("app.title")}`;
    if (!data) return root.replaceChildren(el("p", { class: "loading" }, t("common.loading")));
    if (data.error) return root.replaceChildren(el("p", { class: "form-error", role: "alert" }, data.error));
    const rows = data.standings.map((s, i) =>
      el(
        "tr",
        { "data-testid": `daily-row-${i}` },
        el("td", {}, String(i + 1)),
        el("td", {}, link(`/p/${encodeURIComponent(s.pid)}`, s.name)),
        el("td", { class: "n" }, s.finished ? String(s.score) : t("daily.playing")),
        el("td", { class: "n" }, s.loss_per_decision === null ? "–" : num(s.loss_per_decision, 2)),
        data.over
          ? el(
              "td",
              {},
              link(`/replay/${encodeURIComponent(s.table)}`, t("games.replay")),
              s.first_difference
                ? el(
                    "span",
                    { class: "muted small", "data-testid": `daily-diff-${i}` },
                    ` ${t("daily.firstdiff", {
                      turn: s.first_difference.turn,
                      dice: s.first_difference.dice.join(" "),
                      loss: num(s.first_difference.loss, 2),
                    })}`,
                  )
                : null,
            )
          : null,
      ),
    );
    root.replaceChildren(
      el(
        "section",
        { class: "list-page daily" },
        el("h1", {}, `${pick(data.title, preset)} · ${data.date}`),
        el("p", { class: "muted" }, data.over ? t("daily.over") : t("daily.ongoing")),
        data.over && data.optimal !== null && data.optimal !== undefined
          ? el("p", { "data-testid": "daily-optimal" }, t("daily.optimal", { score: data.optimal }))
          : null,
        el(
          "div",
          { class: "table-scroll" },
          el(
            "table",
            { class: "board", "data-testid": "daily-standings" },
            el(
              "thead",
              {},
              el(
                "tr",
                {},
                el("th", { scope: "col" }, "#"),
                el("th", { scope: "col" }, t("board.name")),
                el("th", { scope: "col", class: "n" }, t("daily.score")),
                el("th", { scope: "col", class: "n", title: t("daily.loss.why") }, t("daily.loss")),
                data.over ? el("th", { scope: "col" }, "") : null,
              ),
            ),
            el("tbody", {}, rows),
          ),
        ),
        el("p", { class: "muted small mono", "data-testid": "daily-seed" }, data.over ? `${t("daily.seed")}: ${data.seed}` : `${t("daily.commitment")}: ${data.commitment}`),
        link("/daily", t("nav.daily"), { class: "btn small ghost" }),
      ),
    );
  }

  render();
  return { rerender: render, destroy: () => (alive = false) };
}
