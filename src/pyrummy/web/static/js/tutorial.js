// The first-time guided deal of Knock Rummy (#/learn): one staged two-player
// deal in which a coach says what to draw, what to throw and when to knock.
// The deal is fixed (tutorial_deal.js, checked against the rules core by the
// tests), so it runs in the page with no table on the server. It can be
// skipped at any step; finishing or skipping it is remembered per browser.

import { h, clear } from "./dom.js";
import { lang } from "./i18n.js";
import { cardElement, cardBack, pretty, sortCards } from "./cards.js";
import { fitTable } from "./fit.js";
import { settings } from "./settings.js";
import { animateFrom, snapshotCards } from "./motion.js";
import { TUTORIAL_DEAL as DEAL } from "./tutorial_deal.js";

const SEEN_KEY = "pyrummy.tutorial";
const MELDS = [["5H", "6H", "7H"], ["9C", "9D", "9S"], ["AC", "2C", "3C"]];
const BOT_MELDS = [["JH", "JC", "JD"], ["4C", "5C", "6C"]];

export const WORDS = {
  en: {
    title: "Guided deal: Knock Rummy",
    skip: "Skip the guided deal",
    step: "Step {n} of {m}",
    you: "You",
    bot: "Bot",
    hand: "Your hand",
    handAria: "Your hand, {n} cards",
    deadwood: "Deadwood {n}",
    stockLabel: "Stock",
    pileLabel: "Discard pile",
    drawStock: "Draw from the stock",
    takeDiscard: "Take the top discard",
    btnDraw: "Draw",
    btnTake: "Take discard",
    btnDiscard: "Discard",
    btnKnock: "Knock",
    cards: "{n} cards",
    draw: "These are your 10 cards. Cards in a meld count nothing: a run is 3 or more cards in a row of one suit (5♥ 6♥ 7♥), a set is 3 or 4 of one rank. Everything else is deadwood: ace 1, 2 to 10 as marked, J Q K 10 each. Your deadwood is {dealt}. A turn starts with a draw; the 10♥ on the pile fits nothing of yours, so draw from the stock.",
    drawWrong: "The 10♥ fits none of your cards: draw from the stock this time.",
    discard: "The 9♠ joined your 9♣ 9♦: three nines are a set, and your deadwood fell to {afterDraw}. Now give one card back face up. Throw your highest deadwood: select the K♠, then press Discard.",
    discardWrong: "Throw the K♠: it is worth 10 and fits nothing. Select it, then press Discard.",
    take: "Your deadwood is {afterDiscard}. The bot drew from the stock and threw the A♣. The A♣ makes a run with your 2♣ 3♣, so take it from the discard pile.",
    takeWrong: "The A♣ on the pile makes A♣ 2♣ 3♣: take the discard instead of drawing blind.",
    knock: "A♣ 2♣ 3♣ is a run: deadwood {afterTake}, only the Q♠ and the 4♦ are left over. Knock now: give back the Q♠ face down. The deal ends at once, both hands are shown, and whoever has less deadwood wins the difference. Select the Q♠, then press Knock.",
    knockWrong: "Knock with the Q♠ (worth 10), so only the 4♦ (worth 4) stays as your deadwood: select the Q♠, then press Knock.",
    show: "The showdown: your deadwood is {afterKnock}, the bot's is {bot}. You knocked with the lowest deadwood, so the bot pays you the difference: {bot} − {afterKnock} = {payment}. Had the bot had less than you, it would have won the difference and 10 more; knocking with 0 (going rum) wins 25 more.",
    showYou: "You knocked: deadwood {n}",
    showBot: "Bot: deadwood {n}",
    result: "Bot pays you {n}",
    done: "That is the whole game: draw, throw your worst card, knock when your deadwood is low. You can play this deal again from the lobby or the rules.",
    play: "Play Knock Rummy against a bot",
    lobby: "Back to the lobby",
    offer: "New here? A guided deal (2 min)",
    again: "Guided deal (Knock Rummy)",
    laidAside: "face down",
  },
  ru: {
    title: "Учебная сдача: Нок-рамми",
    skip: "Пропустить учебную сдачу",
    step: "Шаг {n} из {m}",
    you: "Вы",
    bot: "Бот",
    hand: "Ваши карты",
    handAria: "Ваши карты: {n}",
    deadwood: "Остаток {n}",
    stockLabel: "Колода",
    pileLabel: "Сброс",
    drawStock: "Взять из колоды",
    takeDiscard: "Взять верхнюю карту сброса",
    btnDraw: "Взять из колоды",
    btnTake: "Взять из сброса",
    btnDiscard: "Сбросить",
    btnKnock: "Постучать",
    cards: "Карт: {n}",
    draw: "Это ваши 10 карт. Карты в комбинациях очков не стоят: стрит — 3 и больше карт одной масти подряд (5♥ 6♥ 7♥), сет — 3 или 4 карты одного достоинства. Остальные карты — остаток: туз 1, от 2 до 10 по номиналу, валет, дама и король по 10. Сейчас ваш остаток {dealt}. Ход начинается с того, что вы берёте карту; 10♥ в сбросе вам ни к чему, поэтому возьмите карту из колоды.",
    drawWrong: "10♥ не подходит ни к одной вашей карте: в этот раз возьмите карту из колоды.",
    discard: "9♠ легла к 9♣ 9♦: три девятки — это сет, и остаток стал {afterDraw}. Теперь отдайте одну карту в открытую. Сбросьте самую дорогую лишнюю карту: выберите K♠ и нажмите «Сбросить».",
    discardWrong: "Сбросьте K♠: он стоит 10 и ни к чему не подходит. Выберите его и нажмите «Сбросить».",
    take: "Ваш остаток {afterDiscard}. Бот взял карту из колоды и сбросил A♣. A♣ вместе с вашими 2♣ 3♣ — стрит, поэтому возьмите его из сброса.",
    takeWrong: "A♣ в сбросе составляет A♣ 2♣ 3♣: возьмите его, а не карту из колоды вслепую.",
    knock: "A♣ 2♣ 3♣ — стрит: остаток {afterTake}, лишние только Q♠ и 4♦. Теперь постучите: отдайте Q♠ рубашкой вверх. Сдача сразу кончается, обе руки открываются, и у кого остаток меньше, тот получает разницу. Выберите Q♠ и нажмите «Постучать».",
    knockWrong: "Стучите дамой пик (10 очков), тогда в остатке будет только 4♦ (4 очка): выберите Q♠ и нажмите «Постучать».",
    show: "Вскрытие: ваш остаток {afterKnock}, у бота {bot}. Вы постучали, и остаток у вас меньше всех, поэтому бот платит вам разницу: {bot} − {afterKnock} = {payment}. Будь у бота меньше, чем у вас, разницу и ещё 10 получил бы он; а кто стучит с нулевым остатком (рум), получает ещё 25.",
    showYou: "Вы постучали: остаток {n}",
    showBot: "Бот: остаток {n}",
    result: "Бот платит вам {n}",
    done: "Вот и вся игра: берёте карту, сбрасываете худшую, стучите, когда остаток мал. Эту сдачу можно сыграть ещё раз из лобби или из правил.",
    play: "Сыграть в Нок-рамми с ботом",
    lobby: "Вернуться в лобби",
    offer: "Впервые? Учебная сдача (2 мин)",
    again: "Учебная сдача (Нок-рамми)",
    laidAside: "рубашкой вверх",
  },
};

const PHASES = ["draw", "discard", "take", "knock", "show"];

export function say(key, values = {}) {
  const table = WORDS[lang()] || WORDS.en;
  const template = table[key] ?? WORDS.en[key];
  return template.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? DEAL.deadwood[name] ?? DEAL[name] ?? `{${name}}`));
}

/** "done" or "skipped" once the person finished or skipped the guided deal; null before. */
export function tutorialSeen() {
  try {
    return localStorage.getItem(SEEN_KEY);
  } catch (_) {
    return null;
  }
}

export function markTutorial(value) {
  try {
    localStorage.setItem(SEEN_KEY, value);
  } catch (_) {
    // remembered for this page only
  }
}

function groups(cards, melds) {
  const inHand = new Set(cards);
  const result = [];
  const used = new Set();
  for (const meld of melds) {
    if (meld.every((c) => inHand.has(c))) {
      result.push({ kind: "meld", cards: meld });
      meld.forEach((c) => used.add(c));
    }
  }
  const rest = sortCards(cards.filter((c) => !used.has(c)), "suit");
  if (rest.length) result.push({ kind: "deadwood", cards: rest });
  return result;
}

export class TutorialView {
  constructor(root, { onPlay } = {}) {
    this.root = root;
    this.onPlay = onPlay;
    this.phase = "draw";
    this.hand = [...DEAL.hand];
    this.pile = [DEAL.upcard];
    this.stock = DEAL.stockCount;
    this.botCount = DEAL.botHand.length;
    this.selected = null;
    this.cursor = 0;
    this.hint = null;
    this.drawn = null;
    this.section = h("section", { class: "table-view tutorial", "aria-labelledby": "tutorial-title" });
    // One screen, as at a table: the page does not scroll (table.css).
    document.body.classList.add("on-table");
    root.append(this.section);
    this.render();
    this.section.querySelector(".coach")?.focus({ preventScroll: true });
  }

  destroy() {
    document.body.classList.remove("on-table");
    this.section.remove();
  }

  relabel() {
    this.render();
  }

  deadwood() {
    return {
      draw: DEAL.deadwood.dealt,
      discard: DEAL.deadwood.afterDraw,
      take: DEAL.deadwood.afterDiscard,
      knock: DEAL.deadwood.afterTake,
      show: DEAL.deadwood.afterKnock,
    }[this.phase];
  }

  /** Every move the person tries: the expected one moves the deal on, any other is coached. */
  attempt(move) {
    const expected = { draw: "stock", discard: `discard ${DEAL.yourDiscard}`, take: "pile", knock: `knock ${DEAL.yourKnock}` }[this.phase];
    if (move !== expected) {
      this.hint = `${this.phase}Wrong`;
      this.render();
      return;
    }
    const before = snapshotCards(this.section);
    this.hint = null;
    this.selected = null;
    if (this.phase === "draw") {
      this.hand.push(DEAL.stockTop);
      this.drawn = DEAL.stockTop;
      this.stock -= 1;
      this.phase = "discard";
    } else if (this.phase === "discard") {
      this.hand = this.hand.filter((c) => c !== DEAL.yourDiscard);
      this.pile.push(DEAL.yourDiscard);
      // The bot's turn, at once (nothing waits on it): it draws the A♣ and throws it.
      this.stock -= 1;
      this.pile.push(DEAL.botDiscards);
      this.drawn = null;
      this.phase = "take";
    } else if (this.phase === "take") {
      this.hand.push(this.pile.pop());
      this.drawn = DEAL.botDiscards;
      this.phase = "knock";
    } else if (this.phase === "knock") {
      this.hand = this.hand.filter((c) => c !== DEAL.yourKnock);
      this.drawn = null;
      this.phase = "show";
      markTutorial("done");
    }
    this.cursor = Math.min(this.cursor, this.hand.length - 1);
    this.render();
    animateFrom(before, this.section, { stock: "#tutorial-stock", opponent: ".opponent" });
    const focus = this.phase === "show" ? this.section.querySelector("#tutorial-play") : this.section.querySelector(".hand");
    focus?.focus({ preventScroll: true });
  }

  select(card) {
    this.selected = this.selected === card ? null : card;
    this.hint = null;
    this.render();
    this.section.querySelector(".hand")?.focus({ preventScroll: true });
  }

  handKeys(event, order) {
    if (event.key === "ArrowRight" || event.key === "ArrowDown") this.cursor = Math.min(order.length - 1, this.cursor + 1);
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") this.cursor = Math.max(0, this.cursor - 1);
    else if (event.key === "Home") this.cursor = 0;
    else if (event.key === "End") this.cursor = order.length - 1;
    else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.select(order[this.cursor]);
      return;
    } else return;
    event.preventDefault();
    this.render();
    this.section.querySelector(".hand")?.focus({ preventScroll: true });
  }

  render() {
    const four = settings().fourColour;
    const step = PHASES.indexOf(this.phase) + 1;
    clear(this.section);
    this.section.dataset.phase = this.phase;
    const skip = h("button", { type: "button", class: "small-button", id: "tutorial-skip",
      onclick: () => { markTutorial(tutorialSeen() === "done" ? "done" : "skipped"); location.hash = "#/"; } }, say("skip"));
    this.section.append(h("header", { class: "table-head" },
      h("h1", { id: "tutorial-title" }, say("title"), h("span", { class: "deal-info" }, ` · ${say("step", { n: step, m: PHASES.length })}`)),
      this.phase === "show" ? null : skip));
    const coachText = this.hint ? say(this.hint) : say(this.phase);
    const coach = h("div", { class: `coach${this.hint ? " wrong" : ""}`, id: "coach", role: "status", "aria-live": "polite", tabindex: "-1" },
      h("p", {}, coachText));
    const board = h("div", { class: "board" });
    if (this.phase === "show") {
      board.append(coach, this.renderShowdown(four));
      this.section.append(board);
      return;
    }
    const fan = h("div", { class: "fan", "aria-hidden": "true" });
    for (let i = 0; i < this.botCount; i += 1) fan.append(h("div", { class: "card face-down mini" }, cardBack()));
    board.append(h("div", { class: "opponents" },
      h("div", { class: "opponent", "data-seat": "1", role: "group", "aria-label": say("bot") },
        h("div", { class: "opponent-head" }, h("strong", {}, say("bot"))),
        fan,
        h("div", { class: "opponent-foot" }, h("span", {}, say("cards", { n: this.botCount }))))));
    const top = this.pile[this.pile.length - 1];
    const canDraw = this.phase === "draw" || this.phase === "take";
    const stock = h("button", { type: "button", class: `pile stock${this.phase === "draw" ? " live" : ""}`, id: "tutorial-stock", disabled: !canDraw,
      onclick: () => this.attempt("stock") },
    h("span", { class: "visually-hidden" }, say("drawStock")),
    h("div", { class: "card face-down" }, cardBack()), h("span", { class: "count" }, String(this.stock)));
    const under = this.pile.slice(-3, -1).map((c) => {
      const n = cardElement(c, { fourColour: four, lang: lang() });
      n.classList.add("under");
      n.setAttribute("aria-hidden", "true");
      return n;
    });
    const pile = h("button", { type: "button", class: `pile discard${this.phase === "take" ? " live" : ""}`, id: "tutorial-pile", disabled: !canDraw,
      onclick: () => this.attempt("pile") },
    h("span", { class: "visually-hidden" }, say("takeDiscard")),
    h("div", { class: "discard-stack" }, under, cardElement(top, { fourColour: four, lang: lang() })));
    board.append(h("div", { class: "middle" }, h("div", { class: "piles" },
      h("figure", {}, stock, h("figcaption", {}, say("stockLabel"))),
      h("figure", {}, pile, h("figcaption", {}, say("pileLabel"))))));
    board.append(this.renderHand(four, coach));
    this.section.append(board);
    fitTable(this.section);
  }

  renderHand(four, coach) {
    const parts = groups(this.hand, MELDS);
    const order = parts.flatMap((g) => g.cards);
    this.cursor = Math.max(0, Math.min(this.cursor, order.length - 1));
    let index = 0;
    const hand = h("div", {
      class: "hand", role: "listbox", tabindex: "0", "aria-label": say("handAria", { n: this.hand.length }),
      "aria-activedescendant": `tutorial-card-${order[this.cursor]}`,
      onkeydown: (e) => this.handKeys(e, order),
    }, parts.map((group) => h("div", { class: `hand-group is-${group.kind}` }, group.cards.map((card) => {
      const position = index;
      index += 1;
      const node = cardElement(card, { fourColour: four, lang: lang() });
      node.id = `tutorial-card-${card}`;
      node.setAttribute("role", "option");
      node.setAttribute("aria-selected", this.selected === card ? "true" : "false");
      if (this.selected === card) node.classList.add("selected");
      if (position === this.cursor) node.classList.add("cursor");
      if (this.drawn === card) node.classList.add("drawn");
      node.addEventListener("click", () => { this.cursor = position; this.select(card); });
      return node;
    }))));
    const button = (id, label, enabled, move, extra = "") => h("button", {
      type: "button", class: `action ${extra}`, id, disabled: !enabled, onclick: () => this.attempt(move()),
    }, label);
    const choosing = this.phase === "discard" || this.phase === "knock";
    const canDraw = this.phase === "draw" || this.phase === "take";
    return h("div", { class: "me playing" },
      coach,
      h("div", { class: "hand-head" },
        h("h2", {}, say("hand")),
        h("span", { class: "deadwood-badge", id: "tutorial-deadwood" }, say("deadwood", { n: this.deadwood() }))),
      hand,
      h("div", { class: "actions", role: "toolbar", "aria-label": "actions" },
        button("tutorial-draw", say("btnDraw"), canDraw, () => "stock"),
        button("tutorial-take", say("btnTake"), canDraw, () => "pile"),
        button("tutorial-discard", say("btnDiscard"), choosing && this.selected, () => `discard ${this.selected}`, "primary"),
        button("tutorial-knock", say("btnKnock"), choosing && this.selected, () => `knock ${this.selected}`, "danger")));
  }

  renderShowdown(four) {
    const row = (cards, melds) => h("div", { class: "hand static-hand" }, groups(cards, melds).map((group) => h("div", { class: `hand-group is-${group.kind}` },
      group.cards.map((card) => cardElement(card, { fourColour: four, lang: lang() })))));
    return h("section", { class: "showdown tutorial-showdown", id: "tutorial-showdown", "aria-labelledby": "tutorial-result" },
      h("h2", { id: "tutorial-result" }, say("result", { n: DEAL.payment })),
      h("h3", {}, say("showYou", { n: DEAL.deadwood.afterKnock }), h("span", { class: "muted" }, ` · ${pretty(DEAL.yourKnock)} ${say("laidAside")}`)),
      row(this.hand, MELDS),
      h("h3", {}, say("showBot", { n: DEAL.deadwood.bot })),
      row(DEAL.botHand, BOT_MELDS),
      h("p", {}, say("done")),
      h("div", { class: "dialog-buttons end-buttons" },
        h("button", { type: "button", class: "primary big", id: "tutorial-play", onclick: () => this.onPlay?.() }, say("play")),
        h("a", { class: "small-button", href: "#/" }, say("lobby"))));
  }
}

/**
 * The lobby's offer of the guided deal, a link beside the Deal button (never
 * above it): worded as an offer on a first visit, as a plain link once the
 * guided deal was seen or skipped, and gone once this browser has finished a
 * match (the Knock Rummy rules keep their link to it).
 */
export function tutorialOffer({ played = false } = {}) {
  if (played) return null;
  if (tutorialSeen()) return h("a", { href: "#/learn", id: "tutorial-again", class: "side-link" }, say("again"));
  return h("a", { href: "#/learn", id: "tutorial-start", class: "side-link offer" }, say("offer"));
}

