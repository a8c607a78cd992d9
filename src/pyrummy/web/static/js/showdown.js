// Shared pieces of the table and the replay: seat names, action sentences,
// card rows, the melds on the table, the showdown and the match ledger.

import { h } from "./dom.js";
import { t, tYou, lang } from "./i18n.js";
import { cardElement, pretty, prettyList, sortCards } from "./cards.js";
import { formatAmount, fractionValue } from "./format.js";
import { settings } from "./settings.js";
import "./gin_text.js";

export function seatName(table, seat, me) {
  if (seat === me && me !== null && me !== undefined) return t("table.you");
  const info = table.seats[seat];
  if (!info) return `#${seat + 1}`;
  if (info.kind === "bot") {
    // Bots are numbered among themselves, as in the lobby: Bot 1, Bot 2, ...
    const number = table.seats.slice(0, seat + 1).filter((s) => s.kind === "bot").length;
    return t("lobby.bot", { n: number });
  }
  // A person who gave no name is "Player 2" in the record: said in the page's language.
  const numbered = /^Player (\d+)$/.exec(info.name || "");
  if (numbered) return t("history.player", { n: numbered[1] });
  return info.name || `${seat + 1}`;
}

/** A short tag for a seat (the laid-off card badges): "You", "B2". */
export function seatTag(table, seat, me) {
  if (seat === me && me !== null && me !== undefined) return t("table.you");
  const info = table.seats[seat];
  if (info && info.kind === "bot") {
    const number = table.seats.slice(0, seat + 1).filter((s) => s.kind === "bot").length;
    return t("bot.short", { n: number });
  }
  return String(seat + 1);
}

export function seatLabel(table, seat, me) {
  const info = table.seats[seat];
  const name = seatName(table, seat, me);
  if (info && info.kind === "bot") return `${name} (${t(`difficulty.${info.bot}`)})`;
  return name;
}

/**
 * "Bot 2 discarded 7♥" from an action in text form. With ``offer`` (a game
 * with standard gin's first up-card offer, whose stock never runs out) a
 * ``decline`` is a pass of the up-card; with ``wall`` it is a pass at the
 * wall (gin's ``wall_knock``: the discard was only for a knock), which ends
 * the deal drawn. With ``pileLimit`` a ``draw discard`` is the draw that
 * reached gin's ``pile_draw_limit`` and ended the deal, taking no card.
 */
export function describeAction(text, { takenCard = null, you = false, offer = false, wall = false, pileLimit = 0 } = {}) {
  const words = text.split(" ");
  const head = words[0];
  const say = (key, params = {}) => tYou(key, you, params);
  if (text === "draw stock") return say("act.draw stock");
  if (text === "draw discard" && pileLimit) return say("act.pileLimit", { n: pileLimit });
  if (text === "draw discard") return say("act.draw discard", { card: takenCard ? pretty(takenCard) : "" }).replace("  ", " ");
  if (head === "decline" && wall) return say("act.wallPass");
  if (head === "decline" && offer) return say("act.pass");
  if (head === "decline" || head === "undo") return say(`act.${head}`);
  if (head === "knock") return words.length > 1 ? say("act.knockCard", { cards: pretty(words[1]) }) : say("act.knock");
  if (head === "layoff" || head === "swap-joker") return say(`act.${head}`, { cards: pretty(words[1]) });
  return say(`act.${head}`, { cards: prettyList(words.slice(1)) });
}

export function cardRow(cards, { className = "card-row", small = false } = {}) {
  const four = settings().fourColour;
  return h("div", { class: `${className}${small ? " small" : ""}` },
    cards.map((c) => cardElement(c, { fourColour: four, lang: lang() })));
}

/** The melds on the table; `targets` (meld indexes) get a dashed outline and act on click. */
export function tableMelds(observation, tableInfo, me, { targets = new Set(), onTarget = null } = {}) {
  const four = settings().fourColour;
  const melds = observation.table || [];
  if (!melds.length) return h("p", { class: "no-melds" }, t("table.noMelds"));
  return h("div", { class: "melds", role: "list", "aria-label": t("table.melds") },
    melds.map((meld, index) => {
      const owner = seatName(tableInfo, meld.owner, me);
      const isTarget = targets.has(index);
      const cards = meld.cards.map((card, i) => {
        const node = cardElement(card, { fourColour: four, lang: lang() });
        const by = meld.laid_by[i];
        if (by !== meld.owner) {
          const name = seatName(tableInfo, by, me);
          node.classList.add("laid-off");
          node.append(h("span", { class: "laid-by", "aria-hidden": "true" }, seatTag(tableInfo, by, me)));
          node.querySelector(".card-name").textContent += `, ${t("table.laidBy", { name })}`;
          node.title = `${pretty(card)} — ${t("table.laidBy", { name })}`;
        }
        return node;
      });
      const label = `${t("table.meldOf", { name: owner })}: ${prettyList(meld.cards)}`;
      const attrs = { class: `meld${isTarget ? " target" : ""}`, role: "listitem", "data-meld": String(index), "aria-label": label };
      if (isTarget && onTarget) {
        return h("button", { ...attrs, type: "button", role: null, onclick: () => onTarget(index) },
          h("span", { class: "meld-owner" }, owner), h("span", { class: "meld-cards" }, cards));
      }
      return h("div", attrs, h("span", { class: "meld-owner" }, owner), h("span", { class: "meld-cards" }, cards));
    }));
}

function transferSentence(transfer, tableInfo, me) {
  const amount = formatAmount(transfer.amount);
  const reason = t(`reason.${transfer.reason}`);
  const to = seatName(tableInfo, transfer.to, me);
  const from = transfer.from === null || transfer.from === undefined ? null : seatName(tableInfo, transfer.from, me);
  if (from === null) return transfer.to === me ? t("show.youScore", { amount, reason }) : t("show.scores", { to, amount, reason });
  if (transfer.from === me) return t("show.youPay", { to, amount, reason });
  if (transfer.to === me) return t("show.paysYou", { from, amount, reason });
  return t("show.pays", { from, to, amount, reason });
}

/**
 * What happened in a deal, in one sentence: who knocked or went out, the
 * outcome and who won ("Bot 1 knocked · the knocker is beaten · you win the
 * deal"). A word the sentence already says is not said twice.
 */
export function outcomeSentence(observation, tableInfo, me) {
  const settlement = observation.settlement;
  if (!settlement) return "";
  const outcome = t(`outcome.${settlement.outcome}`);
  let who = "";
  if (settlement.knocker !== null && settlement.knocker !== undefined) who = tYou("show.knockedBy", settlement.knocker === me, { name: seatName(tableInfo, settlement.knocker, me) });
  else if (["out", "rummy"].includes(settlement.outcome)) who = tYou("show.outBy", settlement.winners[0] === me, { name: seatName(tableInfo, settlement.winners[0], me) });
  else if (settlement.outcome === "no-knocker") who = t("show.noKnocker");
  // Say who won unless the words already do (went out).
  const winner = settlement.winners.length === 1 && !["out", "rummy"].includes(settlement.outcome)
    ? tYou("show.wins", settlement.winners[0] === me, { name: seatName(tableInfo, settlement.winners[0], me) }) : "";
  if (settlement.outcome === "out") return who || outcome;
  // "Bot 1 knocked" already says "knock".
  const said = who && settlement.outcome === "knock" ? "" : outcome;
  return [who, said, winner].filter(Boolean).join(" · ") || outcome;
}

/** A hand's meld with the cards laid off on it drawn at its end, marked with who laid them. */
function meldWithLayoffs(meld, laid, tableInfo, me) {
  const four = settings().fourColour;
  return h("div", { class: "card-row small meld-group" },
    meld.map((c) => cardElement(c, { fourColour: four, lang: lang() })),
    laid.map(({ card, by }) => {
      const node = cardElement(card, { fourColour: four, lang: lang() });
      const name = seatName(tableInfo, by, me);
      node.classList.add("laid-off");
      node.append(h("span", { class: "laid-by", "aria-hidden": "true" }, seatTag(tableInfo, by, me)));
      node.querySelector(".card-name").textContent += `, ${t("table.laidBy", { name })}`;
      node.title = `${pretty(card)} — ${t("table.laidBy", { name })}`;
      return node;
    }));
}

/** Every hand in its best arrangement, the melds on the table, the knock card and the transfers in words. */
export function showdownBody(observation, tableInfo, me, dealNumber, { outcome = true } = {}) {
  const settlement = observation.settlement;
  if (!settlement) return h("div");
  const parts = [];
  // Under a deal's banner (which says it) the sentence is not repeated.
  if (outcome) parts.push(h("p", { class: "outcome" }, outcomeSentence(observation, tableInfo, me)));
  // A deal nobody won says why it ended.
  const reason = observation.end_reason;
  if (["exhausted", "cap", "wall", "thrown_back", "pile_limit"].includes(reason) || (reason === "decline" && tableInfo.rules.capabilities.nobody_out !== "showdown")) {
    const limit = tableInfo.rules.gin?.pile_draw_limit;
    parts.push(h("p", { class: "end-reason" }, t(`end.reason.${reason}`, { turns: observation.turn, limit })));
  }
  if (observation.knock_card) {
    parts.push(h("div", { class: "knock-card" }, h("span", {}, t("show.knockCard", { card: pretty(observation.knock_card) })),
      cardRow([observation.knock_card], { small: true })));
  }
  // Cards laid off on the knocker's melds at the showdown, by the meld they joined.
  const layoffs = settlement.layoffs || [];
  const defender = settlement.hands.map((hand) => hand.seat).find((seat) => seat !== settlement.knocker);
  const hands = settlement.hands.map((hand) => {
    const seat = hand.seat;
    const winner = settlement.winners.includes(seat);
    const net = settlement.net[seat];
    const groups = hand.melds.map((meld, index) => {
      const laid = seat === settlement.knocker ? layoffs.filter((l) => l.meld === index).map((l) => ({ card: l.card, by: defender })) : [];
      return laid.length ? meldWithLayoffs(meld, laid, tableInfo, me) : cardRow(meld, { className: "card-row meld-group", small: true });
    });
    if (hand.deadwood_cards.length) groups.push(cardRow(sortCards(hand.deadwood_cards, "suit"), { className: "card-row deadwood-group", small: true }));
    let count;
    if (tableInfo.rules.capabilities.table_play) count = t("show.inHand", { n: hand.count });
    else if (hand.count !== hand.deadwood) count = t("show.count", { n: hand.count });
    else count = t("show.deadwood", { n: hand.deadwood });
    return h("div", { class: `showdown-hand${winner ? " winner" : ""}`, "data-seat": String(seat) },
      h("div", { class: "showdown-head" },
        h("strong", {}, seatName(tableInfo, seat, me)),
        h("span", { class: "deadwood-badge" }, count),
        h("span", { class: `net ${net.startsWith("-") ? "minus" : net === "0" ? "" : "plus"}` }, formatAmount(net, { sign: true }))),
      h("div", { class: "showdown-cards" }, groups.length ? groups : h("span", { class: "muted" }, "—")));
  });
  if (tableInfo.rules.capabilities.table_play && (observation.table || []).length) {
    // The melds made in the deal, each with its cards laid off by others.
    parts.push(h("h3", { class: "showdown-melds-title" }, t("table.melds")), h("div", { class: "showdown-melds" }, tableMelds(observation, tableInfo, me)));
  }
  parts.push(h("div", { class: "showdown-hands" }, hands));
  if (layoffs.length) {
    parts.push(h("p", { class: "layoff-words" }, t("show.layoffs", { cards: prettyList(layoffs.map((l) => l.card)) })));
  }
  parts.push(h("h3", {}, t("show.transfers")));
  if (settlement.transfers.length) {
    parts.push(h("ul", { class: "transfers" }, settlement.transfers.map((tr) => h("li", {}, transferSentence(tr, tableInfo, me)))));
  } else {
    parts.push(h("p", {}, t("show.noTransfers")));
  }
  return h("div", { class: "showdown-body", "data-deal": String(dealNumber) }, parts);
}

/**
 * The banner at a deal's end: its title, what happened, what it brought the
 * person (or the winner, for a spectator) and the button that goes on.
 */
export function dealBanner(observation, tableInfo, me, dealNumber, button) {
  const settlement = observation.settlement;
  const seat = me ?? settlement?.winners[0] ?? 0;
  const net = settlement ? settlement.net[seat] : "0";
  const mood = net.startsWith("-") ? "lost" : net === "0" ? "even" : "won";
  return h("div", { class: `deal-banner ${mood}` },
    h("div", { class: "banner-words" },
      h("h2", { id: "showdown-title" }, t("show.titleDeal", { n: dealNumber })),
      h("p", { class: "banner-outcome" }, outcomeSentence(observation, tableInfo, me))),
    h("span", { class: `banner-net net ${mood === "lost" ? "minus" : mood === "won" ? "plus" : ""}`, title: t("show.net") },
      formatAmount(net, { sign: true })),
    button);
}

/** The match in a few figures for the person: the best deal, the points, deals won, knocks and moves. */
export function matchSummary(match, tableInfo, me, histories) {
  const seat = me ?? match.winners[0] ?? 0;
  const nets = match.deals.map((deal) => ({ number: deal.number, net: deal.net[seat] }));
  const best = nets.reduce((a, b) => (a === null || fractionValue(b.net) > fractionValue(a.net) ? b : a), null);
  const won = nets.filter((d) => fractionValue(d.net) > 0).length;
  let moves = 0;
  let knocks = 0;
  for (const history of histories) {
    for (const [who, action] of history) {
      if (who !== seat) continue;
      moves += 1;
      if (action.startsWith("knock")) knocks += 1;
    }
  }
  const item = (label, text, id = null) => [h("dt", {}, label), h("dd", { id }, text)];
  return h("section", { class: "match-summary", "aria-labelledby": "summary-title" },
    h("h3", { id: "summary-title" }, me === null || me === undefined ? t("summary.titleWinner", { name: seatName(tableInfo, seat, me) }) : t("summary.title")),
    h("dl", { class: "summary-figures" },
      item(t("summary.points"), formatAmount(match.totals[seat], { sign: true }), "summary-points"),
      best ? item(t("summary.bestDeal"), t("summary.bestDealValue", { n: best.number, amount: formatAmount(best.net, { sign: true }) }), "summary-best") : null,
      item(t("summary.dealsWon"), t("summary.ofDeals", { n: won, m: nets.length }), "summary-won"),
      knocks ? item(t("summary.knocks"), String(knocks)) : null,
      item(t("summary.moves"), String(moves))));
}

/** Standings and the per-deal ledger of a match. */
export function ledgerTable(match, tableInfo, me) {
  const players = tableInfo.seats.length;
  const head = h("tr", {}, h("th", { scope: "col" }, t("ledger.deal")),
    Array.from({ length: players }, (_, s) => h("th", { scope: "col" }, seatName(tableInfo, s, me))));
  const rows = match.deals.map((deal) => h("tr", {}, h("th", { scope: "row" }, String(deal.number)),
    deal.net.map((n) => h("td", { class: n.startsWith("-") ? "minus" : "" }, formatAmount(n, { sign: true })))));
  const total = h("tr", { class: "total" }, h("th", { scope: "row" }, t("show.total")),
    match.totals.map((n) => h("td", {}, formatAmount(n, { sign: true }))));
  return h("div", { class: "ledger-wrap" },
    h("table", { class: "ledger" }, h("caption", {}, t("ledger.title")), h("thead", {}, head), h("tbody", {}, rows, total)));
}

export function standingsList(match, tableInfo, me) {
  return h("ol", { class: "standings", "aria-label": t("standings.title") },
    match.order.map((seat) => h("li", { class: match.winners.includes(seat) ? "leader" : "" },
      h("span", {}, seatName(tableInfo, seat, me)), h("strong", {}, formatAmount(match.totals[seat], { sign: true })))));
}
