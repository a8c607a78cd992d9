// Small self-made sounds (scripts/make_sounds.py), off until the person turns
// them on; the choice is remembered in this browser.

import { settings } from "./settings.js";

const cache = {};

/** Play "card", "knock" or "chime" if sound is on (a blocked play is ignored). */
export function play(name) {
  if (!settings().sound) return;
  const audio = cache[name] || (cache[name] = new Audio(`/static/sounds/${name}.wav`));
  audio.currentTime = 0;
  audio.play().catch(() => {});
}

/** The sound of an action in text form ("knock 7H" knocks, others slide a card). */
export function soundOf(action) {
  const head = action.split(" ")[0];
  if (head === "knock") return "knock";
  if (["draw", "discard", "meld", "layoff", "swap-joker"].includes(head)) return "card";
  return null;
}
