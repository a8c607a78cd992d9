// The table's fair-deal check (docs/fair-deals.md): what this page saw
// before each deal (the commitment, the hand it was dealt) is kept for the
// browser tab's life; when the deal's seed and salt are revealed, fair.js
// works the commitment and the deck out again, and the showdown says
// "verified" or shows a loud warning.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { checkReveal } from "./fair.js";

const STORAGE_KEY = "pyrummy.fair";

/** What the page saw of each deal of one table, and the checks of the revealed ones. */
export class FairWatcher {
  constructor(tableId, onChecked) {
    this.tableId = tableId;
    this.onChecked = onChecked;
    this.results = new Map();
    this.memory = {};
  }

  load() {
    try {
      return JSON.parse(sessionStorage.getItem(`${STORAGE_KEY}.${this.tableId}`) || "{}");
    } catch {
      return this.memory;
    }
  }

  save(seen) {
    this.memory = seen;
    try {
      sessionStorage.setItem(`${STORAGE_KEY}.${this.tableId}`, JSON.stringify(seen));
    } catch {
      // (Storage refused: what was seen lives as long as this page.)
    }
  }

  /** Note a state: the commitment of the deal under way, the hand dealt; check a reveal. */
  see(state) {
    const seen = this.load();
    const obs = state.observation;
    const me = state.seat;
    if (state.fair && !state.match.over) {
      const entry = seen[obs.deal_number] || {};
      if (!entry.commitment) entry.commitment = state.fair.commitment;
      // Until this seat has played in the deal, its hand is the one it was dealt.
      if (me !== null && !entry.hand && !(obs.history || []).some(([seat]) => seat === me)) entry.hand = [...obs.hand];
      seen[obs.deal_number] = entry;
      this.save(seen);
    }
    const last = state.last_deal;
    if (last && last.fair && !this.results.has(last.number)) {
      this.results.set(last.number, null);
      checkReveal(last.fair, seen[last.number] || {}, me)
        .catch(() => ({ ok: false, reason: "commitment" }))
        .then((result) => {
          this.results.set(last.number, result);
          this.onChecked();
        });
    }
  }

  /** The commitment to the deal under way, shown beside the score (null: none). */
  commitmentLine(state) {
    if (!state.fair || state.match.over) return null;
    const full = state.fair.commitment;
    return h("p", { class: "fair-commitment-line muted", id: "fair-commitment", title: full },
      `${t("fair.commitment")}: `, h("code", {}, `${full.slice(0, 12)}…`));
  }

  /** The check of finished deal `number`, to show at its showdown (null: not committed to). */
  badge(last) {
    if (!last || !last.fair) return null;
    const result = this.results.get(last.number);
    if (!result) return h("p", { class: "fair-check", "data-fair": "checking", role: "status" }, t("fair.checking"));
    const how = h("details", { class: "fair-how" }, h("summary", {}, t("fair.how")), h("p", {}, t("fair.explain")),
      h("p", { class: "fair-commitment" }, `${t("fair.commitment")}: `, h("code", {}, last.fair.commitment)));
    if (result.ok) {
      return h("div", { class: "fair-check ok", "data-fair": "verified", role: "status" },
        h("p", {}, h("span", { "aria-hidden": "true" }, "✓ "), t("fair.verified", { n: last.number })), how);
    }
    return h("div", { class: "fair-check bad", "data-fair": "warning", role: "alert" },
      h("p", {}, h("strong", {}, `⚠ ${t("fair.warning", { n: last.number })}`), " ", t(`fair.reason.${result.reason}`)), how);
  }
}
