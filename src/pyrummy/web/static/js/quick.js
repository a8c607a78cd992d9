// Quick match in the lobby: "Play people" beside Deal, for the game shown and
// each number of players it allows, with how many wait for each; the choice of
// bots filling the empty seats after a wait; while waiting, the queue and a
// Cancel button; once seated, the table. A page that stops polling leaves the
// queue by itself (the server forgets an entry not polled for a while), and a
// closed page says so at once (sendBeacon).
//
// The queue ticket lives in an HttpOnly cookie (the server's); once seated,
// the same ticket is the seat's token and is kept like any table's. A person
// who left rated matches is told how long quick match stays closed to them.

import { h, clear } from "./dom.js";
import { t, tn, addTexts, lang } from "./i18n.js";
import { ApiError, offlineError, saveToken } from "./api.js";
import { NAME_RULE, NAME_MAX, NAME_TEXT, DIFFICULTIES, DEFAULT_BOT } from "./game_facts.js";

const POLL_MS = 1500;
const COUNTS_MS = 5000;
const NAME_KEY = "pyrummy.name";
const CHOICE_KEY = "pyrummy.quickChoice";
/** The waits before bots a person may choose (seconds); null: people only. */
const WAITS = [15, 30, 45, 60, 120, null];

addTexts({
  en: {
    "quick.title": "Play people",
    "quick.hint": "Seated as soon as enough people wait. These matches are rated: leaving one counts as a loss.",
    "quick.join": "Play people · {n} players",
    "quick.waiting.one": "{n} waiting",
    "quick.waiting": "{n} waiting",
    "quick.name": "Your name",
    "quick.botWait": "Fill empty seats with bots",
    "quick.botWait.n": "after {n} s",
    "quick.botWait.never": "never: people only",
    "quick.botLevel": "Bots",
    "quick.inQueue": "Waiting for {game}, {players} players: {waiting} of {players} here, you are number {position}.",
    "quick.botsIn": "Bots fill the empty seats in {n} s.",
    "quick.noBots": "Waiting for people only.",
    "quick.cancel": "Cancel",
    "quick.seated": "Seated! Opening the table…",
    "quick.cooldown": "Rated matches you left within a day: {leaves}. Quick match opens again in {time}.",
    "quick.failed": "Could not join: {message}",
    "quick.lost": "You are no longer in the queue.",
    "quick.badName": "A name is 1–{max} characters, without {chars}",
    "quick.minutes": "{m} min {s} s",
    "quick.resignRated": "This is a rated quick match: leaving it counts as a loss, and leaving again within a day closes quick match to you for a while.",
  },
  ru: {
    "quick.title": "Играть с людьми",
    "quick.hint": "Стол соберётся, как только наберутся игроки. Эти партии рейтинговые: уход из партии засчитывается как поражение.",
    "quick.join": "Играть с людьми · игроков: {n}",
    "quick.waiting.one": "ждёт {n}",
    "quick.waiting.few": "ждут {n}",
    "quick.waiting": "ждут {n}",
    "quick.name": "Ваше имя",
    "quick.botWait": "Посадить ботов на пустые места",
    "quick.botWait.n": "через {n} с",
    "quick.botWait.never": "никогда: только люди",
    "quick.botLevel": "Боты",
    "quick.inQueue": "Ждём игру {game} на {players}: здесь {waiting} из {players}, вы номер {position}.",
    "quick.botsIn": "Боты займут пустые места через {n} с.",
    "quick.noBots": "Ждём только людей.",
    "quick.cancel": "Отменить",
    "quick.seated": "Стол собран! Открываем…",
    "quick.cooldown": "Рейтинговых партий, покинутых за сутки: {leaves}. Быстрая игра откроется через {time}.",
    "quick.failed": "Не удалось встать в очередь: {message}",
    "quick.lost": "Вы больше не в очереди.",
    "quick.badName": "Имя: от 1 до {max} символов, без {chars}",
    "quick.minutes": "{m} мин {s} с",
    "quick.resignRated": "Это рейтинговая быстрая игра: уход засчитывается как поражение, а повторный уход за сутки закроет вам быструю игру на время.",
  },
});

async function call(method, path, body) {
  const headers = { "Accept-Language": lang() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (_) {
    throw offlineError();
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = data?.error || { code: "http", message: t("error.http", { status: response.status }) };
    const failure = new ApiError(response.status, error.code, error.message);
    failure.retryAfter = error.retry_after;
    throw failure;
  }
  return data;
}

function saved(key, fallback) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null") ?? fallback;
  } catch (_) {
    return fallback;
  }
}

function remember(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch (_) {
    // remembered for this page only
  }
}

function duration(seconds) {
  const m = Math.floor(seconds / 60);
  return t("quick.minutes", { m, s: seconds % 60 });
}

/**
 * The "Play people" panel for the lobby. ``show(preset, info)`` draws it for
 * a game (``info``: the preset's min/max players); it polls while waiting.
 */
export function quickPanel() {
  const choice = { wait: 45, bot: DEFAULT_BOT, ...saved(CHOICE_KEY, {}) };
  const buttons = h("div", { class: "quick-buttons", id: "quick-buttons" });
  const name = h("input", { id: "quick-name", maxlength: String(NAME_MAX), autocomplete: "nickname", value: saved(NAME_KEY, "") || "" });
  const wait = h("select", { id: "quick-bot-wait", onchange: (e) => {
    choice.wait = e.target.value === "never" ? null : Number(e.target.value);
    remember(CHOICE_KEY, choice);
    level.disabled = choice.wait === null;
  } },
    WAITS.map((n) => h("option", { value: n === null ? "never" : String(n) }, n === null ? t("quick.botWait.never") : t("quick.botWait.n", { n }))));
  wait.value = choice.wait === null ? "never" : String(choice.wait);
  const level = h("select", { id: "quick-bot-level", onchange: (e) => { choice.bot = e.target.value; remember(CHOICE_KEY, choice); } },
    DIFFICULTIES.map((b) => h("option", { value: b }, t(`difficulty.${b}`))));
  level.value = DIFFICULTIES.includes(choice.bot) ? choice.bot : DEFAULT_BOT;
  // With "people only" no bot comes, so its level is not a choice.
  level.disabled = choice.wait === null;
  const choices = h("div", { class: "quick-choices" },
    h("label", { class: "field", for: "quick-name" }, h("span", {}, t("quick.name")), name),
    h("label", { class: "field", for: "quick-bot-wait" }, h("span", {}, t("quick.botWait")), wait),
    h("label", { class: "field", for: "quick-bot-level" }, h("span", {}, t("quick.botLevel")), level));
  const status = h("p", { class: "status-line", id: "quick-status", role: "status", "aria-live": "polite" });
  const cancel = h("button", { type: "button", class: "action", id: "quick-cancel", hidden: true, onclick: () => leave() }, t("quick.cancel"));
  const cooldown = h("p", { class: "field-error", id: "quick-cooldown", role: "alert", hidden: true });
  const error = h("p", { class: "field-error", id: "quick-error", role: "alert", hidden: true });
  const node = h("section", { class: "quick", id: "quick", "aria-labelledby": "quick-title" },
    h("h2", { id: "quick-title" }, t("quick.title")),
    h("p", { class: "muted" }, t("quick.hint")),
    buttons, choices, h("div", { class: "quick-wait" }, status, cancel), cooldown, error);

  let current = { preset: null, info: null };
  let counts = {};
  let waiting = false;
  let cooling = false;
  let timer = null;
  let countsTimer = null;

  const say = (line, text) => { line.textContent = text || ""; line.hidden = !text; };

  function draw() {
    clear(buttons);
    const { preset, info } = current;
    if (!preset || !info) return;
    for (let n = info.min_players; n <= info.max_players; n += 1) {
      const here = counts[`${preset}/${n}`] || 0;
      buttons.append(h("button", { type: "button", class: "action quick-join", id: `quick-join-${n}`, disabled: waiting || cooling,
        onclick: () => join(n) },
      h("span", {}, t("quick.join", { n })), " ",
      h("span", { class: "quick-count", id: `quick-count-${n}` }, tn("quick.waiting", here))));
    }
  }

  function showCooldown(seconds, leaves) {
    cooling = !!seconds;
    say(cooldown, seconds ? t("quick.cooldown", { leaves, time: duration(seconds) }) : "");
    draw();
  }

  async function refreshCounts() {
    try {
      const data = await call("GET", "/api/quick");
      counts = Object.fromEntries(data.queues.map((q) => [`${q.preset}/${q.players}`, q.waiting]));
      showCooldown(data.cooldown?.seconds, data.cooldown?.leaves);
      draw();
    } catch (_) {
      // the counts come back with the next round
    }
  }

  function showWaiting(view) {
    if (view.status === "seated") {
      stopPolling();
      waiting = false;
      say(status, t("quick.seated"));
      saveToken(view.table_id, view.token, { preset: view.preset, quick: true });
      location.hash = `#/table/${view.table_id}`;
      return;
    }
    waiting = true;
    cancel.hidden = false;
    counts[`${view.preset}/${view.players}`] = view.waiting; // the count beside the button is the poll's, not the last lobby round's
    const bots = view.bots_in === undefined ? t("quick.noBots") : t("quick.botsIn", { n: Math.ceil(view.bots_in) });
    say(status, `${t("quick.inQueue", { game: t(`game.${view.preset}`), players: view.players, waiting: view.waiting, position: view.position })} ${bots}`);
    draw();
  }

  function idle(text = "") {
    stopPolling();
    waiting = false;
    cancel.hidden = true;
    say(status, text);
    draw();
  }

  async function pollOnce() {
    if (!node.isConnected) { stopPolling(); return; }
    try {
      showWaiting(await call("POST", "/api/quick/poll"));
    } catch (failure) {
      if (failure.status === 404 || failure.status === 401) idle(waiting ? t("quick.lost") : "");
      // offline: the next round asks again
    }
  }

  function startPolling() {
    stopPolling();
    timer = setInterval(pollOnce, POLL_MS);
  }

  function stopPolling() {
    if (timer) clearInterval(timer);
    timer = null;
  }

  async function join(players) {
    const text = name.value.trim();
    if (!NAME_RULE.test(text)) { say(error, t("quick.badName", NAME_TEXT)); name.focus(); return; }
    remember(NAME_KEY, text);
    say(error, "");
    waiting = true;
    draw();
    try {
      const view = await call("POST", "/api/quick/join", { preset: current.preset, players, name: text, bot_wait: choice.wait, bot: choice.bot });
      showWaiting(view);
      if (view.status !== "seated") startPolling();
    } catch (failure) {
      waiting = false;
      draw();
      if (failure.code === "quick.cooldown") {
        refreshCounts(); // the lobby's line says how long, and why
        return;
      }
      say(error, t("quick.failed", { message: failure.message }));
    }
  }

  async function leave() {
    try {
      await call("POST", "/api/quick/leave");
      idle();
    } catch (failure) {
      if (failure.status === 409) pollOnce(); // seated meanwhile: the poll opens the table
      else if (failure.status === 404 || failure.status === 401) idle();
      else say(error, failure.message);
    }
  }

  // A closed or left page leaves the queue at once (else it expires by itself).
  window.addEventListener("pagehide", () => { if (waiting && navigator.sendBeacon) navigator.sendBeacon("/api/quick/leave"); });

  function show(preset, info) {
    current = { preset, info };
    draw();
  }

  function start() {
    refreshCounts();
    countsTimer = setInterval(() => { if (!node.isConnected) clearInterval(countsTimer); else if (!waiting) refreshCounts(); }, COUNTS_MS);
    // Still waiting from before a reload? Then the panel says so and polls on.
    call("POST", "/api/quick/poll").then((view) => { showWaiting(view); if (view.status !== "seated") startPolling(); }, () => {});
  }

  return { node, show, start };
}
