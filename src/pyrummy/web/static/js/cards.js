// Playing cards: printed faces served with the page (static/cards, nothing
// from the internet) under a large index of the page's own. A card is its notation: rank A23456789TJQK + suit SHDC ("TH" = 10 of hearts),
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

/** The ink colour of a suit: two colours, or four (♦ blue, ♣ green). */
export function suitColour(suit, fourColour) {
  if (!fourColour) return suit === "H" || suit === "D" ? "red" : "black";
  return { S: "black", H: "red", D: "blue", C: "green" }[suit];
}

// The faces are the Vectorized Playing Cards of Chris Aguilar (LGPL-3.0,
// static/cards/LICENSE), one SVG file a card. Their own corner indices are
// small for a phone, so the page crops each face to its pips or court
// picture (this box of the file, which leaves both corner indices out) and
// writes a large index of its own in a gutter beside it: the index never
// meets a pip, whatever the card's size.
const ART_BOX = "33 18 156 277";
const ART_SIZE = { width: 224.2, height: 312.8 };
const CARDS_URL = "/static/cards";
// The four-colour deck recolours the printed faces: red becomes blue for
// diamonds and black becomes green for clubs (white stays white).
const FILTERS = {
  "to-blue": "0 0 1 0 0  0 1 0 0 0  1 0 0 0 0  0 0 0 1 0",
  "to-green": "1 0 0 0 0  0 0.58 0 0 0.42  0 0 1 0 0  0 0 0 1 0",
};

function ensureFilters() {
  if (typeof document === "undefined" || document.getElementById("card-filters")) return;
  const svg = el("svg", { id: "card-filters", width: 0, height: 0, "aria-hidden": "true", focusable: "false" });
  svg.classList.add("card-filters");
  for (const [id, values] of Object.entries(FILTERS)) {
    const filter = el("filter", { id, "color-interpolation-filters": "sRGB" });
    filter.append(el("feColorMatrix", { type: "matrix", values }));
    svg.append(filter);
  }
  document.body.append(svg);
}

function index(rankText, suitText) {
  const span = document.createElement("span");
  span.className = "idx";
  span.setAttribute("aria-hidden", "true");
  const rank = document.createElement("span");
  rank.className = `idx-rank${rankText.length > 1 ? " wide" : ""}`;
  rank.textContent = rankText;
  const suit = document.createElement("span");
  suit.className = "idx-suit";
  suit.textContent = suitText;
  span.append(rank, suit);
  return span;
}

/** The face of `card`: its index and its picture (an HTML fragment for a `.card`). */
export function cardFace(card, { fourColour = false } = {}) {
  const face = document.createElement("span");
  face.className = "face";
  face.setAttribute("aria-hidden", "true");
  if (isJoker(card)) {
    // The jokers of Rotham Rummy are the page's own: a star and the word.
    face.classList.add("joker");
    face.append(index("★", card.slice(1)));
    const svg = el("svg", { viewBox: "0 0 60 90", class: "art", focusable: "false" });
    svg.append(el("text", { x: 30, y: 46, "text-anchor": "middle", class: "joker-star", "font-size": 40 }, "★"));
    svg.append(el("text", { x: 30, y: 74, "text-anchor": "middle", class: "joker-word", "font-size": 11 }, "JOKER"));
    face.append(svg);
    return face;
  }
  const rank = rankOf(card);
  const suit = suitOf(card);
  const colour = suitColour(suit, fourColour);
  face.classList.add(colour);
  face.append(index(rank === "T" ? "10" : rank, SYMBOL[suit]));
  const svg = el("svg", { viewBox: ART_BOX, class: "art", focusable: "false" });
  const image = el("image", { href: `${CARDS_URL}/${rank}${suit}.svg`, width: ART_SIZE.width, height: ART_SIZE.height });
  if (fourColour && (suit === "D" || suit === "C")) {
    ensureFilters();
    image.setAttribute("filter", `url(#${suit === "D" ? "to-blue" : "to-green"})`);
  }
  svg.append(image);
  face.append(svg);
  return face;
}

/** The back of a card (the stock, hidden hands). */
export function cardBack() {
  const img = document.createElement("img");
  img.className = "back-art";
  img.src = `${CARDS_URL}/back.svg`;
  img.alt = "";
  img.draggable = false;
  img.setAttribute("aria-hidden", "true");
  return img;
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
