// Ratings: the change a rated match made (on its match-end summary) and the
// leaderboard page of each game (#/leaderboard/GAME).

import { h, clear } from "./dom.js";
import { t, tn } from "./i18n.js";
import { GAME_ORDER } from "./rules_text.js";
import { DIFFICULTY_OF_BOT } from "./game_facts.js";

/** The answer of each rated match seen here, by table (fetched once it is over). */
const answers = new Map();

async function getJson(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`${response.status}`);
  return response.json();
}

function ratingText(r) {
  return `${r.rating}${r.provisional ? "?" : ""}`;
}

/** A bot's name as the lobby words it (its difficulty, where it is one). */
function botName(bot) {
  const key = `difficulty.${DIFFICULTY_OF_BOT[bot] ?? bot}`;
  const name = t(key);
  return name === key ? bot : name;
}

function changeLine(change) {
  const sign = change.change > 0 ? "+" : change.change < 0 ? "−" : "±";
  return t("rating.change", { before: ratingText(change.before), after: ratingText(change.after), change: `${sign}${Math.abs(change.change)}` });
}

/**
 * What the "?" of a change means, where the change is shown (the leaderboard
 * is a page away): the rated matches a provisional rating still needs, or
 * that this match settled it. Empty when neither rating is provisional.
 */
function provisionalNote(change, needed) {
  if (change.after.provisional) return tn("rating.provisional", Math.max(1, needed - change.after.matches));
  if (change.before.provisional) return t("rating.settled");
  return "";
}

/**
 * Fill ``element`` (on a rated match's end) with ``seat``'s rating change,
 * and ``note`` with what its provisional mark means (hidden when there is none).
 */
export async function fillRatingChange(element, note, tableId, seat) {
  element.textContent = t("rating.waiting");
  note.hidden = true;
  for (let attempt = 0; attempt < 10; attempt += 1) {
    let found = answers.get(tableId);
    if (!found) {
      try {
        const answer = await getJson(`/api/tables/${tableId}/rating`);
        if (answer.over && answer.changes.length) { found = answer; answers.set(tableId, found); }
      } catch (error) { /* asked again below */ }
    }
    if (found) {
      const mine = found.changes.find((c) => c.seat === seat);
      element.textContent = mine ? changeLine(mine) : t("rating.none");
      const words = mine ? provisionalNote(mine, found.provisional_matches) : "";
      note.textContent = words;
      note.hidden = !words;
      if (words) {
        const why = t("board.note", { n: found.provisional_matches });
        element.title = why;
        note.title = why;
      }
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  element.textContent = t("rating.none");
}

export async function renderLeaderboard(root, game) {
  const chosen = GAME_ORDER.includes(game) ? game : "knock";
  const tabs = h("nav", { class: "rule-tabs", "aria-label": t("board.title") },
    GAME_ORDER.map((g) => h("a", { href: `#/leaderboard/${g}`, "aria-current": g === chosen ? "page" : null }, t(`game.${g}`))));
  const body = h("div", { class: "leaderboard-body" }, h("p", {}, t("board.loading")));
  root.append(h("article", { class: "leaderboard" }, h("h1", {}, `${t("board.title")}: ${t(`game.${chosen}`)}`), tabs, body));
  let board;
  try {
    board = await getJson(`/api/leaderboard/${chosen}`);
  } catch (error) {
    clear(body);
    body.append(h("p", { class: "error" }, t("board.failed")));
    return;
  }
  clear(body);
  if (board.you) body.append(h("p", { class: "board-you", id: "board-you" }, t("board.you", { place: board.you.place, rating: ratingText(board.you) })));
  if (!board.players.length) body.append(h("p", { id: "board-empty" }, t("board.empty")));
  // On a phone the range goes under the rating (its own column is hidden), so
  // the table fits the screen without a sideways scroll.
  else body.append(h("div", { class: "board-scroll" }, h("table", { class: "board-table", id: "board-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("board.player")), h("th", { scope: "col" }, t("board.rating")), h("th", { scope: "col", class: "board-range" }, t("board.interval")), h("th", { scope: "col" }, t("board.matches")))),
    h("tbody", {}, board.players.map((p) => h("tr", { class: p.you ? "you" : "" },
      h("td", {}, String(p.place)), h("td", { class: "board-name" }, p.name || t("board.anonymous")),
      h("td", {}, ratingText(p), h("span", { class: "board-range-inline", "aria-hidden": "true" }, `${p.low}–${p.high}`)),
      h("td", { class: "board-range" }, `${p.low}–${p.high}`), h("td", {}, String(p.matches))))))));
  if (board.bots.length) body.append(h("p", { class: "board-bots" }, t("board.bots", { bots: board.bots.map((b) => `${botName(b.bot)} ${b.rating}`).join(", ") })));
  body.append(h("p", { class: "board-note" }, t("board.note", { n: board.provisional_matches })));
}
