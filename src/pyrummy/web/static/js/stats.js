// This browser's own games: every match finished here is kept in
// localStorage (nothing is sent anywhere), for "My games" and the statistics.

import { h } from "./dom.js";
import { t, lang } from "./i18n.js";
import { formatAmount, fractionValue, formatDate } from "./format.js";

const KEY = "pyrummy.myGames";
const SVG_NS = "http://www.w3.org/2000/svg";

export function myGames() {
  try {
    const games = JSON.parse(localStorage.getItem(KEY) || "[]");
    return games.sort((a, b) => b.finished - a.finished);
  } catch (_) {
    return [];
  }
}

function hintsUsed(tableId) {
  try {
    return JSON.parse(localStorage.getItem("pyrummy.hints") || "{}")[tableId] || 0;
  } catch (_) {
    return 0;
  }
}

function keep(games) {
  try {
    localStorage.setItem(KEY, JSON.stringify(games));
  } catch (_) {
    // not kept in private mode
  }
}

/** Whether this browser gave up the match at this table (it is then no game of "Your games"). */
export function resignedAt(tableId) {
  return myGames().some((g) => g.id === tableId && g.resigned);
}

/**
 * Keep a match this browser's seat resigned, once, as a loss: the match is
 * over for this person (at a friends' table it goes on, a bot in the seat),
 * so it counts as played and lost, with the points as they stood.
 */
export function recordResigned(tableId, state) {
  const games = myGames().filter((g) => g.id !== tableId);
  const match = state.match;
  const seat = state.seat ?? 0;
  games.push({
    id: tableId,
    preset: state.table.preset,
    seat,
    seats: state.table.seats,
    finished: Date.now() / 1000,
    started: state.table.created_at,
    won: false,
    resigned: true,
    total: match.totals?.[seat] ?? "0",
    totals: match.totals,
    winners: match.over ? match.winners.filter((w) => w !== seat) : [],
    deals: match.deals_played,
    hints: hintsUsed(tableId),
  });
  keep(games);
}

/** Keep a match finished at this table (once), as this browser's seat saw it. */
export function recordFinished(tableId, state) {
  // The page's header drops its Resign for a match that is over.
  document.dispatchEvent(new CustomEvent("pyrummy:match-over", { detail: { tableId } }));
  const games = myGames();
  if (state.seat === null || games.some((g) => g.id === tableId)) return;
  const match = state.match;
  games.push({
    id: tableId,
    preset: state.table.preset,
    seat: state.seat,
    seats: state.table.seats,
    finished: Date.now() / 1000,
    started: state.table.created_at,
    won: match.winners.includes(state.seat),
    total: match.totals[state.seat],
    totals: match.totals,
    winners: match.winners,
    deals: match.deals_played,
    hints: hintsUsed(tableId),
  });
  keep(games);
}

function summary(games) {
  const played = games.length;
  const won = games.filter((g) => g.won).length;
  const deals = games.reduce((n, g) => n + g.deals, 0);
  const points = games.reduce((n, g) => n + fractionValue(g.total), 0);
  return { played, won, deals, points, perDeal: deals ? points / deals : 0, hints: games.reduce((n, g) => n + (g.hints || 0), 0) };
}

const round1 = (x) => (Math.round(x * 10) / 10).toLocaleString(lang() === "ru" ? "ru-RU" : "en-GB");

/** A small bar chart of the last games' results (green won, red lost). */
function chart(games) {
  const last = games.slice(0, 20).reverse();
  const width = 320;
  const height = 120;
  const biggest = Math.max(1, ...last.map((g) => Math.abs(fractionValue(g.total))));
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "stats-chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("stats.chartAria", { n: last.length }));
  const axis = document.createElementNS(SVG_NS, "line");
  axis.setAttribute("x1", "0");
  axis.setAttribute("x2", String(width));
  axis.setAttribute("y1", String(height / 2));
  axis.setAttribute("y2", String(height / 2));
  axis.setAttribute("class", "axis");
  svg.append(axis);
  // Room for ten games at least: one game is one slim bar, not a wall of colour.
  const step = width / Math.max(10, last.length);
  last.forEach((game, i) => {
    const value = fractionValue(game.total);
    const bar = document.createElementNS(SVG_NS, "rect");
    const size = (Math.abs(value) / biggest) * (height / 2 - 4);
    bar.setAttribute("x", String(i * step + 2));
    bar.setAttribute("width", String(Math.max(2, step - 4)));
    bar.setAttribute("y", String(value >= 0 ? height / 2 - size : height / 2));
    bar.setAttribute("height", String(Math.max(1, size)));
    bar.setAttribute("class", value >= 0 ? "bar plus" : "bar minus");
    svg.append(bar);
  });
  return svg;
}

function seatText(game, seat) {
  if (seat === game.seat) return t("table.you");
  const info = game.seats[seat];
  if (info && info.kind === "bot") return t("lobby.bot", { n: game.seats.slice(0, seat + 1).filter((s) => s.kind === "bot").length });
  return info?.name || String(seat + 1);
}

/** "My games": the matches finished in this browser, newest first. */
export function myGamesTable(games) {
  if (!games.length) return h("p", { id: "my-games-empty" }, t("stats.noGames"));
  return h("div", { class: "ledger-wrap" }, h("table", { class: "history-table", id: "my-games" },
    h("caption", { class: "visually-hidden" }, t("stats.myGames")),
    h("thead", {}, h("tr", {}, ["history.when", "history.game", "history.winner", "stats.yourResult", "history.watch"].map((k) => h("th", { scope: "col" }, t(k))))),
    h("tbody", {}, games.map((g) => h("tr", {},
      h("td", {}, formatDate(g.finished, lang(), { compact: true })),
      h("td", {}, t(`game.${g.preset}`)),
      h("td", {}, g.winners.map((s) => seatText(g, s)).join(", ")),
      h("td", {}, formatAmount(g.total, { sign: true }), g.resigned ? h("span", { class: "resigned-mark" }, ` · ${t("stats.resigned")}`) : null),
      h("td", {}, h("a", { href: `#/replay/${g.id}` }, t("history.watch"))))))));
}

export function renderStats(root) {
  const games = myGames();
  const section = h("section", { class: "history stats" }, h("h1", {}, t("stats.title")), h("p", { class: "muted" }, t("stats.note")));
  root.append(section);
  const all = summary(games);
  const figures = (s) => h("dl", { class: "stats-figures" },
    h("dt", {}, t("stats.played")), h("dd", { id: "stats-played" }, String(s.played)),
    h("dt", {}, t("stats.won")), h("dd", { id: "stats-won" }, String(s.won)),
    h("dt", {}, t("stats.perDeal")), h("dd", {}, round1(s.perDeal)),
    h("dt", {}, t("stats.hints")), h("dd", {}, String(s.hints)));
  section.append(figures(all));
  if (games.length) {
    section.append(h("h2", {}, t("stats.chart")), chart(games));
    const presets = [...new Set(games.map((g) => g.preset))];
    section.append(h("h2", {}, t("stats.perGame")), h("div", { class: "ledger-wrap" }, h("table", { class: "history-table" },
      h("thead", {}, h("tr", {}, ["history.game", "stats.played", "stats.won", "stats.perDeal"].map((k) => h("th", { scope: "col" }, t(k))))),
      h("tbody", {}, presets.map((p) => {
        const s = summary(games.filter((g) => g.preset === p));
        return h("tr", {}, h("td", {}, t(`game.${p}`)), h("td", {}, String(s.played)), h("td", {}, String(s.won)), h("td", {}, round1(s.perDeal)));
      })))));
  }
  section.append(h("h2", {}, t("stats.myGames")), myGamesTable(games));
}
