// Card movement: after a render, a card that changed place (hand -> discard
// pile, pile -> hand, hand -> a meld on the table) glides from where it was,
// and a card new to the board glides in from where it came (the stock, or the
// opponent who played it). The page is already in its new state when this
// starts: the animation only moves pixels (Web Animations, transform only),
// so it never delays or blocks a click. Nothing moves under
// prefers-reduced-motion.

import { cardElement } from "./cards.js";
import { reducedMotion } from "./dom.js";

const ZONES = [
  [".hand", "hand"],
  [".discard-stack", "pile"],
  [".melds", "melds"],
];
const DURATION = 240;

function cardsOf(root) {
  const found = new Map();
  const board = root.querySelector(".board");
  if (!board) return found;
  for (const [selector, zone] of ZONES) {
    for (const area of board.querySelectorAll(selector)) {
      for (const node of area.querySelectorAll(".card[data-card]")) {
        if (!found.has(node.dataset.card)) found.set(node.dataset.card, { node, zone });
      }
    }
  }
  return found;
}

/** Where each face-up card of the board is now (call before re-rendering). */
export function snapshotCards(root) {
  const places = new Map();
  for (const [card, { node, zone }] of cardsOf(root)) {
    // A card still on its way keeps going after the re-render, from where it is now.
    const running = node.getAnimations().find((a) => a.playState === "running" && a.id === "glide");
    const left = running ? DURATION - Number(running.currentTime || 0) : 0;
    places.set(card, { zone, rect: node.getBoundingClientRect(), left });
  }
  return places;
}

function glide(node, from, to, scaled, duration = DURATION) {
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return null;
  const scale = scaled && from.width && to.width ? from.width / to.width : 1;
  return node.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(${scale})` }, { transform: "none" }],
    { duration, easing: "cubic-bezier(.2,.7,.3,1)", id: "glide" },
  );
}

/**
 * Move the cards that changed zone since `before`. `sources` names where a
 * card new to the board comes from: `stock` (a selector) for a card new in
 * the hand, `opponent` (a selector) for one new on the pile or the table;
 * `taker` (a selector) is the opponent who took the pile's top card.
 * Returns the number of cards set moving.
 */
export function animateFrom(before, root, sources = {}) {
  if (!before || reducedMotion()) return 0;
  let moving = 0;
  const board = cardsOf(root);
  for (const [card, { node, zone }] of board) {
    const was = before.get(card);
    const to = node.getBoundingClientRect();
    let from = null;
    let scaled = false;
    let duration = DURATION;
    if (was && was.zone !== zone) {
      from = was.rect;
      scaled = true;
    } else if (was && was.left > 20) {
      from = was.rect;
      duration = was.left;
    }
    else if (!was && before.size) {
      const selector = zone === "hand" ? sources.stock : sources.opponent;
      const origin = selector ? root.querySelector(selector) : null;
      if (origin) {
        from = origin.getBoundingClientRect();
        scaled = origin.classList.contains("card") || !!origin.querySelector(":scope > .card");
      }
    }
    const animation = from ? glide(node, from, to, scaled, duration) : null;
    if (animation) {
      node.classList.add("moving");
      moving += 1;
      animation.finished.then(() => node.classList.remove("moving"), () => {});
    }
  }
  // The pile card an opponent took leaves the board: it flies to their box.
  const taker = sources.taker ? root.querySelector(sources.taker) : null;
  if (taker) {
    for (const [card, { zone, rect }] of before) {
      if (zone === "pile" && !board.has(card)) moving += flyTo(root, card, rect, taker);
    }
  }
  return moving;
}

/**
 * A card that has no place on the page after the move (an opponent's hand is
 * face down) travels over the page from `from` (a rect) to the `to` element
 * and vanishes: face up when the table saw it (`card`), face down otherwise.
 * Returns 1 if it set off, 0 if not.
 */
export function flyTo(root, card, from, to) {
  if (!from || !to || reducedMotion()) return 0;
  const node = cardElement(card, { faceDown: !card });
  node.classList.add("flyer", "moving");
  Object.assign(node.style, {
    left: `${from.left}px`, top: `${from.top}px`, width: `${from.width}px`, height: `${from.height}px`,
  });
  node.setAttribute("aria-hidden", "true");
  root.append(node);
  const aim = (to.querySelector(".fan") || to).getBoundingClientRect();
  const scale = aim.height && from.height ? Math.min(1, aim.height / from.height) : 1;
  const dx = aim.left + aim.width / 2 - (from.left + from.width / 2);
  const dy = aim.top + aim.height / 2 - (from.top + from.height / 2);
  const flight = node.animate(
    [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: 0.6 }],
    { duration: DURATION, easing: "cubic-bezier(.2,.7,.3,1)", id: "glide" },
  );
  flight.finished.then(() => node.remove(), () => node.remove());
  return 1;
}

const CONFETTI = ["♠", "♥", "♦", "♣"];

/**
 * A small celebration at a match's end: suit symbols rain over `root`'s
 * part of the screen for about two seconds and are gone (more of them when
 * the person won). The layer lives on the page's body, so a re-render of the
 * table does not cut it short. Nothing under prefers-reduced-motion.
 * Returns the number of pieces.
 */
export function celebrate(root, won) {
  if (!root || reducedMotion()) return 0;
  const box = root.getBoundingClientRect();
  const layer = document.createElement("div");
  layer.className = "confetti";
  layer.setAttribute("aria-hidden", "true");
  Object.assign(layer.style, { left: `${box.left}px`, top: `${box.top}px`, width: `${box.width}px`, height: `${box.height}px` });
  document.body.append(layer);
  const count = won ? 36 : 14;
  for (let i = 0; i < count; i += 1) {
    const piece = document.createElement("span");
    piece.className = `confetti-piece s${i % 4}`;
    piece.textContent = CONFETTI[i % 4];
    piece.style.left = `${(i * 37) % 100}%`;
    layer.append(piece);
    const drift = ((i * 53) % 80) - 40;
    piece.animate(
      [{ transform: "translate(0, -20px) rotate(0deg)", opacity: 1 }, { transform: `translate(${drift}px, ${Math.round(box.height * 0.8)}px) rotate(${(i % 2 ? 1 : -1) * 300}deg)`, opacity: 0 }],
      { duration: 1400 + ((i * 97) % 900), delay: (i * 45) % 600, easing: "cubic-bezier(.3,.6,.5,1)", fill: "both" },
    );
  }
  setTimeout(() => layer.remove(), 3200);
  return count;
}
