// Giving up a match: the table's Resign (in the header's menu) and the
// lobby's Abandon in "Your games" are the same act. The person confirms in a
// dialog; the server ends the match for that seat (at a friends' table a bot
// plays the seat on); this browser records it as a lost match.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { api, forgetToken } from "./api.js";
import { recordResigned } from "./stats.js";

/**
 * Ask before resigning: true when the person confirms. ``friends`` adds that
 * a bot takes the seat; ``rated`` (a quick match) that leaving it may close
 * quick match for a while. Escape, Cancel or a click outside answer no.
 */
export function confirmResign({ friends = false, rated = false, title = null } = {}) {
  return new Promise((resolve) => {
    const cancel = h("button", { type: "button", id: "resign-cancel", value: "no" }, t("btn.cancel"));
    const ok = h("button", { type: "button", class: "primary danger", id: "resign-confirm", value: "yes" }, t("resign.confirm"));
    const dialog = h("dialog", { class: "confirm", id: "resign-dialog", "aria-labelledby": "resign-dialog-title", "aria-describedby": "resign-dialog-text" },
      h("h2", { id: "resign-dialog-title" }, title || t("resign.title")),
      h("p", { id: "resign-dialog-text" }, t("resign.text"), friends || rated ? ` ${t("resign.textFriends")}` : "",
        rated ? ` ${t("quick.resignRated")}` : ""),
      h("div", { class: "dialog-buttons" }, cancel, ok));
    let answer = false;
    cancel.addEventListener("click", () => dialog.close());
    ok.addEventListener("click", () => { answer = true; dialog.close(); });
    dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });
    dialog.addEventListener("close", () => { dialog.remove(); resolve(answer); });
    document.body.append(dialog);
    dialog.showModal();
    // The safe answer has the focus: Enter does not give a match away.
    cancel.focus();
  });
}

/**
 * Resign this browser's seat at the table: the seat's new state, recorded as
 * a loss; null when the match was already over (or the table is gone), which
 * the server answers with 409 (or 404) and which needs nothing more.
 */
export async function resignTable(tableId) {
  let state;
  try {
    state = await api.resign(tableId);
  } catch (error) {
    if (error.status === 409 || error.code === "table.not_found") {
      forgetToken(tableId);
      return null;
    }
    throw error;
  }
  // The record needs the match as the seat saw it; the answer should carry it.
  const seen = state && state.match && state.table ? state : await api.state(tableId).catch(() => null);
  if (seen) recordResigned(tableId, seen);
  // The seat's token stays: the table can still be watched from that seat (the
  // lobby forgets a resigned table when it next lists "Your games").
  return state;
}
