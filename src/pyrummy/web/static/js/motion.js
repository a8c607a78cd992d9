// Card movement: after a render, a card that changed place (hand -> discard
// pile, pile -> hand, hand -> a meld on the table) glides from where it was,
// and a card new to the board glides in from where it came (the stock, or the
// opponent who played it). The page is already in its new state when this
// starts: the animation only moves pixels (Web Animations, transform only),
// so it never delays or blocks a click. Nothing moves under
// prefers-reduced-motion.

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
 * the hand, `opponent` (a selector) for one new on the pile or the table.
 * Returns the number of cards set moving.
 */
export function animateFrom(before, root, sources = {}) {
  if (!before || reducedMotion()) return 0;
  let moving = 0;
  for (const [card, { node, zone }] of cardsOf(root)) {
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
  return moving;
}
