// Playing cards drawn as SVG by the page itself (no images, nothing downloaded).
// A card is its notation: rank A23456789TJQK + suit SHDC ("TH" = 10 of hearts),
// or X1-X3 for the jokers of Rotham Rummy.

const SVG_NS = "http://www.w3.org/2000/svg";
export const SUITS = "SHDC";
export const RANKS = "A23456789TJQK";
const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAMES = {
  en: { S: "spades", H: "hearts", D: "diamonds", C: "clubs" },
  ru: { S: "пики", H: "червы", D: "бубны", C: "трефы" },
};
const RANK_NAMES = {
  en: { A: "ace", J: "jack", Q: "queen", K: "king", T: "10" },
  ru: { A: "туз", J: "валет", Q: "дама", K: "король", T: "10" },
};

export function isJoker(card) {
  return card.startsWith("X");
}

export function rankOf(card) {
  return isJoker(card) ? null : card.slice(0, -1);
}

export function suitOf(card) {
  return isJoker(card) ? null : card.slice(-1);
}

export function rankIndex(card) {
  return isJoker(card) ? 13 : RANKS.indexOf(rankOf(card));
}

export function suitIndex(card) {
  return isJoker(card) ? 4 : SUITS.indexOf(suitOf(card));
}

/** Display text: "10♥", "A♠", "🃏1". */
export function pretty(card) {
  // As the core writes it (Card.pretty): the joker's own symbol, which screen
  // readers call "joker" (a star would be read as "black star").
  if (isJoker(card)) return "🃏" + card.slice(1);
  const rank = rankOf(card);
  return (rank === "T" ? "10" : rank) + SYMBOL[suitOf(card)];
}

export function prettyList(cards) {
  return cards.map(pretty).join(" ");
}

/** Spoken name for screen readers: "7 of hearts" / "7, червы". */
export function cardName(card, lang) {
  if (isJoker(card)) return lang === "ru" ? "джокер" : "joker";
  const rank = rankOf(card);
  const rankName = (RANK_NAMES[lang] || RANK_NAMES.en)[rank] || rank;
  const suitName = (SUIT_NAMES[lang] || SUIT_NAMES.en)[suitOf(card)];
  return lang === "ru" ? `${rankName} ${suitName}` : `${rankName} of ${suitName}`;
}

export function sortCards(cards, by) {
  const key = by === "rank"
    ? (c) => rankIndex(c) * 10 + suitIndex(c)
    : (c) => suitIndex(c) * 100 + rankIndex(c);
  return [...cards].sort((a, b) => key(a) - key(b));
}

/** Card value as in deadwood: A 1, 2-10 face, J Q K 10, joker 15. */
export function cardPoints(card, acePoints = 1) {
  if (isJoker(card)) return 15;
  const r = rankIndex(card);
  if (r === 0) return acePoints;
  return Math.min(r + 1, 10);
}

function el(name, attrs = {}, text = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  return node;
}

function suitClass(suit, fourColour) {
  if (!fourColour) return suit === "H" || suit === "D" ? "red" : "black";
  return { S: "black", H: "red", D: "blue", C: "green" }[suit];
}

/** Pip positions (x, y in a 60x84 card) for number cards, classic layout. */
const PIPS = {
  1: [[30, 42]],
  2: [[30, 20], [30, 64]],
  3: [[30, 20], [30, 42], [30, 64]],
  4: [[20, 20], [40, 20], [20, 64], [40, 64]],
  5: [[20, 20], [40, 20], [30, 42], [20, 64], [40, 64]],
  6: [[20, 20], [40, 20], [20, 42], [40, 42], [20, 64], [40, 64]],
  7: [[20, 20], [40, 20], [30, 31], [20, 42], [40, 42], [20, 64], [40, 64]],
  8: [[20, 20], [40, 20], [30, 31], [20, 42], [40, 42], [30, 53], [20, 64], [40, 64]],
  9: [[20, 18], [40, 18], [20, 33], [40, 33], [30, 42], [20, 51], [40, 51], [20, 66], [40, 66]],
  10: [[20, 18], [40, 18], [30, 26], [20, 35], [40, 35], [20, 49], [40, 49], [30, 58], [20, 66], [40, 66]],
};

/** An SVG element for the face of `card`. */
export function cardFace(card, { fourColour = false } = {}) {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg", "aria-hidden": "true", focusable: "false" });
  svg.append(el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 5, class: "card-bg" }));
  if (isJoker(card)) {
    // Drawn with plain glyphs (no emoji font needed): a star and the word.
    svg.classList.add("joker");
    const g = el("g", { class: "ink" });
    g.append(el("text", { x: 30, y: 50, "text-anchor": "middle", class: "pip", "font-size": 30 }, "★"));
    g.append(el("text", { x: 30, y: 72, "text-anchor": "middle", class: "joker-word", "font-size": 8 }, "JOKER"));
    g.append(el("text", { x: 4, y: 14, class: "corner", "font-size": 11 }, pretty(card)));
    svg.append(g);
    return svg;
  }
  const rank = rankOf(card);
  const suit = suitOf(card);
  const colour = suitClass(suit, fourColour);
  svg.classList.add(colour);
  const label = rank === "T" ? "10" : rank;
  const g = el("g", { class: "ink" });
  g.append(el("text", { x: 4, y: 15, class: "corner rank", "font-size": 13 }, label));
  g.append(el("text", { x: 4.5, y: 27, class: "corner suit", "font-size": 11 }, SYMBOL[suit]));
  const bottom = el("g", { transform: "rotate(180 30 42)" });
  bottom.append(el("text", { x: 4, y: 15, class: "corner rank", "font-size": 13 }, label));
  bottom.append(el("text", { x: 4.5, y: 27, class: "corner suit", "font-size": 11 }, SYMBOL[suit]));
  g.append(bottom);
  const r = rankIndex(card);
  if (r >= 10) {
    // Court cards: a framed panel with the letter and the suit.
    g.append(el("rect", { x: 14, y: 16, width: 32, height: 52, rx: 3, class: "court-frame" }));
    g.append(el("text", { x: 30, y: 45, "text-anchor": "middle", class: "court", "font-size": 22 }, rank));
    g.append(el("text", { x: 30, y: 62, "text-anchor": "middle", class: "pip", "font-size": 12 }, SYMBOL[suit]));
  } else if (r === 0) {
    g.append(el("text", { x: 30, y: 52, "text-anchor": "middle", class: "pip", "font-size": 30 }, SYMBOL[suit]));
  } else {
    for (const [x, y] of PIPS[r + 1]) {
      const flip = y > 44 ? ` rotate(180 ${x} ${y - 3.5})` : "";
      g.append(el("text", { x, y: y + 4, "text-anchor": "middle", class: "pip", "font-size": 12, transform: flip.trim() }, SYMBOL[suit]));
    }
  }
  svg.append(g);
  return svg;
}

/** The back of a card (the stock, hidden hands). */
export function cardBack() {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg back", "aria-hidden": "true", focusable: "false" });
  svg.append(el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 5, class: "back-bg" }));
  svg.append(el("rect", { x: 5, y: 5, width: 50, height: 74, rx: 3, class: "back-frame" }));
  for (let i = 0; i < 6; i += 1) {
    svg.append(el("path", { d: `M5 ${12 + i * 12} L30 ${6 + i * 12} L55 ${12 + i * 12}`, class: "back-line" }));
  }
  return svg;
}

/** A card as an HTML element (a button when `interactive`). */
function spoken(text) {
  const span = document.createElement("span");
  span.className = "visually-hidden card-name";
  span.textContent = text;
  return span;
}

export function cardElement(card, { fourColour = false, lang = "en", faceDown = false, tag = "div" } = {}) {
  const node = document.createElement(tag);
  node.className = "card";
  if (faceDown) {
    node.classList.add("face-down");
    node.append(cardBack());
  } else {
    node.dataset.card = card;
    node.append(cardFace(card, { fourColour }));
    // Named by its text ("10♦"), so the name is what the card shows; the drawing is hidden.
    node.append(spoken(pretty(card)));
    node.title = `${pretty(card)} (${cardName(card, lang)})`;
  }
  return node;
}
