// The lobby: choose a game, the bots and the match length, then Deal.
// Knock Rummy is preselected with two easy bots, so a newcomer can press
// Deal at once (the stronger bots often knock on their first turns).

import { h, clear } from "./dom.js";
import { t, tn, lang } from "./i18n.js";
import { formatDate } from "./format.js";
import { api, saveToken, knownTables, forgetToken } from "./api.js";
import { settings, saveSetting, SPEEDS } from "./settings.js";
import { GAME_ORDER } from "./rules_text.js";
import { friendsEntry } from "./room.js";
import { tutorialOffer } from "./tutorial.js";

const MAIN_GAMES = ["knock", "rummy", "gin"];
const LAST_KEY = "pyrummy.lastGame";
const TARGETS = [50, 100, 150, 200, 250, 300];
// Pay per point plays a fixed number of deals: one round of dealers ("round") or these.
const DEAL_COUNTS = [1, 2, 3, 4, 6, 8, 10, 12];
const BASIC_OPTIONS = [
  ["multiple_melds", "bool"],
  ["going_rummy", ["none", "double", "plus10"]],
  ["layoff_after_own_meld", "bool"],
  ["ace", ["low", "high_or_low", "around_the_corner"]],
  ["last_discard_required", "bool"],
  ["stock_end", ["turn_over", "shuffle", "reuse_limit", "block"]],
  ["scoring", ["winner_collects", "penalty", "pay_per_point"]],
];
const BASIC_DEFAULTS = {
  multiple_melds: false, going_rummy: "none", layoff_after_own_meld: false, ace: "low",
  last_discard_required: false, stock_end: "turn_over", scoring: "winner_collects",
};

let presetCache = null;
let live = [];

function lastGame() {
  try {
    return JSON.parse(localStorage.getItem(LAST_KEY) || "null");
  } catch (_) {
    return null;
  }
}

/** Create a table from a lobby choice and open it. */
export async function startGame(choice) {
  const result = await api.createTable({
    preset: choice.preset,
    options: choice.options,
    bots: choice.bots,
    humans: 1,
    // No choice made here: the server's own --bot-delay applies.
    ...(SPEEDS[choice.speed] !== undefined ? { bot_delay: SPEEDS[choice.speed] } : {}),
    ...(choice.seed !== undefined ? { seed: choice.seed } : {}),
  });
  try {
    localStorage.setItem(LAST_KEY, JSON.stringify({ ...choice, seed: undefined }));
  } catch (_) {
    // remembered for this page only
  }
  saveToken(result.table.id, result.token, { preset: choice.preset });
  location.hash = `#/table/${result.table.id}`;
}

export async function playAgain() {
  const choice = lastGame();
  if (choice) await startGame(choice);
  else location.hash = "#/";
}

export async function renderLobby(root) {
  live = [];
  const heading = h("h1", {}, t("lobby.title"));
  const status = h("p", { class: "status-line", role: "status", "aria-live": "polite" });
  // A first visit is offered the guided Knock Rummy deal; later, a plain link to it.
  root.append(h("section", { class: "lobby" }, heading, tutorialOffer(), status, friendsEntry()));
  try {
    presetCache = presetCache || (await api.presets());
  } catch (error) {
    status.textContent = t("status.error", { message: error.message });
    return;
  }
  const presets = Object.fromEntries(presetCache.presets.map((p) => [p.name, p]));
  const previous = lastGame();
  const state = {
    preset: previous?.preset && presets[previous.preset] ? previous.preset : "knock",
    bots: previous?.bots?.length ? [...previous.bots] : ["easy", "easy"],
    length: previous?.length ?? "default",
    options: { ...BASIC_DEFAULTS, ...(previous?.basic || {}) },
    speed: settings().speed,
  };
  const form = h("form", { class: "lobby-form", onsubmit: (e) => { e.preventDefault(); submit(); } });
  root.querySelector(".lobby").append(form);

  function limits(name) {
    const p = presets[name];
    return [Math.max(1, p.min_players - 1), p.max_players - 1];
  }

  function gameChoice(name) {
    const id = `game-${name}`;
    return h("label", { class: "game-choice", for: id },
      h("input", { type: "radio", name: "game", id, value: name, checked: state.preset === name,
        onchange: () => { state.preset = name; state.length = "default"; draw(); } }),
      h("span", { class: "game-title" }, t(`game.${name}`)),
      h("span", { class: "game-blurb" }, t(`blurb.${name}`)),
      h("a", { href: `#/rules/${name}`, class: "rules-link" }, t("lobby.rulesLink", { game: t(`game.${name}`) })),
    );
  }

  function lengthControl(name) {
    const p = presets[name];
    const players = state.bots.length + 1;
    if (p.match_end === "dealer_round") {
      const select = h("select", { id: "match-length", onchange: (e) => { state.length = e.target.value; } },
        h("option", { value: "default" }, t("lobby.round", { n: players })),
        h("option", { value: "one" }, t("lobby.oneDeal")),
        h("option", { value: "two" }, t("lobby.twoRounds", { n: players * 2 })));
      select.value = ["default", "one", "two"].includes(state.length) ? state.length : "default";
      return h("label", { class: "field", for: "match-length" }, h("span", {}, t("lobby.length")), select);
    }
    if (p.match_end === "deals") return h("p", { class: "fixed-length" }, t("lobby.sixDeals"));
    if (name === "basic" && state.options.scoring === "pay_per_point") {
      const select = h("select", { id: "match-length", "aria-describedby": "deals-hint", onchange: (e) => { state.length = e.target.value; } },
        h("option", { value: "round" }, t("lobby.round", { n: players })),
        DEAL_COUNTS.map((n) => h("option", { value: `deals-${n}` }, tn("lobby.deals", n))));
      if (!(state.length === "round" || /^deals-\d+$/.test(state.length))) state.length = "round";
      select.value = state.length;
      return h("label", { class: "field", for: "match-length" }, h("span", {}, t("lobby.length")), select,
        h("span", { class: "muted", id: "deals-hint" }, t("lobby.dealsHint")));
    }
    const select = h("select", { id: "match-length", onchange: (e) => { state.length = e.target.value; } },
      TARGETS.map((n) => h("option", { value: String(n) }, t("lobby.target", { n }))));
    select.value = TARGETS.includes(Number(state.length)) ? state.length : String(p.target);
    if (!TARGETS.includes(Number(state.length))) state.length = String(p.target);
    return h("label", { class: "field", for: "match-length" }, h("span", {}, t("lobby.length")), select);
  }

  function optionControls() {
    if (state.preset !== "basic") return null;
    return h("fieldset", { class: "options" }, h("legend", {}, t("lobby.options")),
      BASIC_OPTIONS.map(([name, kind]) => {
        const id = `opt-${name}`;
        if (kind === "bool") {
          return h("label", { class: "check", for: id },
            h("input", { type: "checkbox", id, checked: !!state.options[name], onchange: (e) => { state.options[name] = e.target.checked; } }),
            " ", t(`opt.${name}`));
        }
        // The scoring decides how a match ends (pay per point: a number of deals), so it redraws.
        const select = h("select", { id, onchange: (e) => { state.options[name] = e.target.value; if (name === "scoring") { draw(); form.querySelector("#opt-scoring")?.focus(); } } },
          kind.map((v) => h("option", { value: v }, t(`opt.${name}.${v}`))));
        select.value = state.options[name];
        return h("label", { class: "field", for: id }, h("span", {}, t(`opt.${name}`)), select);
      }));
  }

  function botControls() {
    const [low, high] = limits(state.preset);
    while (state.bots.length < low) state.bots.push("easy");
    if (state.bots.length > high) state.bots.length = high;
    const count = h("select", { id: "bot-count", onchange: (e) => {
      const n = Number(e.target.value);
      while (state.bots.length < n) state.bots.push("easy");
      state.bots.length = n;
      draw();
    } });
    for (let n = low; n <= high; n += 1) count.append(h("option", { value: String(n) }, String(n)));
    count.value = String(state.bots.length);
    const levels = state.bots.map((level, i) => {
      const id = `bot-${i}`;
      const select = h("select", { id, onchange: (e) => { state.bots[i] = e.target.value; } },
        presetCache.bots.map((b) => h("option", { value: b }, t(`difficulty.${b}`))));
      select.value = level;
      return h("label", { class: "field", for: id }, h("span", {}, t("lobby.bot", { n: i + 1 })), select);
    });
    return h("fieldset", { class: "bots" }, h("legend", {}, t("lobby.bots")),
      h("label", { class: "field", for: "bot-count" }, h("span", {}, t("lobby.botsCount")), count),
      h("div", { class: "bot-levels" }, levels));
  }

  function speedControl() {
    const select = h("select", { id: "bot-speed", onchange: (e) => { state.speed = e.target.value; saveSetting("speed", state.speed); } },
      h("option", { value: "server" }, t("speed.server")),
      Object.keys(SPEEDS).map((s) => h("option", { value: s }, t(`speed.${s}`))));
    select.value = SPEEDS[state.speed] !== undefined ? state.speed : "server";
    return h("label", { class: "field", for: "bot-speed" }, h("span", {}, t("settings.speed")), select);
  }

  function seedControl() {
    if (!presetCache.allow_seed) return null;
    return h("label", { class: "field", for: "seed" }, h("span", {}, t("lobby.seed")),
      h("input", { id: "seed", type: "number", min: "0", inputmode: "numeric", value: state.seed ?? "",
        oninput: (e) => { state.seed = e.target.value === "" ? undefined : Number(e.target.value); } }));
  }

  function resumeList() {
    // Only games still in progress; the newest one is offered at the top instead.
    const mine = live.slice(1, 6);
    if (!mine.length) return null;
    return h("aside", { class: "resume" }, h("h2", {}, t("lobby.resumeList")),
      h("ul", {}, mine.map(({ id, state: s }) => h("li", {},
        h("a", { href: `#/table/${id}` }, resumeText(s))))));
  }

  function draw() {
    clear(form);
    const more = GAME_ORDER.filter((g) => !MAIN_GAMES.includes(g));
    const details = h("details", { class: "more-variants", open: more.includes(state.preset) },
      h("summary", {}, t("lobby.more")),
      h("div", { class: "game-list" }, more.map(gameChoice)));
    const parts = [
      h("fieldset", { class: "games" }, h("legend", {}, t("lobby.game")),
        h("div", { class: "game-list" }, MAIN_GAMES.map(gameChoice)), details),
      optionControls(),
      botControls(),
      h("fieldset", { class: "length" }, h("legend", {}, t("lobby.length")), lengthControl(state.preset), speedControl(), seedControl()),
      h("div", { class: "deal-row" }, h("button", { type: "submit", class: "primary big", id: "deal-button" }, t("lobby.deal"))),
      resumeList(),
    ];
    form.append(...parts.filter(Boolean));
  }

  async function submit() {
    const p = presets[state.preset];
    const players = state.bots.length + 1;
    let options = {};
    if (p.match_end === "dealer_round") {
      if (state.length === "one") options = { match_end: "deals", deals: 1 };
      else if (state.length === "two") options = { match_end: "deals", deals: players * 2 };
    } else if (state.preset === "basic" && state.options.scoring === "pay_per_point") {
      // deals 0 is one full round of dealers (the rules' default for pay per point).
      options = { deals: state.length.startsWith("deals-") ? Number(state.length.slice(6)) : 0 };
    } else if (p.match_end !== "deals") {
      options = { target: Number(state.length) || p.target };
    }
    if (state.preset === "basic") {
      for (const [name] of BASIC_OPTIONS) {
        if (state.options[name] !== BASIC_DEFAULTS[name]) options[name] = state.options[name];
      }
    }
    const button = form.querySelector("#deal-button");
    button.disabled = true;
    try {
      await startGame({ preset: state.preset, options, bots: state.bots, speed: state.speed, length: state.length, basic: state.options, seed: state.seed });
    } catch (error) {
      status.textContent = t("status.error", { message: error.message });
      button.disabled = false;
    }
  }

  draw();
  // Games of this browser still in progress, newest first; finished or vanished
  // ones are forgotten. The newest gets a Continue button above the form, so a
  // closed tab's game is one click away in the first screen.
  const checks = await Promise.all(knownTables().map((m) => api.state(m.id)
    .then((s) => ({ id: m.id, saved: m.saved || 0, state: s }))
    .catch((e) => { if (e.status === 404) forgetToken(m.id); return null; })));
  live = checks.filter((c) => c && c.state.table.status !== "over").sort((a, b) => b.saved - a.saved);
  for (const c of checks) if (c && c.state.table.status === "over") forgetToken(c.id);
  if (live.length) {
    const newest = live[0];
    const banner = h("section", { class: "resume-banner", "aria-labelledby": "resume-title" },
      h("div", {}, h("h2", { id: "resume-title" }, t("lobby.resume")), h("p", {}, resumeText(newest.state))),
      h("button", { type: "button", class: "primary big", id: "continue-game", onclick: () => { location.hash = `#/table/${newest.id}`; } },
        t("lobby.resumeButton")));
    heading.after(banner);
    draw();
  }
}

function resumeText(state) {
  return t("lobby.resumeWhat", {
    game: t(`game.${state.table.preset}`),
    n: state.match.deal_number,
    when: formatDate(state.table.created_at, lang()),
  });
}
