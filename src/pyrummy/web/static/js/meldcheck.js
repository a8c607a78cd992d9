// Why the chosen cards are not a meld, worked out in the page so an invalid
// meld is explained at once with no request: the same reasoning as
// pyrummy.core.melds.explain_meld, with its limits and its sentences taken
// from the core (meld_facts.js is generated from it); the server still
// decides every move. tests/web/test_web_meldcheck.py compares the two.

import { isJoker, pretty, RANKS } from "./cards.js";
import { MIN_MELD, MAX_SET, MAX_RUN, ACE_ORDER, RANK_DISPLAY, WORDS } from "./meld_facts.js";

const rank = (card) => RANKS.indexOf(card.slice(0, -1));
const suit = (card) => card.slice(-1);
const show = (cards) => cards.map(pretty).join(" ");

function windowStarts(length, ace) {
  if (length > MAX_RUN || length < 1) return [];
  const end = ace === "low" ? 14 - length : ace === "high_or_low" ? 15 - length : 13;
  return Array.from({ length: Math.max(0, end) }, (_, i) => i);
}

function readings(ranks, length, ace) {
  const found = [];
  for (const start of windowStarts(length, ace)) {
    const offsets = ranks.map((r) => (((r - start) % 13) + 13) % 13);
    if (offsets.every((o) => o < length)) found.push({ start, offsets });
  }
  return found;
}

function preferred(found) {
  return found.reduce((best, r) => {
    const a = Math.min(...r.offsets);
    const b = Math.min(...best.offsets);
    return a < b || (a === b && r.start < best.start) ? r : best;
  });
}

function inGivenOrder(cards, ace) {
  const indexed = cards.map((c, i) => [i, c]).filter(([, c]) => !isJoker(c));
  if (!indexed.length || cards.length > MAX_RUN) return false;
  const [firstIndex, first] = indexed[0];
  const start = (((rank(first) - firstIndex) % 13) + 13) % 13;
  if (!windowStarts(cards.length, ace).includes(start)) return false;
  return indexed.every(([i, c]) => suit(c) === suit(first) && rank(c) === (start + i) % 13);
}

function explainRun(cards, reals, ace) {
  const length = cards.length;
  if (length > MAX_RUN) return ["run_too_long"];
  if (length > reals.length && inGivenOrder(cards, ace)) return null;
  const ranks = reals.map(rank);
  if (readings(ranks, length, ace).length) return null;
  for (const looser of ACE_ORDER.slice(ACE_ORDER.indexOf(ace) + 1)) {
    const found = readings(ranks, length, looser);
    if (found.length) {
      const reading = preferred(found);
      const names = Array.from({ length }, (_, i) => RANK_DISPLAY[(reading.start + i) % 13]).join("-");
      return [looser === "high_or_low" ? "ace_low" : "no_corner", { ranks: names }];
    }
  }
  let cover = null;
  for (let width = ranks.length; width <= MAX_RUN && !cover; width += 1) {
    const found = readings(ranks, width, ace);
    if (found.length) cover = preferred(found);
  }
  const width = Math.max(...cover.offsets) + 1;
  const present = new Set(cover.offsets);
  const missing = [];
  for (let i = 0; i < width; i += 1) if (!present.has(i)) missing.push(RANKS[(cover.start + i) % 13] + suit(reals[0]));
  const ordered = reals.map((c, i) => [cover.offsets[i], c]).sort((a, b) => a[0] - b[0]).map(([, c]) => c);
  const shown = show([...ordered, ...cards.filter(isJoker)]);
  if (length > reals.length) return ["gap_jokers", { cards: shown, missing: show(missing) }];
  return [missing.length === 1 ? "gap" : "gaps", { cards: shown, missing: show(missing) }];
}

function explainMixed(cards, reals) {
  const ranks = reals.map(rank);
  const distinctRanks = new Set(ranks).size === reals.length;
  const distinctSuits = new Set(reals.map(suit)).size === reals.length;
  if (distinctRanks) {
    // Name every real problem: 2♠ 6♠ A♣ is out of sequence as well as mixed in suit (as the core does).
    const low = [...ranks].sort((a, b) => a - b);
    const high = ranks.map((r) => (r === 0 ? 13 : r)).sort((a, b) => a - b);
    const span = Math.min(low[low.length - 1] - low[0], high[high.length - 1] - high[0]) + 1;
    return span <= cards.length ? ["suits_differ"] : ["not_in_sequence", { cards: show(cards) }];
  }
  if (distinctSuits) return ["ranks_differ"];
  return ["neither", { cards: show(cards) }];
}

function check(cards, ace) {
  const seen = new Set();
  for (const card of cards) {
    if (seen.has(card)) return ["duplicate", { card: pretty(card) }];
    seen.add(card);
  }
  const reals = cards.filter((c) => !isJoker(c));
  if (cards.length < MIN_MELD) {
    if (reals.length === 2 && suit(reals[0]) === suit(reals[1])) return ["run_too_few"];
    if (reals.length === 2 && rank(reals[0]) === rank(reals[1])) return ["set_too_few"];
    return ["too_few"];
  }
  if (!reals.length) return ["jokers_only"];
  if (new Set(reals.map(rank)).size === 1) return cards.length > MAX_SET ? ["set_too_many"] : null;
  if (new Set(reals.map(suit)).size === 1) return explainRun(cards, reals, ace);
  return explainMixed(cards, reals);
}

/** The reason the cards (in the order chosen) are not a meld, or null if they are one. */
export function explainMeld(cards, ace = "low", lang = "en") {
  const result = check(cards, ace);
  if (!result) return null;
  const [key, values = {}] = result;
  const template = (WORDS[lang] || WORDS.en)[key];
  return template.replace(/\{(\w+)\}/g, (_, name) => values[name]);
}
