// Finished matches and their replays, step by step with every hand face up.

import { h, clear } from "./dom.js";
import { t, lang } from "./i18n.js";
import { myGames, myGamesTable } from "./stats.js";
import { api } from "./api.js";
import { formatAmount, formatDate } from "./format.js";
import { pretty, sortCards } from "./cards.js";
import { seatName, describeAction, tableMelds, showdownBody, ledgerTable, cardRow } from "./showdown.js";

export async function renderHistory(root, offset = 0) {
  const section = h("section", { class: "history" }, h("h1", {}, t("history.title")));
  root.append(section);
  // Your own games first (this browser's), then everyone's on this server.
  const mine = myGames();
  const myIds = new Map(mine.map((g) => [g.id, g.seat]));
  section.append(h("h2", {}, t("stats.myGames")), myGamesTable(mine), h("h2", {}, t("history.allTitle")));
  let data;
  try {
    data = await api.matches(offset);
  } catch (error) {
    section.append(h("p", { role: "status" }, t("status.error", { message: error.message })));
    return;
  }
  if (!data.matches.length) {
    section.append(h("p", {}, t("history.empty")));
    return;
  }
  // The server lists by finish time, the time shown here, so pages follow on.
  const rows = data.matches.map((m) => {
    const me = myIds.has(m.id) ? myIds.get(m.id) : null;
    const totals = m.result ? m.result.totals : [];
    const winners = m.result ? m.result.winners.map((s) => seatName(m, s, me)).join(", ") : "";
    return h("tr", {},
      h("td", {}, formatDate(m.finished_at || m.created_at, lang(), { compact: true })),
      h("td", {}, t(`game.${m.preset}`)),
      // Named as at the table and in the record: "Bot 1 (easy)", each with
      // their result on one line (one column fewer: it fits a phone).
      h("td", {}, m.seats.map((s) => h("span", { class: "seat-result" },
        s.kind === "bot" && s.seat !== me ? `${seatName(m, s.seat, me)} (${t(`difficulty.${s.bot}`)})` : seatName(m, s.seat, me),
        totals.length ? ` ${formatAmount(totals[s.seat], { sign: true })}` : ""))),
      h("td", {}, winners),
      h("td", {}, h("a", { href: `#/replay/${m.id}` }, t("history.watch"))));
  });
  section.append(h("div", { class: "ledger-wrap" }, h("table", { class: "history-table all-matches" },
    h("thead", {}, h("tr", {}, ["history.when", "history.game", "history.playersResults", "history.winner", "history.watch"].map((k) => h("th", { scope: "col" }, t(k))))),
    h("tbody", {}, rows))));
  if (data.total > offset + data.matches.length) {
    section.append(h("button", { type: "button", class: "small-button", onclick: () => { clear(root); renderHistory(root, offset + 20); } }, t("history.more")));
  }
}

export class ReplayView {
  constructor(root, tableId) {
    this.root = root;
    this.tableId = tableId;
    this.step = null;
    // This browser's seat in a match it played: "You" in the replay, as in History.
    const mine = myGames().find((g) => g.id === tableId);
    this.me = mine ? mine.seat : null;
    this.section = h("section", { class: "replay" }, h("p", {}, "…"));
    root.append(this.section);
    this.onKey = (event) => {
      if (event.target && ["INPUT", "SELECT"].includes(event.target.tagName)) return;
      if (event.key === "ArrowRight") this.go(this.step + 1);
      else if (event.key === "ArrowLeft") this.go(this.step - 1);
      else if (event.key === "Home") this.go(0);
      else if (event.key === "End") this.go(this.view.steps);
      else return;
      event.preventDefault();
    };
    document.addEventListener("keydown", this.onKey);
    this.go(undefined);
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
  }

  relabel() {
    this.render();
  }

  async go(step) {
    if (this.view && (step < 0 || step > this.view.steps)) return;
    try {
      this.view = await api.replay(this.tableId, step);
      this.step = this.view.step;
      this.render();
    } catch (error) {
      clear(this.section);
      this.section.append(h("h1", {}, t("replay.title")), h("p", { role: "status" }, error.message));
    }
  }

  render() {
    const view = this.view;
    const info = view.table;
    clear(this.section);
    const obs = view.observation;
    const action = view.action
      ? `${seatName(info, view.action.seat, this.me)} ${describeAction(view.action.text, { takenCard: view.action.taken, offer: !!info.rules.gin?.up_card_offer, wall: !!info.rules.gin?.wall_knock && obs.phase === "over" })}`
      : t("replay.start.action");
    const slider = h("input", { type: "range", min: "0", max: String(view.steps), value: String(view.step), id: "replay-slider",
      "aria-label": t("replay.step", { n: view.step, m: view.steps }), onchange: (e) => this.go(Number(e.target.value)) });
    this.section.append(
      h("h1", {}, `${t("replay.title")}: ${t(`game.${info.preset}`)}`),
      h("div", { class: "replay-controls", role: "toolbar" },
        h("button", { type: "button", onclick: () => this.go(0), disabled: view.step === 0 }, "« ", t("replay.start")),
        h("button", { type: "button", id: "replay-prev", onclick: () => this.go(view.step - 1), disabled: view.step === 0 }, "◀ ", t("replay.prev")),
        slider,
        h("button", { type: "button", id: "replay-next", onclick: () => this.go(view.step + 1), disabled: view.step === view.steps }, t("replay.next"), " ▶"),
        h("button", { type: "button", onclick: () => this.go(view.steps), disabled: view.step === view.steps }, t("replay.end"), " »")),
      h("p", { class: "status-line", role: "status", "aria-live": "polite" },
        `${t("table.deal", { n: view.deal_number })} · ${t("replay.step", { n: view.step, m: view.steps })}: ${action}`),
    );
    const hands = view.hands.map((cards, seat) => h("div", { class: `replay-hand${obs.current_seat === seat ? " playing" : ""}` },
      h("strong", {}, seatName(info, seat, this.me)), cardRow(sortCards(cards, "suit"), { small: true })));
    const top = obs.discard_pile[obs.discard_pile.length - 1];
    this.section.append(h("div", { class: "replay-board" },
      h("div", { class: "replay-hands" }, hands),
      h("p", {}, `${t("table.stockCount", { n: obs.stock_count })} · ${t("table.discard")}: ${top ? pretty(top) : t("table.discardEmpty")}`),
      info.rules.capabilities.table_play ? tableMelds(obs, info, this.me) : null));
    if (obs.settlement) this.section.append(h("section", { class: "showdown inline" }, h("h2", {}, t("show.titleDeal", { n: view.deal_number })), showdownBody(obs, info, this.me, view.deal_number)));
    if (view.step === view.steps) this.section.append(ledgerTable(view.match, info, this.me));
    this.section.append(h("p", {}, h("a", { href: `/api/matches/${this.tableId}/record`, target: "_blank", rel: "noopener" }, t("replay.record"))));
  }
}
