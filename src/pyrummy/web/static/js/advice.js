// The page's advice on a knock, in one place: the hint words a suggested
// knock with it and the knock warning asks with it, so the two never
// disagree. It sees only what the seat sees (the deadwood each knock would
// leave, and the cards opponents took from the discard pile).

import { prettyList, pretty } from "./cards.js";
import { seatName } from "./showdown.js";

/** Deadwood from which a knock is called risky: an opponent is often lower. */
export const RISKY_DEADWOOD = 10;

/**
 * What to say about knocking with `card` now: `{ risky, key, values }` (a
 * message key and its values), or null when that knock is not possible.
 * Risky: deadwood of RISKY_DEADWOOD or more, or any deadwood while an
 * opponent holds cards taken from the discard pile (a sign of melds).
 */
export function knockAdvice(state, card) {
  const deadwood = (state.knock_deadwood || {})[card];
  if (deadwood === undefined) return null;
  const values = { card: pretty(card), n: deadwood };
  if (deadwood === 0) return { risky: false, key: "advice.knockGin", values };
  if (deadwood >= RISKY_DEADWOOD) return { risky: true, key: "advice.knockHigh", values: { ...values, limit: RISKY_DEADWOOD } };
  const me = state.seat;
  const taken = state.observation.taken_discards || [];
  for (let seat = 0; seat < taken.length; seat += 1) {
    if (seat !== me && taken[seat].length) {
      return { risky: true, key: "advice.knockTaken", values: { ...values, name: seatName(state.table, seat, me), cards: prettyList(taken[seat]) } };
    }
  }
  return { risky: false, key: "advice.knockLow", values };
}
