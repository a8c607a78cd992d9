// The lobby, which is the landing page: the game to play (the last one
// chosen, Knock Rummy the first time) with one Deal button that starts a table
// at once, in the first screen at every size. The guided deal is offered
// beside that button. Below: "Your games" (this browser's unfinished tables:
// continue or abandon), "Play people" (quick.js), the game and its options
// (the Options button brings them into view), and the entry to a table for friends.
//
// Errors are said next to what caused them (a failed Deal under the Deal
// button, a failed Abandon in its row) and in the page's language; a lobby
// that could not load retries by itself until the server answers.
//
// The guided deal's offer, the friends' entry and the order of the games
// (rules_text.js) come from their own modules, imported once Deal is on the
// screen: the first load waits for none of them.

import { h, clear, reducedMotion } from "./dom.js";
import { t, tn, lang } from "./i18n.js";
import { formatDate } from "./format.js";
import { api, saveToken, knownTables, forgetToken } from "./api.js";
import { settings, saveSetting, SPEEDS } from "./settings.js";
import { cardFace } from "./cards.js";
import { myGames, resignedAt } from "./stats.js";
import { confirmResign, resignTable } from "./resign.js";
import { quickPanel } from "./quick.js";
import { DIFFICULTIES } from "./game_facts.js";
import { GIN_DEFAULT, GIN_RULES, ginRulesFieldset } from "./gin_rules.js";

const MAIN_GAMES = ["knock", "rummy", "gin"];
// Gin is one game in the list with a choice of rules (gin_rules.js): the
// standard ones most players know, unless the person chose the source's.
/** A new player's opponents: the weakest difficulty (the registry lists them weakest first). */
export const FIRST_BOT = DIFFICULTIES[0];
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
// The few cards drawn beside the game's name: a run, a set and a loose card.
const FAN = ["7H", "8H", "9H", "QS", "QD"];
/** How long a lobby that could not reach the server waits before it asks again (ms). */
const RETRY_MS = 3000;

let presetCache = null;

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

/**
 * This browser's unfinished tables, newest first, each with its state as its
 * seat sees it. Finished, vanished and resigned ones are forgotten here.
 */
async function unfinishedTables() {
  const checks = await Promise.all(knownTables().map((m) => {
    if (resignedAt(m.id)) {
      forgetToken(m.id);
      return null;
    }
    return api.state(m.id)
      .then((s) => ({ id: m.id, saved: m.saved || 0, room: m.room || null, state: s }))
      .catch((e) => { if (e.status === 404) forgetToken(m.id); return null; });
  }));
  for (const c of checks) if (c && (c.state.table.status === "over" || c.state.match.over)) forgetToken(c.id);
  return checks.filter((c) => c && c.state.table.status !== "over" && !c.state.match.over).sort((a, b) => b.saved - a.saved);
}

function resumeText(state) {
  return t("lobby.resumeWhat", {
    game: t(`game.${state.table.preset}`),
    n: state.match.deal_number,
    when: formatDate(state.table.created_at, lang()),
  });
}

/** A short message under a control: what went wrong and what to do. */
function fieldError(id) {
  return h("p", { class: "field-error", id, role: "alert", hidden: true });
}

function say(node, text) {
  node.textContent = text || "";
  node.hidden = !text;
}

export async function renderLobby(root) {
  const previous = lastGame();
  const state = {
    preset: previous?.preset || "knock",
    bots: previous?.bots?.length ? [...previous.bots] : [FIRST_BOT, FIRST_BOT],
    length: previous?.length ?? "default",
    options: { ...BASIC_DEFAULTS, ...(previous?.basic || {}) },
    oklahoma: !!previous?.gin?.oklahoma,
    ginRules: GIN_RULES.includes(previous?.preset) ? previous.preset : previous?.gin?.rules,
    speed: settings().speed,
  };
  const played = myGames().length > 0;

  // -- the game to play, in the first screen ----------------------------------------
  const title = h("h1", { id: "play-title" }, t(`game.${state.preset}`));
  const summary = h("p", { class: "play-summary", id: "play-summary" });
  const dealButton = h("button", { type: "submit", form: "lobby-options", class: "primary big", id: "deal-button",
    "aria-describedby": "play-summary deal-error" }, t("lobby.deal"));
  const dealError = fieldError("deal-error");
  const retry = h("button", { type: "button", class: "small-button", id: "lobby-retry", hidden: true, onclick: () => load() }, t("error.retry"));
  const form = h("form", { class: "lobby-form", id: "lobby-options", "aria-labelledby": "options-title", onsubmit: (e) => { e.preventDefault(); submit(e.submitter); } });
  const optionsButton = h("button", { type: "button", class: "side-button", id: "options-button", "aria-controls": "lobby-options",
    onclick: () => {
      form.scrollIntoView({ block: "start", behavior: reducedMotion() ? "auto" : "smooth" });
      form.querySelector("input:checked, input, select")?.focus({ preventScroll: true });
    } }, t("lobby.change"));
  const offerSlot = h("span", { class: "offer-slot" });
  const friendsSlot = h("div", { class: "friends-slot" });
  const fan = h("div", { class: "play-fan", "aria-hidden": "true" },
    FAN.map((card) => h("div", { class: "card fan-card" }, cardFace(card, { fourColour: settings().fourColour }))));
  const hero = h("section", { class: "play-card", "aria-labelledby": "play-title" },
    h("div", { class: "play-main" },
      h("p", { class: "play-kicker" }, t("lobby.play")),
      title, summary,
      h("div", { class: "play-buttons" }, dealButton, optionsButton, offerSlot),
      h("div", { class: "play-error" }, dealError, retry)),
    fan);

  // -- your unfinished games ----------------------------------------------------------
  const gamesList = h("ul", { class: "your-games-list", id: "your-games-list" });
  const yourGames = h("section", { class: "your-games", id: "your-games", "aria-labelledby": "your-games-title", hidden: true },
    h("h2", { id: "your-games-title", tabindex: "-1" }, t("lobby.yourGames")),
    h("p", { class: "muted" }, t("lobby.yourGamesHint")),
    gamesList);

  const quick = quickPanel();
  root.append(h("div", { class: "lobby" }, hero, yourGames, quick.node,
    h("section", { class: "lobby-options", "aria-labelledby": "options-title" },
      h("h2", { id: "options-title" }, t("lobby.choices")), form),
    friendsSlot));
  import("./tutorial.js").then(({ tutorialOffer }) => {
    const offer = tutorialOffer({ played });
    if (offer) offerSlot.replaceWith(offer);
    else offerSlot.remove();
  }, () => {});
  import("./room.js").then(({ friendsEntry }) => friendsSlot.replaceWith(friendsEntry()), () => {});
  dealButton.disabled = true;

  let presets = {};

  function limits(name) {
    const p = presets[name];
    return [Math.max(1, p.min_players - 1), p.max_players - 1];
  }

  /** The match as the hero says it: "You against 2 bots (easy, easy) · Play to 100 points". */
  function describe() {
    const p = presets[state.preset];
    const players = state.bots.length + 1;
    const levels = state.bots.map((b) => t(`difficulty.${b}`)).join(", ");
    const against = tn("lobby.against", state.bots.length, { levels });
    let length;
    if (p.match_end === "dealer_round") {
      length = state.length === "one" ? t("lobby.oneDeal")
        : state.length === "two" ? t("lobby.twoRounds", { n: players * 2 }) : t("lobby.round", { n: players });
    } else if (p.match_end === "deals") {
      length = t("lobby.sixDeals");
    } else if (state.preset === "basic" && state.options.scoring === "pay_per_point") {
      length = state.length.startsWith("deals-") ? tn("lobby.deals", Number(state.length.slice(6))) : t("lobby.round", { n: players });
    } else {
      length = t("lobby.target", { n: Number(state.length) || p.target });
    }
    const house = GIN_RULES.includes(state.preset) && state.oklahoma ? ` · ${t("opt.oklahoma.short")}` : "";
    return `${against} · ${length}${house}`;
  }

  function showChoice() {
    title.textContent = t(`game.${state.preset}`);
    summary.textContent = describe();
    quick.show(state.preset, presets[state.preset]);
  }

  function gameChoice(name) {
    const id = `game-${name}`;
    // Gin stands for both its rule sets (ginControls chooses between them).
    const chosen = state.preset === name || (name === "gin" && GIN_RULES.includes(state.preset));
    return h("label", { class: "game-choice", for: id },
      h("input", { type: "radio", name: "game", id, value: name, checked: chosen,
        onchange: () => {
          state.preset = name === "gin" ? ginRules() : name;
          state.length = "default";
          draw();
          form.querySelector(`#${id}`)?.focus();
        } }),
      h("span", { class: "game-title" }, t(`game.${name}`)),
      h("span", { class: "game-blurb" }, t(`blurb.${chosen ? state.preset : name}`)),
      h("a", { href: `#/rules/${chosen ? state.preset : name}`, class: "rules-link" }, t("lobby.rulesLink", { game: t(`game.${name}`) })),
    );
  }

  /** The gin rules last chosen (the standard ones the first time: what players of other sites expect). */
  function ginRules() {
    return GIN_RULES.includes(state.ginRules) ? state.ginRules : GIN_DEFAULT;
  }

  /** Gin's rules (standard or the source's) and its house rule, Oklahoma. */
  function ginControls() {
    if (!GIN_RULES.includes(state.preset)) return null;
    return ginRulesFieldset({
      presets, preset: state.preset, oklahoma: state.oklahoma,
      onRules: (name) => {
        state.preset = state.ginRules = name;
        draw();
        form.querySelector(`#gin-rules-${name === "gin" ? "source" : "standard"}`)?.focus();
      },
      onOklahoma: (checked) => { state.oklahoma = checked; draw(); form.querySelector("#opt-oklahoma")?.focus(); },
    });
  }

  function lengthControl(name) {
    const p = presets[name];
    const players = state.bots.length + 1;
    const changed = (e) => { state.length = e.target.value; showChoice(); };
    if (p.match_end === "dealer_round") {
      const select = h("select", { id: "match-length", onchange: changed },
        h("option", { value: "default" }, t("lobby.round", { n: players })),
        h("option", { value: "one" }, t("lobby.oneDeal")),
        h("option", { value: "two" }, t("lobby.twoRounds", { n: players * 2 })));
      if (!["default", "one", "two"].includes(state.length)) state.length = "default";
      select.value = state.length;
      return h("label", { class: "field", for: "match-length" }, h("span", {}, t("lobby.length")), select);
    }
    if (p.match_end === "deals") return h("p", { class: "fixed-length" }, t("lobby.sixDeals"));
    if (name === "basic" && state.options.scoring === "pay_per_point") {
      const select = h("select", { id: "match-length", "aria-describedby": "deals-hint", onchange: changed },
        h("option", { value: "round" }, t("lobby.round", { n: players })),
        DEAL_COUNTS.map((n) => h("option", { value: `deals-${n}` }, tn("lobby.deals", n))));
      if (!(state.length === "round" || /^deals-\d+$/.test(state.length))) state.length = "round";
      select.value = state.length;
      return h("label", { class: "field", for: "match-length" }, h("span", {}, t("lobby.length")), select,
        h("span", { class: "muted", id: "deals-hint" }, t("lobby.dealsHint")));
    }
    const select = h("select", { id: "match-length", onchange: changed },
      TARGETS.map((n) => h("option", { value: String(n) }, t("lobby.target", { n }))));
    if (!TARGETS.includes(Number(state.length))) state.length = String(p.target);
    select.value = state.length;
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
    while (state.bots.length < low) state.bots.push(FIRST_BOT);
    if (state.bots.length > high) state.bots.length = high;
    const count = h("select", { id: "bot-count", onchange: (e) => {
      const n = Number(e.target.value);
      while (state.bots.length < n) state.bots.push(FIRST_BOT);
      state.bots.length = n;
      draw();
      form.querySelector("#bot-count")?.focus();
    } });
    for (let n = low; n <= high; n += 1) count.append(h("option", { value: String(n) }, String(n)));
    count.value = String(state.bots.length);
    // A bot that plays only some games (the server's bot_games: null = every game)
    // is offered only for those.
    const players = state.bots.length + 1;
    const plays = (b) => {
      const games = presetCache.bot_games?.[b];
      return !games || games.some((g) => g.preset === state.preset && g.players === players);
    };
    const offered = presetCache.bots.filter(plays);
    const levels = state.bots.map((level, i) => {
      const id = `bot-${i}`;
      const select = h("select", { id, onchange: (e) => { state.bots[i] = e.target.value; showChoice(); } },
        offered.map((b) => h("option", { value: b }, t(`difficulty.${b}`))));
      select.value = offered.includes(level) ? level : FIRST_BOT;
      state.bots[i] = select.value;
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

  function draw() {
    clear(form);
    const more = Object.keys(presets).filter((g) => !MAIN_GAMES.includes(g) && !GIN_RULES.includes(g));
    const details = h("details", { class: "more-variants", open: more.includes(state.preset) },
      h("summary", {}, t("lobby.more")),
      h("div", { class: "game-list" }, more.map(gameChoice)));
    const parts = [
      h("fieldset", { class: "games" }, h("legend", {}, t("lobby.game")),
        h("div", { class: "game-list" }, MAIN_GAMES.map(gameChoice)), details),
      optionControls(),
      ginControls(),
      botControls(),
      h("fieldset", { class: "length" }, h("legend", {}, t("lobby.length")), lengthControl(state.preset), speedControl(), seedControl()),
      h("div", { class: "deal-row" },
        h("button", { type: "submit", class: "primary", id: "deal-chosen", "aria-describedby": "deal-chosen-error" }, t("lobby.dealChosen")),
        fieldError("deal-chosen-error")),
    ];
    form.append(...parts.filter(Boolean));
    showChoice();
  }

  async function submit(submitter) {
    const p = presets[state.preset];
    if (!p) return;
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
    if (GIN_RULES.includes(state.preset) && state.oklahoma) options.oklahoma = true;
    // The error goes next to the button that was pressed.
    const button = submitter && submitter.id === "deal-chosen" ? submitter : dealButton;
    const errorLine = button === dealButton ? dealError : form.querySelector("#deal-chosen-error");
    say(dealError, "");
    say(form.querySelector("#deal-chosen-error"), "");
    button.disabled = true;
    try {
      await startGame({ preset: state.preset, options, bots: state.bots, speed: state.speed, length: state.length, basic: state.options,
        gin: { oklahoma: state.oklahoma, rules: ginRules() }, seed: state.seed });
    } catch (error) {
      button.disabled = false;
      if (error.status === 429) {
        // Too many unfinished tables: the list of them is the way out.
        await tooMany(error, errorLine);
      } else {
        say(errorLine, t("lobby.dealFailed", { message: error.message }));
        // Said because the server could not be reached: unsaid once it answers again.
        if (error.offline) whenServerAnswers(() => say(errorLine, ""));
      }
    }
  }

  async function tooMany(error, errorLine) {
    const live = await showYourGames();
    const limit = Number((String(error.message).match(/\d+/) || [])[0]) || live.length;
    const text = live.length ? t("lobby.tooMany", { n: limit }) : t("lobby.tooManyElsewhere", { n: limit });
    say(errorLine, text);
    if (live.length) {
      yourGames.scrollIntoView({ block: "nearest" });
      yourGames.querySelector("h2").focus({ preventScroll: true });
    }
  }

  function gameRow(game, index) {
    const what = resumeText(game.state);
    const rowError = fieldError(`abandon-error-${game.id}`);
    const row = h("li", { class: "your-game", id: `your-game-${game.id}` },
      h("span", { class: "your-game-what" }, what),
      h("span", { class: "your-game-buttons" },
        h("a", { href: `#/table/${game.id}`, class: `button-link ${index === 0 ? "primary action" : "action"}`,
          id: index === 0 ? "continue-game" : `continue-${game.id}`, "aria-label": t("lobby.continueAria", { what }) }, t("lobby.resumeButton")),
        h("button", { type: "button", class: "action danger", id: `abandon-${game.id}`, "aria-label": t("lobby.abandonAria", { what }),
          onclick: async (event) => {
            const button = event.currentTarget;
            if (!(await confirmResign({ friends: !!game.room, title: t("abandon.title") }))) return;
            button.disabled = true;
            try {
              await resignTable(game.id);
              forgetToken(game.id);
              row.remove();
              if (!gamesList.children.length) yourGames.hidden = true;
              say(dealError, "");
              dealButton.focus();
            } catch (failure) {
              button.disabled = false;
              say(rowError, t("resign.failed", { message: failure.message }));
            }
          } }, t("lobby.abandon"))),
      rowError);
    return row;
  }

  /** Fill "Your games" from the server; the list (newest first) is returned. */
  async function showYourGames() {
    let live = [];
    try {
      live = await unfinishedTables();
    } catch (_) {
      live = [];
    }
    clear(gamesList);
    gamesList.append(...live.map(gameRow));
    yourGames.hidden = live.length === 0;
    return live;
  }

  /** Ask the server every few seconds, while the lobby is shown, until it answers; then ``then()``. */
  function whenServerAnswers(then) {
    setTimeout(() => {
      if (!dealButton.isConnected) return;
      api.presets().then(then, () => whenServerAnswers(then));
    }, RETRY_MS);
  }

  async function load() {
    retry.hidden = true;
    try {
      presetCache = presetCache || (await api.presets());
    } catch (error) {
      say(dealError, t("lobby.loadFailed", { message: error.message }));
      retry.hidden = false;
      // Back by itself once the server answers (a restart, a dropped network).
      setTimeout(() => { if (dealButton.isConnected && !presetCache) load(); }, RETRY_MS);
      return;
    }
    say(dealError, "");
    presets = Object.fromEntries(presetCache.presets.map((p) => [p.name, p]));
    if (!presets[state.preset]) state.preset = "knock";
    // The whole lobby is drawn before Deal can be pressed: a press (or
    // "Change") right away finds the options in place.
    showChoice();
    draw();
    dealButton.disabled = false;
    quick.start();
    showYourGames();
  }

  await load();
}
