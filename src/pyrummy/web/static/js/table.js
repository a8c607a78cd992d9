// One table: the opponents, the stock and discard pile, the melds on the
// table, your hand (grouped into its best melds, with the live deadwood) and
// the action buttons, enabled only when the action is legal. Everything shown
// comes from the server's state for your seat; the page decides no rule.

import { h, clear, reducedMotion } from "./dom.js";
import { t, tn, lang } from "./i18n.js";
import { api, SocketLost, TableSocket, tokenFor } from "./api.js";
import { cardElement, cardBack, pretty, prettyList, sortCards, rankIndex, suitIndex, isJoker, suitOf, rankOf, RANKS } from "./cards.js";
import { formatAmount } from "./format.js";
import { explainMeld } from "./meldcheck.js";
import { animateFrom, celebrate, flyTo, snapshotCards } from "./motion.js";
import { fitTable } from "./fit.js";
import { knockAdvice } from "./advice.js";
import "./table_text.js";
import "./gin_text.js";
import { play, soundOf } from "./sound.js";
import { recordFinished } from "./stats.js";
import { settings, saveSetting, SPEEDS, speedName } from "./settings.js";
import { playAgain } from "./lobby.js";
import { FairWatcher } from "./fair_view.js";
import { fillRatingChange } from "./ratings.js";
import {
  seatName, seatLabel, describeAction, tableMelds, showdownBody, ledgerTable, standingsList, dealBanner, matchSummary,
} from "./showdown.js";

/** Screens this narrow keep the table's settings in the Moves panel (table.css agrees). */
const NARROW = "(max-width: 700px)";

/** Two clicks on one card within this time (ms) are a double tap: discard it. */
const DOUBLE_TAP_MS = 450;

const KEYS = { s: "stock", p: "pile", m: "meld", l: "layoff", d: "discard", k: "knock", u: "undo", x: "decline", n: "next" };

function legalIndex(actions) {
  const index = { stock: false, pile: false, decline: false, undo: false, discard: new Set(), knock: new Set(), layoff: new Map(), melds: new Map(), meldPhase: false };
  for (const text of actions) {
    const words = text.split(" ");
    if (text === "draw stock") index.stock = true;
    else if (text === "draw discard") index.pile = true;
    else if (text === "decline") index.decline = true;
    else if (text === "undo") index.undo = true;
    else if (words[0] === "discard") index.discard.add(words[1]);
    else if (words[0] === "knock") index.knock.add(words[1]);
    else if (words[0] === "layoff") {
      if (!index.layoff.has(words[1])) index.layoff.set(words[1], []);
      index.layoff.get(words[1]).push(Number(words[2]));
    } else if (words[0] === "meld") {
      // With jokers one choice of cards can make several melds (Rotham: 5♥ and
      // two jokers are a set, or the runs 3-5, 4-6, 5-7♥): all are kept.
      const key = meldKey(words.slice(words[1] === "run" ? 2 : 1));
      if (!index.melds.has(key)) index.melds.set(key, []);
      index.melds.get(key).push(text);
    }
  }
  index.meldPhase = index.melds.size > 0 || index.layoff.size > 0 || (index.discard.size > 0 && index.knock.size === 0);
  return index;
}

/**
 * A meld action in words: "Set: 5♥ 🃏1 🃏2", or a run with each joker's place
 * ("Run: 4♥ (🃏1) 5♥ 6♥ (🃏2)"). A run's cards are listed in run order, so a
 * joker stands for the rank of its position.
 */
function meldOptionLabel(action) {
  const words = action.split(" ");
  const named = words[1] === "run";
  const cards = words.slice(named ? 2 : 1);
  const reals = cards.filter((c) => !isJoker(c));
  const oneSuit = new Set(reals.map(suitOf)).size === 1;
  const oneRank = new Set(reals.map(rankOf)).size === 1;
  if (!named && (oneRank || !oneSuit)) return t("meldChoice.set", { cards: prettyList(cards) });
  const first = cards.findIndex((c) => !isJoker(c));
  const start = rankIndex(cards[first]) - first;
  const shown = cards.map((card, i) => {
    if (!isJoker(card)) return pretty(card);
    const stands = `${RANKS[(((start + i) % 13) + 13) % 13]}${suitOf(reals[0])}`;
    return `${pretty(stands)} (${pretty(card)})`;
  });
  return t("meldChoice.run", { cards: shown.join(" ") });
}

/**
 * A deal's moves with the card each "draw discard" took (the server names
 * it: it lay face up): ``[seat, action, taken]``, taken null for other moves
 * and where the server could not tell.
 */
function movesWithTakes(history, taken = []) {
  let next = 0;
  return history.map(([seat, action]) => [seat, action, action === "draw discard" ? taken[next++] ?? null : null]);
}

/**
 * How a ``decline`` at ``index`` of a deal's history reads in gin: its first
 * moves are the up-card's offer (a pass of the up-card); any later one is a
 * pass at the wall (``wall_knock``; standard gin declines nothing else).
 */
function declineWords(info, index, players) {
  const offer = offersUpCard(info);
  return { offer, wall: !!info.rules.gin?.wall_knock && index >= players };
}

/**
 * Is this gin's wall under ``wall_knock``: the turn's choice is the discard
 * (only to knock) or a pass that ends the deal drawn? The decline phase
 * with cards still in the stock (any other decline is at an empty stock).
 */
function atWall(obs, legal) {
  return obs.phase === "decline" && obs.stock_count > 0 && legal.decline;
}

/** Does this table offer the first up-card (standard gin)? Its declines are passes. */
function offersUpCard(info) {
  return !!info.rules.gin?.up_card_offer;
}

/**
 * Oklahoma's note for the deal being played: the knock limit in force (the
 * first up-card's value; an ace: gin only) and, for a spade, the double
 * score; null when Oklahoma is not played.
 */
function oklahomaNote(obs, info) {
  if (!info.rules.gin?.oklahoma || obs.knock_limit === undefined || !obs.up_card) return null;
  const limit = obs.knock_limit > 0 ? t("table.oklahoma", { n: obs.knock_limit }) : t("table.oklahomaGinOnly");
  const spade = obs.up_card.endsWith("S");
  return h("p", { class: `oklahoma-note${spade ? " doubled" : ""}`, id: "oklahoma", title: `${t("opt.oklahoma.short")}: ${pretty(obs.up_card)}` },
    h("span", {}, limit), spade ? h("span", { class: "oklahoma-spade" }, t("table.oklahomaSpade")) : null);
}

/**
 * Where each opponent sits, in playing order after you: play passes to the
 * left, so the first sits on your left and the last on your right; the rest
 * sit across the table.
 */
function seatPlaces(count) {
  if (count === 1) return ["top"];
  return Array.from({ length: count }, (_, i) => (i === 0 ? "left" : i === count - 1 ? "right" : "top"));
}

function meldKey(cards) {
  return [...cards].sort((a, b) => suitIndex(a) * 20 + rankIndex(a) - (suitIndex(b) * 20 + rankIndex(b))).join(" ");
}

export class TableView {
  constructor(root, tableId) {
    this.root = root;
    this.tableId = tableId;
    this.state = null;
    this.seq = -1;
    this.selected = new Set();
    this.cursor = 0;
    this.message = null;
    this.lastEvent = null;
    this.dismissed = null;
    this.busy = false;
    this.online = true;
    // Each deal's shuffle, checked here once it is revealed (docs/fair-deals.md).
    this.fair = new FairWatcher(tableId, () => this.render());
    this.onKey = (event) => this.handleKey(event);
    document.addEventListener("keydown", this.onKey);
    this.section = h("section", { class: "table-view", "aria-busy": "true" }, h("p", {}, "…"));
    root.append(this.section);
    this.load();
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    document.body.classList.remove("on-table");
    if (this.resizeWatch) window.removeEventListener("resize", this.resizeWatch);
    if (this.sizeWatch) this.sizeWatch.disconnect();
    if (this.socket) this.socket.close();
    this.section.remove();
  }

  relabel() {
    this.render();
  }

  async load() {
    try {
      const state = await api.state(this.tableId);
      this.accept(state);
    } catch (error) {
      clear(this.section);
      this.section.append(h("h1", {}, t("status.notFound")), h("p", {}, h("a", { href: "#/" }, t("table.backToLobby"))));
      return;
    }
    if (this.socket) this.socket.close();
    this.socket = new TableSocket(this.tableId, {
      getSeq: () => (this.seq >= 0 ? this.seq : null),
      onMessage: (message) => this.onMessage(message),
      onStatus: (online) => {
        const back = online && !this.online;
        this.online = online;
        const badge = this.section.querySelector(".connection");
        if (badge) badge.hidden = online;
        // An error said while the server could not be reached is over once it is back.
        if (back && this.message && this.message.kind === "error") {
          this.message = null;
          this.render();
        }
      },
    });
  }

  onMessage(message) {
    if (message.type === "event") {
      if (message.seat !== this.me && message.action) {
        const sound = soundOf(message.action);
        if (sound) play(sound);
      }
      if (message.state) {
        this.lastEvent = message;
        this.accept(message.state);
      }
    } else if (message.type === "state") {
      this.accept(message.state);
    }
  }

  accept(state) {
    if (state.seq < this.seq) return;
    if (state.deals_from !== undefined) {
      // A live message carries only the last finished deal; the earlier ones are here already.
      const known = this.state ? this.state.match.deals : [];
      if (known.length < state.deals_from) {
        api.state(this.tableId).then((whole) => this.accept(whole), () => {});
        return;
      }
      const histories = (this.state && this.state.deal_histories) || [];
      state = {
        ...state,
        match: { ...state.match, deals: known.slice(0, state.deals_from).concat(state.match.deals) },
        deal_histories: histories.slice(0, state.deals_from).concat(state.deal_histories),
        taken_cards: ((this.state && this.state.taken_cards) || []).slice(0, state.deals_from).concat(state.taken_cards || []),
      };
    }
    if (state.seq > this.seq) {
      this.message = null;
      // Turning the pile over as the new stock is said out loud, not done silently.
      const before = this.state ? this.state.observation.exhaustions || 0 : null;
      const sameDeal = this.state && this.state.match.deal_number === state.match.deal_number;
      if (sameDeal && before !== null && (state.observation.exhaustions || 0) > before && state.observation.recycled_stock) {
        this.message = { text: t("table.recycledNow"), kind: "info" };
      }
      const hand = new Set(state.observation.hand);
      for (const card of [...this.selected]) if (!hand.has(card)) this.selected.delete(card);
    }
    this.seq = state.seq;
    this.state = state;
    this.fair.see(state);
    if (state.match.over) recordFinished(this.tableId, state);
    this.render();
  }

  get me() {
    return this.state ? this.state.seat : null;
  }

  // -- actions ---------------------------------------------------------------
  async act(text) {
    if (this.busy) return;
    this.busy = true;
    try {
      const seq = this.seq;
      const state = await this.send({ type: "act", action: text, seq }, () => api.act(this.tableId, text, seq));
      const sound = soundOf(text);
      if (sound) play(sound);
      this.selected.clear();
      if (state) this.accept(state);
      // A friends' room counts this as the person being back (room.js).
      document.dispatchEvent(new CustomEvent("pyrummy:moved"));
    } catch (error) {
      this.message = { text: error.message, kind: "error" };
      if (error.code === "seat.stale") this.load();
      this.render();
    } finally {
      this.busy = false;
      this.render();
    }
  }

  /**
   * A move over the table's socket when it is open (its event has brought the
   * new state by the ack: null), else by POST (the new state). With no answer
   * on the socket the POST goes instead: a move the server did play meanwhile
   * is refused there as stale, and the state is read.
   */
  async send(message, post) {
    const sent = this.socket ? this.socket.request(message) : null;
    if (!sent) return post();
    try {
      await sent;
      return null;
    } catch (error) {
      if (!(error instanceof SocketLost)) throw error;
    }
    try {
      return await post();
    } catch (error) {
      if (error.code === "seat.stale") return api.state(this.tableId);
      throw error;
    }
  }

  async command(name) {
    const state = this.state;
    if (!state) return;
    const legal = legalIndex(state.legal_actions);
    const chosen = [...this.selected];
    const one = chosen.length === 1 ? chosen[0] : null;
    switch (name) {
      case "stock":
        if (legal.stock) await this.act("draw stock");
        break;
      case "pile":
        if (legal.pile) await this.act("draw discard");
        break;
      case "decline":
        if (legal.decline) await this.act("decline");
        break;
      case "undo":
        if (legal.undo) await this.act("undo");
        break;
      case "discard":
        if (one && legal.discard.has(one)) {
          if (legal.layoff.has(one) && !(await this.confirm(t("confirm.discardLayoff", { card: pretty(one) }), t("btn.discardAnyway")))) return;
          await this.act(`discard ${one}`);
        }
        break;
      case "knock":
        if (one && legal.knock.has(one) && (await this.confirmKnock(one))) await this.act(`knock ${one}`);
        break;
      case "layoff":
        if (one && legal.layoff.has(one)) await this.act(`layoff ${one} ${legal.layoff.get(one)[0]}`);
        break;
      case "meld":
        if (this.canTryMeld(legal)) {
          const known = legal.melds.get(meldKey(chosen)) || [];
          const action = known.length > 1 ? await this.chooseMeld(known) : known[0];
          if (action) {
            await this.act(action);
          } else if (!known.length) {
            // Explained here, with no request: the server would only refuse it.
            const reason = explainMeld(chosen, this.state.table.rules.ace || "low", lang());
            this.message = { text: reason || t("table.meldNotNow"), kind: "error" };
            this.render();
          }
        }
        break;
      case "hint":
        if (settings().hints) await this.hint();
        break;
      case "next":
        await this.continueDeal();
        break;
      default:
        break;
    }
  }

  canTryMeld(legal) {
    return this.state.table.rules.capabilities.table_play && legal.meldPhase && this.selected.size > 0;
  }

  /**
   * Drag a hand card (mouse, pen or touch): onto another hand card to move it
   * there, onto the discard pile to discard it, onto a table meld to lay it
   * off. A press that does not move is a click (select).
   */
  startDrag(event, node, card) {
    if (event.button !== undefined && event.button !== 0) return;
    const startX = event.clientX;
    const startY = event.clientY;
    let dragging = false;
    // A card still gliding into place is put there at once: it is dragged from where it is.
    node.getAnimations().forEach((animation) => animation.finish());
    node.setPointerCapture?.(event.pointerId);
    // Until the card lands, a new state waits: drawing it now would replace
    // the card's node and lose the gesture.
    this.dragGesture = true;
    const move = (e) => {
      const dx = e.clientX - startX;
      const dy = e.clientY - startY;
      if (!dragging && Math.hypot(dx, dy) < 8) return;
      dragging = true;
      node.classList.add("dragging");
      node.style.transform = `translate(${dx}px, ${dy}px)`;
    };
    const up = (e) => {
      node.removeEventListener("pointermove", move);
      node.removeEventListener("pointerup", up);
      node.removeEventListener("pointercancel", up);
      node.removeEventListener("lostpointercapture", up);
      node.style.transform = "";
      node.classList.remove("dragging");
      this.dragGesture = false;
      if (dragging && e.type === "pointerup") {
        this.justDragged = true;
        setTimeout(() => { this.justDragged = false; }, 0);
        node.style.visibility = "hidden";
        const below = document.elementFromPoint(e.clientX, e.clientY);
        node.style.visibility = "";
        this.dropOn(card, below, e.clientX);
      }
      // After the click this press may still make (a select), which needs its node.
      if (this.renderWaiting) setTimeout(() => { if (this.renderWaiting && !this.dragGesture) this.render(); }, 0);
    };
    node.addEventListener("pointermove", move);
    node.addEventListener("pointerup", up);
    node.addEventListener("pointercancel", up);
    node.addEventListener("lostpointercapture", up);
  }

  dropOn(card, below, x) {
    if (!below) return;
    const legal = legalIndex(this.state.legal_actions);
    const target = below.closest(".hand .card");
    if (target && target.dataset.card !== card) {
      const order = [...this.handOrder].filter((c) => c !== card);
      const box = target.getBoundingClientRect();
      const at = order.indexOf(target.dataset.card) + (x > box.left + box.width / 2 ? 1 : 0);
      order.splice(at, 0, card);
      this.customOrder = order;
      this.cursor = order.indexOf(card);
      this.render();
      return;
    }
    if (below.closest("#discard-pile, .piles figure:last-child") && legal.discard.has(card)) {
      this.selected = new Set([card]);
      this.command("discard");
      return;
    }
    const meld = below.closest(".meld[data-meld]");
    if (meld && legal.layoff.has(card) && legal.layoff.get(card).includes(Number(meld.dataset.meld))) {
      this.act(`layoff ${card} ${meld.dataset.meld}`);
    }
  }

  /** Ask the server's medium bot for a move; say it in one line and select its card. */
  async hint() {
    try {
      const hint = await api.hint(this.tableId);
      const values = { action: hint.action, ...hint.values };
      if (values.card) values.card = pretty(values.card);
      if (values.cards) values.cards = prettyList(values.cards);
      const words = hint.action.split(" ");
      // A suggested knock is worded by the same advice as the knock warning.
      const advice = words[0] === "knock" && words[1] ? knockAdvice(this.state, words[1]) : null;
      const said = advice ? t(advice.key, advice.values) : t(hint.reason, values);
      this.message = { text: `${t("hint.prefix")} ${said}`, kind: "hint" };
      if (["discard", "knock", "layoff"].includes(words[0])) this.selected = new Set([words[1]]);
      // Counted per browser, for the statistics.
      const counts = JSON.parse(localStorage.getItem("pyrummy.hints") || "{}");
      counts[this.tableId] = (counts[this.tableId] || 0) + 1;
      localStorage.setItem("pyrummy.hints", JSON.stringify(counts));
    } catch (error) {
      this.message = { text: error.message, kind: "error" };
    }
    this.render();
  }

  async continueDeal() {
    const last = this.state.last_deal;
    if (!last) return;
    this.dismissed = last.number;
    if (this.state.awaiting_continue) {
      try {
        const state = await this.send({ type: "continue" }, () => api.continueDeal(this.tableId));
        if (state) this.accept(state);
      } catch (error) {
        this.message = { text: error.message, kind: "error" };
      }
    }
    this.render();
  }

  /**
   * The knock warning: a knock the advice calls risky (advice.js, which the
   * hint uses too) is confirmed first, in the advice's own words.
   */
  async confirmKnock(card) {
    const advice = knockAdvice(this.state, card);
    if (!advice || !advice.risky) return true;
    return this.confirm(t(advice.key, advice.values), t("btn.knockAnyway"), t("confirm.knockTitle"));
  }

  /** Ask which of several melds the chosen cards (with jokers) are meant to be; null if cancelled. */
  chooseMeld(actions) {
    return new Promise((resolve) => {
      let chosen = null;
      const dialog = h("dialog", { class: "confirm meld-choice", "aria-labelledby": "meld-choice-title", "aria-describedby": "meld-choice-text" },
        h("h2", { id: "meld-choice-title" }, t("meldChoice.title")),
        h("p", { id: "meld-choice-text" }, t("meldChoice.text")),
        h("div", { class: "meld-options" }, actions.map((action) => h("button", {
          type: "button", class: "action", "data-action": action,
          onclick: () => { chosen = action; dialog.close("yes"); },
        }, meldOptionLabel(action)))),
        h("div", { class: "dialog-buttons" },
          h("button", { type: "button", class: "secondary", onclick: () => dialog.close("no") }, t("btn.cancel"))));
      dialog.addEventListener("close", () => {
        dialog.remove();
        resolve(chosen);
        this.focusHand();
      });
      document.body.append(dialog);
      dialog.showModal();
      dialog.querySelector(".meld-options button").focus();
    });
  }

  confirm(text, okLabel, title = null) {
    return new Promise((resolve) => {
      const dialog = h("dialog", { class: "confirm", "aria-labelledby": "confirm-title" },
        title ? h("h2", { id: "confirm-title" }, title) : null,
        h("p", { id: title ? null : "confirm-title" }, text),
        h("div", { class: "dialog-buttons" },
          h("button", { type: "button", class: "secondary", value: "no", onclick: () => dialog.close("no") }, t("btn.cancel")),
          h("button", { type: "button", class: "primary danger", value: "yes", onclick: () => dialog.close("yes") }, okLabel)));
      dialog.addEventListener("close", () => {
        dialog.remove();
        resolve(dialog.returnValue === "yes");
        this.focusHand();
      });
      document.body.append(dialog);
      dialog.showModal();
      dialog.querySelector(".secondary").focus();
    });
  }

  handleKey(event) {
    if (!this.state || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
    if (document.querySelector("dialog[open]")) return;
    // event.code names the physical key, so the letters work in any layout (ЙЦУКЕН too).
    const letter = event.code && event.code.startsWith("Key") ? event.code.slice(3).toLowerCase() : event.key.toLowerCase();
    const name = KEYS[letter];
    if (name) {
      event.preventDefault();
      this.command(name);
    }
  }

  handKeys(event) {
    const cards = this.handOrder;
    if (!cards || !cards.length) return;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") this.cursor = Math.min(cards.length - 1, this.cursor + 1);
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") this.cursor = Math.max(0, this.cursor - 1);
    else if (event.key === "Home") this.cursor = 0;
    else if (event.key === "End") this.cursor = cards.length - 1;
    else if (event.key === "Enter" || event.key === " ") this.toggle(cards[this.cursor]);
    else if (event.key === "Escape") this.selected.clear();
    else return;
    event.preventDefault();
    event.stopPropagation();
    this.render();
    this.focusHand();
  }

  toggle(card) {
    if (this.selected.has(card)) this.selected.delete(card);
    else this.selected.add(card);
    this.message = null;
  }

  focusHand() {
    const hand = this.section.querySelector(".hand");
    if (hand) hand.focus({ preventScroll: true });
  }

  async changeSpeed(name) {
    saveSetting("speed", name);
    try {
      await api.settings(this.tableId, SPEEDS[name]);
      this.state.table.bot_delay = SPEEDS[name];
    } catch (error) {
      this.message = { text: error.message, kind: "error" };
      this.render();
    }
  }

  // -- rendering --------------------------------------------------------------
  render() {
    const state = this.state;
    if (!state) return;
    if (this.dragGesture) {
      this.renderWaiting = true;
      return;
    }
    this.renderWaiting = false;
    const handHadFocus = document.activeElement && document.activeElement.classList.contains("hand");
    // Where the cards were, so the ones that change place can glide there (motion.js).
    this.cardsBefore = snapshotCards(this.section);
    const movesScroll = this.section.querySelector("#moves")?.scrollTop;
    const obs = state.observation;
    const info = state.table;
    const legal = legalIndex(state.legal_actions);
    clear(this.section);
    // The table has the whole screen below the header; the page itself does not scroll.
    document.body.classList.add("on-table");
    this.section.setAttribute("aria-busy", "false");
    this.section.dataset.tablePlay = String(info.rules.capabilities.table_play);
    this.section.dataset.phase = obs.phase;
    this.section.dataset.players = String(obs.players);
    document.title = `${t(`game.${info.preset}`)} · ${t("app.title")}`;

    const match = state.match;
    const last = state.last_deal;
    const showingShowdown = !match.over && last && state.awaiting_continue && this.dismissed !== last.number;
    // While a finished deal's showdown is shown, the header names that deal.
    const shownDeal = match.over || showingShowdown ? (last ? last.number : match.deal_number) : match.deal_number;
    const dealText = match.deals_in_match ? t("table.dealOf", { n: shownDeal, m: match.deals_in_match }) : t("table.deal", { n: shownDeal });
    const targetText = match.target ? h("span", { class: "target-info" }, ` · ${t("table.target", { n: match.target })}`) : null;
    const speed = h("select", { id: "table-speed", "aria-label": t("table.speed"), title: t("table.speed"), disabled: this.me === null,
      onchange: (e) => this.changeSpeed(e.target.value) },
    Object.keys(SPEEDS).map((s) => h("option", { value: s }, t(`speed.${s}`))));
    speed.value = speedName(info.bot_delay);
    const sort = h("button", { type: "button", class: "small-button", id: "sort-toggle", title: t("settings.sort"),
      onclick: () => { this.customOrder = null; saveSetting("sort", settings().sort === "suit" ? "rank" : "suit"); this.render(); } },
    h("span", {}, h("span", { class: "wide-only" }, `${t("settings.sort")}:\u00a0`), t(`settings.sort.${settings().sort}`)));
    const movesToggle = h("button", {
      type: "button", class: "small-button", id: "moves-toggle", "aria-controls": "side", "aria-expanded": this.sideOpen ? "true" : "false",
      onclick: () => { this.sideOpen = !this.sideOpen; this.render(); },
    }, t("table.log"));
    // The bot speed only where a bot plays (a people-only table has no bot to pace;
    // a seat a leaver left to a bot brings it back).
    const hasBots = info.seats.some((seat) => seat.kind === "bot");
    const settingTools = [
      hasBots ? h("label", { class: "speed", for: "table-speed" }, h("span", {}, t("table.speed")), speed) : null,
      h("label", { class: "toggle", for: "hints-toggle" },
        h("input", { type: "checkbox", id: "hints-toggle", checked: settings().hints,
          onchange: (e) => { saveSetting("hints", e.target.checked); this.render(); } }), " ", t("table.hints")),
    ];
    // A phone's head has room for the game and the deal only: the bot speed
    // and the hints switch go to the panel that the Moves button opens.
    this.narrow = window.matchMedia(NARROW).matches;
    this.section.append(h("header", { class: "table-head" },
      h("h1", {}, h("span", { class: "game-name" }, t(`game.${info.preset}`)), h("span", { class: "deal-info" }, `\u00a0·\u00a0${dealText}`, targetText)),
      h("div", { class: "table-tools" },
        this.narrow ? null : settingTools,
        movesToggle,
        h("span", { class: "connection", hidden: this.online, role: "status" }, t("table.connection")),
        h("a", { href: "#/", class: "small-button lobby-link" }, t("table.backToLobby")))));

    const side = h("aside", { class: `side${this.sideOpen ? " open" : ""}`, id: "side", "aria-label": t("table.log") },
      this.narrow ? h("div", { class: "side-tools" }, settingTools) : null,
      h("h2", {}, t("table.score")), standingsList(match, info, this.me),
      this.fair.commitmentLine(state),
      h("h2", { id: "moves-title" }, t("table.log")),
      this.renderMoves(state, info));
    // A finished deal is shown before the next one: its showdown replaces the board
    // until the person presses Next deal (bots wait for that too).
    let front;
    if (match.over) front = this.renderMatchEnd(state);
    else if (showingShowdown) front = this.renderShowdown(last, info);
    else front = this.renderBoard(obs, info, legal, sort);
    if (front.id && !this.shownFront) play("chime");
    this.section.append(h("div", { class: "layout" }, front, side));
    this.fit();
    if (movesScroll !== undefined) this.section.querySelector("#moves").scrollTop = movesScroll;
    if (front.id && !this.shownFront) {
      this.shownFront = true;
      front.querySelector("button.primary")?.focus({ preventScroll: true });
      if (match.over) celebrate(front, match.winners.includes(this.me));
    } else if (!front.id && (this.shownFront || !this.boardFocused)) {
      // After Deal or Next deal, focus goes to the hand: the cards are one keypress away.
      this.shownFront = false;
      this.boardFocused = true;
      if (this.section.querySelector(".hand")) {
        this.focusHand();
        return this.finishRender();
      }
    }
    if (handHadFocus) this.focusHand();
    return this.finishRender();
  }

  finishRender() {
    this.animate();
  }

  /** Card sizes that use the room the table has now (the hand, the piles, the melds). */
  fit() {
    fitTable(this.section);
    if (!this.sizeWatch && window.ResizeObserver) {
      // The table's box also changes with no window resize: a friends' panel
      // appearing under it, the header wrapping. The cards follow.
      this.sizeWatch = new ResizeObserver(() => fitTable(this.section));
      this.sizeWatch.observe(this.section);
    }
    if (!this.resizeWatch) {
      this.resizeWatch = () => {
        if (window.matchMedia(NARROW).matches !== this.narrow) this.render();
        else fitTable(this.section);
      };
      window.addEventListener("resize", this.resizeWatch);
    }
  }

  /**
   * The Moves list: every finished deal's record and the current deal's, from
   * the server's state (so it is whole after a reload), one list per deal
   * under a "Deal n" heading, numbered from 1 in each deal.
   */
  renderMoves(state, info) {
    const taken = state.taken_cards || [];
    const deals = (state.deal_histories || []).map((history, i) => ({ number: i + 1, history, over: true }));
    if (!state.match.over) deals.push({ number: state.match.deal_number, history: state.observation.history || [], over: state.observation.phase === "over" });
    // A deal's last move is a draw from the pile only when it reached gin's pile_draw_limit (it took nothing).
    const limit = info.rules.gin?.pile_draw_limit || 0;
    const pileLimit = (over, history, index) => (over && index === history.length - 1 ? limit : 0);
    const box = h("div", { class: "log", id: "moves", role: "log", tabindex: "0", "aria-labelledby": "moves-title" },
      deals.map(({ number, history, over }) => h("section", { class: "log-deal", "data-deal": String(number) },
        h("h3", { class: "log-deal-title" }, t("table.deal", { n: number })),
        history.length
          ? h("ol", { class: "moves" }, movesWithTakes(history, taken[number - 1]).map(([seat, action, card], index) =>
            h("li", { class: seat === this.me ? "mine" : null },
              h("strong", {}, seatName(info, seat, this.me)), " ",
              describeAction(action, { takenCard: card, you: seat === this.me, ...declineWords(info, index, state.observation.players), pileLimit: pileLimit(over, history, index) }))))
          : h("p", { class: "log-empty" }, t("table.noMoves")))));
    // Keep the newest move in view after every render.
    requestAnimationFrame(() => { box.scrollTop = box.scrollHeight; });
    return box;
  }

  renderBoard(obs, info, legal, sort) {
    const board = h("div", { class: "board" });
    board.append(this.renderOpponents(obs, info, this.state.match));
    board.append(this.renderPiles(obs, legal));
    board.append(this.renderTableMelds(obs, info, legal));
    const status = h("p", { class: `status-line${this.message ? ` ${this.message.kind}` : ""}`, id: "status-line", role: "status", "aria-live": "polite" }, this.statusText(obs, info, legal));
    if (this.me !== null) board.append(this.renderMe(obs, legal, sort, status));
    else board.append(h("div", { class: "me watching" }, status));
    return board;
  }

  statusText(obs, info, legal) {
    if (this.message) return this.message.text;
    if (this.me === null) return t("status.noSeat");
    if (obs.current_seat === null || obs.current_seat === undefined) return "";
    const up = obs.up_card ? pretty(obs.up_card) : "";
    if (obs.current_seat !== this.me) {
      const name = seatName(info, obs.current_seat, this.me);
      return obs.phase === "offer" ? t("table.offerWaiting", { name, card: up }) : t("table.waiting", { name });
    }
    if (obs.phase === "offer") {
      // Whose offer it is: the first (the non-dealer's) or the second, after a pass.
      const passer = (this.me + obs.players - 1) % obs.players;
      return obs.offer_passes ? t("table.offerYouAfterPass", { name: seatName(info, passer, this.me), card: up }) : t("table.offerYou", { card: up });
    }
    // Gin's wall under wall_knock: cards are left in the stock, the discard is only for a knock.
    if (atWall(obs, legal)) return t(legal.pile ? "table.wallKnock" : "table.wallPass", { n: obs.stock_count });
    if (legal.decline) return t("table.yourTurnDecline");
    if (legal.stock && !legal.pile && offersUpCard(info) && obs.offer_passes >= obs.players && obs.turn === obs.players + 1) return t("table.stockOnly");
    if (legal.stock || legal.pile) return t("table.yourTurnDraw");
    if (info.rules.capabilities.table_play) return t("table.yourTurnMeld");
    const one = this.selected.size === 1 ? [...this.selected][0] : null;
    if (one && this.state.knock_deadwood[one] !== undefined) {
      return `${t("table.yourTurnDiscard")} ${t("table.knockWith", { card: pretty(one), n: this.state.knock_deadwood[one] })}`;
    }
    if (!legal.discard.size && legal.knock.size) return t("table.wallKnockChoose");
    return t("table.yourTurnDiscard");
  }

  renderOpponents(obs, info, match) {
    const seats = [];
    for (let i = 1; i <= obs.players; i += 1) {
      const seat = this.me === null ? i - 1 : (this.me + i) % obs.players;
      if (seat === this.me) continue;
      seats.push(seat);
    }
    const four = settings().fourColour;
    const boxes = seats.map((seat) => {
      const size = obs.hand_sizes[seat];
      const fan = h("div", { class: "fan", "aria-hidden": "true" });
      for (let i = 0; i < Math.min(size, 11); i += 1) fan.append(h("div", { class: "card face-down mini" }, cardBack()));
      const taken = obs.taken_discards[seat] || [];
      const playing = obs.current_seat === seat;
      // The seat's latest step of this deal, in words (bots are followed step by step).
      const moves = movesWithTakes(obs.history || [], (this.state.taken_cards || [])[match.deal_number - 1]);
      const lastIndex = moves.findLastIndex(([mover]) => mover === seat);
      const lastStep = lastIndex >= 0 ? moves[lastIndex] : null;
      const bot = info.seats[seat]?.kind === "bot";
      return h("div", { class: `opponent${playing ? " playing" : ""}`, "data-seat": String(seat), role: "group", "aria-label": seatLabel(info, seat, this.me) },
        h("div", { class: "opponent-head" },
          h("strong", { class: "seat-name" }, seatName(info, seat, this.me)),
          bot ? h("span", { class: "level" }, t(`difficulty.${info.seats[seat].bot}`)) : null,
          obs.dealer === seat ? h("span", { class: "chip", title: t("table.dealer") }, "D") : null,
          playing ? h("span", { class: "chip playing-chip" }, t("table.toPlay")) : null),
        h("div", { class: "opponent-body" },
          fan,
          h("span", { class: "hand-count" }, tn("table.cards", size)),
          h("span", { class: "score" }, formatAmount(match.totals[seat], { sign: true }))),
        h("div", { class: "last-step" }, lastStep ? describeAction(lastStep[1], { takenCard: lastStep[2], ...declineWords(info, lastIndex, obs.players),
          pileLimit: obs.phase === "over" && lastIndex === moves.length - 1 ? info.rules.gin?.pile_draw_limit || 0 : 0 }) : "\u00a0"),
        taken.length ? h("div", { class: "taken" }, h("span", { class: "taken-label" }, t("table.taken", { cards: "" })),
          h("span", { class: "taken-cards" }, taken.map((c) => { const n = cardElement(c, { fourColour: four, lang: lang() }); n.classList.add("tiny"); return n; }))) : null);
    });
    // Around the table (wide screens, table.css): the next seat to play sits on
    // your left, then across, then on your right; elsewhere the sides are one row.
    const places = seatPlaces(seats.length);
    const side = (place) => h("div", { class: `seat-side ${place}` }, boxes.filter((_, i) => places[i] === place));
    return h("div", { class: `opponents seats-${seats.length}` }, side("left"), side("top"), side("right"));
  }

  renderPiles(obs, legal) {
    const four = settings().fourColour;
    const stock = h("button", {
      type: "button", class: `pile stock${legal.stock ? " live" : ""}`, id: "stock", disabled: !legal.stock,
      onclick: () => this.command("stock"),
    }, h("span", { class: "visually-hidden" }, t("table.drawStockLead")),
    obs.stock_count ? h("div", { class: "card face-down" }, cardBack()) : h("div", { class: "card empty" }),
    h("span", { class: "count" }, String(obs.stock_count)));
    const top = obs.discard_pile[obs.discard_pile.length - 1];
    const under = obs.discard_pile.slice(-3, -1);
    const pileCards = h("div", { class: "discard-stack" },
      under.map((c) => { const n = cardElement(c, { fourColour: four, lang: lang() }); n.classList.add("under"); n.setAttribute("aria-hidden", "true"); return n; }),
      top ? cardElement(top, { fourColour: four, lang: lang() }) : h("div", { class: "card empty" }, t("table.discardEmpty")));
    const pile = h("button", {
      type: "button", class: `pile discard${legal.pile ? " live" : ""}`, id: "discard-pile", disabled: !legal.pile,
      onclick: () => this.command("pile"),
    }, h("span", { class: "visually-hidden" }, t(top ? "table.takeDiscardLead" : "table.discard")), pileCards);
    return h("div", { class: "piles" },
      h("figure", {}, stock, h("figcaption", {}, t("table.stock"),
        obs.recycled_stock && obs.exhaustions ? h("span", { class: "recycled" }, ` · ${t("table.recycled", { n: obs.exhaustions })}`) : null)),
      h("figure", {}, pile, h("figcaption", {}, t("table.discard"))),
      // Beside the up-card it comes from: Oklahoma's limit (and double) in force.
      oklahomaNote(obs, this.state.table));
  }

  renderTableMelds(obs, info, legal) {
    if (!info.rules.capabilities.table_play) {
      return h("div", { class: "table-melds hidden-melds" }, h("p", { class: "rule-hint" }, t(`table.hiddenMelds.${info.rules.family}`, { n: obs.knock_limit ?? info.rules.knock_limit })));
    }
    const one = this.selected.size === 1 ? [...this.selected][0] : null;
    const targets = new Set(one && legal.layoff.has(one) ? legal.layoff.get(one) : []);
    const count = (obs.table || []).length;
    return h("div", { class: "table-melds", id: "table-melds", tabindex: count ? "0" : null, role: "region", "aria-label": t("table.melds") },
      h("h2", { class: "melds-title" }, t("table.melds"), count ? h("span", { class: "meld-count" }, ` (${count})`) : null),
      tableMelds(obs, info, this.me, { targets, onTarget: (index) => this.act(`layoff ${one} ${index}`) }));
  }

  get handOrder() {
    return this._handOrder || [];
  }

  renderMe(obs, legal, sortButton, status) {
    const four = settings().fourColour;
    const arrangement = this.state.arrangement;
    const order = settings().sort;
    const groups = [];
    const seen = new Set();
    if (arrangement) {
      for (const meld of arrangement.melds) {
        groups.push({ kind: "meld", cards: meld });
        meld.forEach((c) => seen.add(c));
      }
    }
    const rest = sortCards(obs.hand.filter((c) => !seen.has(c)), order);
    if (rest.length) groups.push({ kind: "deadwood", cards: rest });
    if (this.customOrder) {
      // The person's own order (dragged): kept cards where they were put, new ones at the end.
      const inHand = new Set(obs.hand);
      const kept = this.customOrder.filter((c) => inHand.has(c));
      const fresh = groups.flatMap((g) => g.cards).filter((c) => !kept.includes(c));
      this.customOrder = [...kept, ...fresh];
      groups.length = 0;
      groups.push({ kind: "custom", cards: this.customOrder });
    }
    this._handOrder = groups.flatMap((g) => g.cards);
    this.cursor = Math.max(0, Math.min(this.cursor, this._handOrder.length - 1));
    const myTurn = obs.current_seat === this.me;
    let index = 0;
    const hand = h("div", {
      class: "hand", role: "listbox", tabindex: "0", "aria-multiselectable": "true",
      "aria-label": t("table.handAria", { n: obs.hand.length }),
      "aria-activedescendant": this._handOrder.length ? `hand-card-${this._handOrder[this.cursor]}` : null,
      onkeydown: (e) => this.handKeys(e),
    }, groups.map((group) => h("div", { class: `hand-group is-${group.kind}` }, group.cards.map((card) => {
      const position = index;
      index += 1;
      const node = cardElement(card, { fourColour: four, lang: lang() });
      node.id = `hand-card-${card}`;
      node.setAttribute("role", "option");
      node.setAttribute("aria-selected", this.selected.has(card) ? "true" : "false");
      if (this.selected.has(card)) node.classList.add("selected");
      if (position === this.cursor) node.classList.add("cursor");
      if (obs.drawn_card === card) node.classList.add("drawn");
      if (obs.taken_discard === card && myTurn) node.classList.add("taken-card");
      if (myTurn && legal.layoff.has(card)) node.classList.add("fits");
      node.addEventListener("pointerdown", (event) => this.startDrag(event, node, card));
      node.addEventListener("click", () => {
        if (this.justDragged) return;
        // A second tap or click on the same card soon after discards it (when
        // that is legal now). The first one re-rendered the hand, so the two
        // clicks land on different nodes: the time is kept here, not by dblclick.
        const now = Date.now();
        const again = this.lastTap && this.lastTap.card === card && now - this.lastTap.time < DOUBLE_TAP_MS;
        this.lastTap = again ? null : { card, time: now };
        if (again && legalIndex(this.state.legal_actions).discard.has(card)) {
          this.selected = new Set([card]);
          this.command("discard");
          return;
        }
        this.cursor = position;
        this.toggle(card);
        this.render();
        this.focusHand();
      });
      return node;
    }))));
    // Melds, lay-offs and joker swaps are actions of this game (its family says so).
    const tablePlay = this.state.table.rules.capabilities.table_play;
    const chosen = [...this.selected];
    const one = chosen.length === 1 ? chosen[0] : null;
    const button = (name, label, enabled, extra = "") => h("button", {
      type: "button", class: `action ${extra}`, id: `btn-${name}`, disabled: !enabled || this.busy,
      onclick: () => this.command(name), "aria-keyshortcuts": Object.keys(KEYS).find((k) => KEYS[k] === name)?.toUpperCase(),
    }, label);
    // Only the actions of this moment are offered (at most four): drawing, or
    // what may follow a draw. A button waits, disabled, for the card it needs.
    const buttons = [];
    const drawing = legal.stock || legal.pile || legal.decline;
    if (myTurn && drawing) {
      if (legal.stock || !legal.decline) buttons.push(button("stock", t("btn.draw"), legal.stock));
      buttons.push(button("pile", t("btn.take"), legal.pile));
      // Passing the first up-card (standard gin's offer) is the same action as declining.
      if (legal.decline) buttons.push(button("decline", t(obs.phase === "offer" || atWall(obs, legal) ? "btn.pass" : "btn.decline"), true));
    } else if (myTurn) {
      if (tablePlay) {
        buttons.push(button("meld", t("btn.meld"), this.canTryMeld(legal)));
        if (legal.layoff.size) buttons.push(button("layoff", t("btn.layoff"), one && legal.layoff.has(one)));
      }
      if (legal.discard.size) buttons.push(button("discard", t("btn.discard"), one && legal.discard.has(one), "primary"));
      if (!tablePlay && (legal.knock.size || legal.discard.size)) buttons.push(button("knock", t("btn.knock"), one && legal.knock.has(one), "danger"));
      if (legal.undo) buttons.push(button("undo", t("btn.undo"), true));
    }
    const hint = settings().hints ? h("button", {
      type: "button", class: "small-button hint-button", id: "btn-hint", disabled: !myTurn || this.busy,
      onclick: () => this.command("hint"),
    }, t("btn.hint")) : null;
    const deadwood = arrangement ? arrangement.deadwood : null;
    return h("div", { class: `me${myTurn ? " playing" : ""}` },
      status,
      h("div", { class: "hand-head" },
        h("h2", { class: "hand-title" }, t("table.hand")),
        deadwood !== null ? h("span", { class: "deadwood-badge", id: "deadwood" }, t("table.deadwood", { n: deadwood })) : null,
        this.bestKnock(),
        h("span", { class: "score" }, `${t("table.score")} ${formatAmount(this.state.match.totals[this.me], { sign: true })}`),
        h("span", { class: "head-tools" }, hint, sortButton)),
      h("div", { class: "hand-row" },
        hand,
        h("div", { class: "actions", role: "toolbar", "aria-label": t("table.actions") }, buttons)),
      // During the first up-card's offer X passes it (standard gin's word, as on its button).
      h("p", { class: "keys-hint", id: "keys-hint" }, t(tablePlay ? "btn.keys.meld" : obs.phase === "offer" ? "btn.keys.offer" : "btn.keys.knock")));
  }

  bestKnock() {
    const entries = Object.entries(this.state.knock_deadwood || {});
    if (!entries.length) return null;
    entries.sort((a, b) => a[1] - b[1]);
    return h("span", { class: "hint-badge" }, t("table.bestKnock", { card: pretty(entries[0][0]), n: entries[0][1] }));
  }

  renderShowdown(last, info) {
    const panel = h("section", { class: "showdown", id: "showdown", "aria-labelledby": "showdown-title" },
      // The deal's end is a banner with Next deal beside it, on screen without scrolling (phones too).
      dealBanner(last.observation, info, this.me, last.number,
        h("button", { type: "button", class: "primary big", id: "btn-next", onclick: () => this.continueDeal() }, t("btn.continue"))),
      h("div", { class: "showdown-scroll" },
        showdownBody(last.observation, info, this.me, last.number, { outcome: false }),
        this.fair.badge(last),
        h("div", { class: "showdown-foot" },
          standingsList(this.state.match, info, this.me),
          ledgerTable(this.state.match, info, this.me))));
    return panel;
  }

  renderMatchEnd(state) {
    const info = state.table;
    const match = state.match;
    const winners = match.winners.map((s) => seatName(info, s, this.me));
    let headline;
    if (match.winners.length === 1 && match.winners[0] === this.me) headline = t("end.you");
    else if (match.winners.length === 1) headline = t("end.winner", { names: winners[0] });
    else headline = t("end.winners", { names: winners.join(", ") });
    const last = state.last_deal;
    const youWon = match.winners.includes(this.me);
    return h("section", { class: `showdown match-end${youWon ? " won" : ""}`, id: "match-end", "aria-labelledby": "end-title" },
      h("div", { class: "end-banner" },
        h("div", { class: "trophy", "aria-hidden": "true" }, youWon ? "★" : "♠"),
        h("div", { class: "end-words" },
          h("h2", { id: "end-title" }, t("end.title")),
          h("p", { class: "headline" }, headline),
          info.rated && this.me !== null && this.me !== undefined ? this.ratingLine() : null),
        // Play again comes right under the result, above the long score tables.
        h("div", { class: "dialog-buttons end-buttons" },
          h("button", { type: "button", class: "primary big", id: "btn-again", onclick: () => playAgain() }, t("btn.playAgain")),
          h("a", { class: "small-button", href: `#/replay/${this.tableId}` }, t("history.watch")))),
      h("div", { class: "showdown-scroll" },
        this.fair.badge(last),
        h("div", { class: "end-figures" },
          matchSummary(match, info, this.me, state.deal_histories || []),
          ledgerTable(match, info, this.me)),
        // The last deal's hands: shown where the screen has room for them, a click away on a phone.
        last ? h("details", { class: "last-deal", open: window.innerWidth >= 900 && window.innerHeight >= 700 },
          h("summary", {}, t("show.titleDeal", { n: last.number })), showdownBody(last.observation, info, this.me, last.number)) : null));
  }

  /**
   * The seat's rating change, filled in once the server has rated the match,
   * and under it what a provisional "?" means (how many rated matches are left).
   */
  ratingLine() {
    const line = h("p", { class: "rating-change", id: "rating-change", "aria-live": "polite" });
    const note = h("p", { class: "rating-note", id: "rating-note", hidden: true });
    fillRatingChange(line, note, this.tableId, this.me);
    return [line, note];
  }

  animate() {
    const event = this.lastEvent;
    this.lastEvent = null;
    const before = this.cardsBefore;
    this.cardsBefore = null;
    if (reducedMotion()) return;
    // A card new to the hand comes from the stock; one new on the pile or the
    // table comes from the opponent who just played it.
    const opponent = event && event.seat !== this.me ? `.opponent[data-seat="${event.seat}"]` : null;
    const tookPile = opponent && event.kind === "draw_discard";
    animateFrom(before, this.section, { stock: "#stock", opponent, taker: tookPile ? opponent : null });
    if (!opponent) return;
    const box = this.section.querySelector(opponent);
    box?.classList.add("flash");
    // An opponent's draw from the stock: a face-down card travels to their box
    // (one from the pile travels face up, in animateFrom).
    if (event.kind === "draw_stock") {
      const stock = this.section.querySelector("#stock .card") || this.section.querySelector("#stock");
      if (stock) flyTo(this.section, null, stock.getBoundingClientRect(), box);
    }
  }

}

export { tokenFor };
