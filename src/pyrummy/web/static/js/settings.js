// Page settings remembered on this device: deck colours, hand order, bot speed.

const KEY = "pyrummy.settings";
const DEFAULTS = { fourColour: false, sort: "suit", speed: "server", hints: false, sound: false };
export const SPEEDS = { slow: 1.6, normal: 0.8, fast: 0.3, instant: 0 };

export function settings() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || "{}") };
  } catch (_) {
    return { ...DEFAULTS };
  }
}

export function saveSetting(name, value) {
  const all = settings();
  all[name] = value;
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch (_) {
    // not remembered in private mode
  }
  document.body.classList.toggle("four-colour", !!all.fourColour);
}

export function speedName(delay) {
  let best = "normal";
  let distance = Infinity;
  for (const [name, value] of Object.entries(SPEEDS)) {
    if (Math.abs(value - delay) < distance) {
      distance = Math.abs(value - delay);
      best = name;
    }
  }
  return best;
}
