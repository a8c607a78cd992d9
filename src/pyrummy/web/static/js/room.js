// Playing with friends: the "Play with friends" form, the waiting room
// (#/room/CODE, also what /join/CODE opens) and the panel beside a friends'
// table (players and their presence, watchers, chat, play again).
//
// A seat's token is kept per room in localStorage (and the server sets an
// HttpOnly cookie); once the room starts, the same token plays the table and
// is saved under the table's id as for any table. Nothing secret is ever put
// in an address. Texts from others go into text nodes only (h() never parses
// markup), so a chat message cannot inject anything.

import { h, clear } from "./dom.js";
import { t, addTexts } from "./i18n.js";
import { ApiError, offlineError, saveToken, tokenFor } from "./api.js";
import { lang } from "./i18n.js";
import { NAME_RULE, NAME_MAX, NAME_TEXT, CHAT_MAX, DIFFICULTIES } from "./game_facts.js";
import { GAME_ORDER } from "./rules_text.js";
import { GIN_DEFAULT, GIN_RULES, ginRulesFieldset, isGin } from "./gin_rules.js";

const ROOMS_KEY = "pyrummy.rooms";
const NAME_KEY = "pyrummy.name";
const WATCHER_KEY = "pyrummy.watcher";
const MUTE_KEY = "pyrummy.chatMuted";
const POLL_MS = 1500;
// Signs every system font has (no emoji font needed).
const REACTIONS = ["GG", "♥", "☺", "★", "?!"];

addTexts({
  en: {
    "friends.entry": "Play with friends",
    "friends.entryHint": "A private table: send a link, sit down together.",
    "friends.invite": "Invite friends",
    "friends.haveCode": "Have a code?",
    "friends.code": "Room code",
    "friends.join": "Join",
    "friends.title": "Play with friends",
    "friends.seats": "Seats",
    "friends.seat": "Seat {n}",
    "friends.you": "You",
    "friends.open": "Open seat (a friend)",
    "friends.bot": "Bot {n} ({level})",
    "friends.addSeat": "Add a seat",
    "friends.removeSeat": "Remove the last seat",
    "friends.name": "Your name",
    "friends.nameRule": "1–{max} characters, no {chars}",
    "friends.timer": "Turn timer",
    "friends.timer.0": "off",
    "friends.timer.n": "{n} s, then a bot plays the turn",
    "friends.grace": "If someone leaves, a bot takes the seat after",
    "friends.grace.n": "{n} s",
    "friends.create": "Create the table",
    "friends.roomTitle": "Room {code}",
    "friends.share": "Send this link to your friends, or tell them the code:",
    "friends.copy": "Copy link",
    "friends.copied": "Link copied",
    "friends.waitingFor": "Waiting for: seats {seats}",
    "friends.allSeated": "Everyone is seated.",
    "friends.start": "Start the game",
    "friends.leave": "Leave",
    "friends.seatBot": "Seat a bot",
    "friends.reopen": "Open for a friend",
    "friends.creator": "creator",
    "friends.missing": "open seat",
    "friends.waitingStart": "Waiting for {name} to start the game.",
    "friends.joinTitle": "Join room {code}",
    "friends.full": "This table is full.",
    "friends.watch": "Watch the game",
    "friends.started": "The game has started.",
    "friends.closed": "The creator closed this room.",
    "friends.left": "You left the room.",
    "friends.players": "Players",
    "friends.watchers": "Watching",
    "friends.nobodyWatching": "nobody",
    "friends.connected": "here",
    "friends.disconnected": "disconnected",
    "friends.away": "away",
    "friends.botPlaying": "a bot plays for now",
    "friends.botPlayingFor": "bot playing for {name}",
    "friends.toPlay": "to play",
    "friends.turnLeftYou": "Your turn: {s} s left",
    "friends.turnLeft": "{name} to play: {s} s left",
    "friends.turnSoon": "10 seconds left to move, then a bot plays your turn.",
    "friends.secondsShort": "{s} s",
    "friends.youMark": "(you)",
    "friends.chat": "Chat",
    "friends.say": "Message",
    "friends.send": "Send",
    "friends.mute": "Mute chat",
    "friends.muted": "Chat muted",
    "friends.again": "Play again with the same people",
    "friends.againWait": "The creator can start another match with the same people.",
    "friends.back": "I'm back",
    "friends.youAway": "A bot played your turn: you were marked away.",
    "friends.spectator": "You are watching: only what everyone sees is shown.",
  },
  ru: {
    "friends.entry": "Играть с друзьями",
    "friends.entryHint": "Свой стол: пошлите ссылку и садитесь играть вместе.",
    "friends.invite": "Позвать друзей",
    "friends.haveCode": "Есть код?",
    "friends.code": "Код комнаты",
    "friends.join": "Войти",
    "friends.title": "Игра с друзьями",
    "friends.seats": "Места",
    "friends.seat": "Место {n}",
    "friends.you": "Вы",
    "friends.open": "Свободно (для друга)",
    "friends.bot": "Бот {n} ({level})",
    "friends.addSeat": "Добавить место",
    "friends.removeSeat": "Убрать последнее место",
    "friends.name": "Ваше имя",
    "friends.nameRule": "1–{max} знака, без {chars}",
    "friends.timer": "Время на ход",
    "friends.timer.0": "без ограничения",
    "friends.timer.n": "{n} с, потом ход делает бот",
    "friends.grace": "Если кто-то ушёл, бот займёт место через",
    "friends.grace.n": "{n} с",
    "friends.create": "Создать стол",
    "friends.roomTitle": "Комната {code}",
    "friends.share": "Пошлите друзьям эту ссылку или продиктуйте код:",
    "friends.copy": "Скопировать ссылку",
    "friends.copied": "Ссылка скопирована",
    "friends.waitingFor": "Ждём: места {seats}",
    "friends.allSeated": "Все на месте.",
    "friends.start": "Начать игру",
    "friends.leave": "Уйти",
    "friends.seatBot": "Посадить бота",
    "friends.reopen": "Освободить для друга",
    "friends.creator": "создатель",
    "friends.missing": "свободно",
    "friends.waitingStart": "Ждём, когда {name} начнёт игру.",
    "friends.joinTitle": "Вход в комнату {code}",
    "friends.full": "Все места заняты.",
    "friends.watch": "Смотреть игру",
    "friends.started": "Игра уже началась.",
    "friends.closed": "Создатель закрыл комнату.",
    "friends.left": "Вы вышли из комнаты.",
    "friends.players": "Игроки",
    "friends.watchers": "Смотрят",
    "friends.nobodyWatching": "никто",
    "friends.connected": "здесь",
    "friends.disconnected": "отключился",
    "friends.away": "отошёл",
    "friends.botPlaying": "пока играет бот",
    "friends.botPlayingFor": "за {name} играет бот",
    "friends.toPlay": "ходит",
    "friends.turnLeftYou": "Ваш ход: осталось {s} с",
    "friends.turnLeft": "Ходит {name}: осталось {s} с",
    "friends.turnSoon": "Осталось 10 секунд, потом ход сделает бот.",
    "friends.secondsShort": "{s} с",
    "friends.youMark": "(вы)",
    "friends.chat": "Чат",
    "friends.say": "Сообщение",
    "friends.send": "Отправить",
    "friends.mute": "Выключить чат",
    "friends.muted": "Чат выключен",
    "friends.again": "Сыграть ещё с теми же",
    "friends.againWait": "Создатель может начать новую партию с теми же игроками.",
    "friends.back": "Я здесь",
    "friends.youAway": "За вас сходил бот: вы отмечены как отошедший.",
    "friends.spectator": "Вы зритель: видно только то, что видят все.",
  },
});

// -- storage ---------------------------------------------------------------------
function load(key, fallback) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null") ?? fallback;
  } catch (_) {
    return fallback;
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch (_) {
    // private mode: kept for this page only
  }
}

function roomToken(code) {
  return load(ROOMS_KEY, {})[code]?.token ?? null;
}

function saveRoomToken(code, token, seat) {
  const all = load(ROOMS_KEY, {});
  all[code] = { token, seat, saved: Date.now() };
  store(ROOMS_KEY, all);
}

export function savedName() {
  return load(NAME_KEY, "");
}

function watcherId() {
  let id = load(WATCHER_KEY, null);
  if (!id) {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    store(WATCHER_KEY, id);
  }
  return id;
}

export function normalizeCode(text) {
  return String(text).toUpperCase().replace(/[\s-]/g, "");
}

async function call(method, path, { body, token } = {}) {
  const headers = { "Accept-Language": lang() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Seat-Token"] = token;
  let response;
  try {
    response = await fetch(path, {
      method, headers, credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (_) {
    throw offlineError();
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = data.error || { code: "http", message: t("error.http", { status: response.status }) };
    throw new ApiError(response.status, error.code, error.message);
  }
  return data;
}

function nameInput(id) {
  return h("input", {
    id, name: "name", required: true, maxlength: String(NAME_MAX), autocomplete: "nickname",
    value: savedName(), "aria-describedby": `${id}-rule`,
  });
}

function checkName(input, status) {
  const value = input.value.trim();
  if (!NAME_RULE.test(value)) {
    status.textContent = t("friends.nameRule", NAME_TEXT);
    input.setAttribute("aria-invalid", "true");
    input.focus();
    return null;
  }
  input.removeAttribute("aria-invalid");
  store(NAME_KEY, value);
  return value;
}

/** How many bots sit up to and including seat ``index``: bots are numbered among
 * themselves, as on the table and in the records (server/tables.py seat_name). */
function botNumber(kinds, index) {
  return kinds.slice(0, index + 1).filter((kind) => kind === "bot").length;
}

function seatLabel(seat, seats) {
  if (seat.kind === "bot") {
    const n = botNumber(seats.map((s) => s.kind), seat.seat);
    return t("friends.bot", { n, level: t(`difficulty.${seat.bot}`) });
  }
  if (seat.kind === "open") return t("friends.missing");
  return seat.name;
}

// -- the lobby's entry --------------------------------------------------------------
export function friendsEntry() {
  const status = h("p", { class: "status-line", role: "status", "aria-live": "polite" });
  const code = h("input", { id: "room-code", name: "code", autocomplete: "off", maxlength: "12",
    autocapitalize: "characters", spellcheck: "false", class: "room-code-input" });
  const form = h("form", { class: "code-form", onsubmit: (e) => {
    e.preventDefault();
    const value = normalizeCode(code.value);
    if (!value) { status.textContent = t("friends.code"); code.focus(); return; }
    location.hash = `#/room/${value}`;
  } },
  h("label", { for: "room-code" }, t("friends.haveCode")), " ", code, " ",
  h("button", { type: "submit", id: "room-code-join" }, t("friends.join")));
  return h("section", { class: "friends-entry", "aria-labelledby": "friends-entry-title" },
    h("h2", { id: "friends-entry-title" }, t("friends.entry")),
    h("p", {}, t("friends.entryHint")),
    h("p", {}, h("a", { href: "#/friends", class: "action button-link", id: "friends-start" }, t("friends.invite"))),
    form, status);
}

// -- creating a room ----------------------------------------------------------------
export async function renderFriendsForm(root) {
  const status = h("p", { class: "status-line", role: "status", "aria-live": "polite" });
  const section = h("section", { class: "friends" }, h("h1", {}, t("friends.title")));
  root.append(section);
  let presets;
  let graces = [30, 60, 120, 300];
  let timers = [0, 30, 60, 120];
  try {
    const data = await call("GET", "/api/presets");
    presets = Object.fromEntries(data.presets.map((p) => [p.name, p]));
    const options = await call("GET", "/api/rooms/options");
    graces = options.grace_choices;
    timers = options.turn_timers;
  } catch (error) {
    section.append(h("p", {}, t("status.error", { message: error.message })));
    return;
  }
  // ``game`` is the entry of the list; Gin's entry is played by ``ginRules``
  // (standard unless changed), with Oklahoma if ticked, as in the lobby.
  const choice = { game: "knock", ginRules: GIN_DEFAULT, oklahoma: false, seats: ["you", "open", "bot:easy"], timer: 0,
    grace: graces.includes(120) ? 120 : graces[0], length: "default", rated: false };
  const form = h("form", { class: "friends-form", onsubmit: (e) => { e.preventDefault(); submit(); } });
  section.append(form, status);

  /** The preset the room is made with. */
  function preset() {
    return choice.game === "gin" && presets[choice.ginRules] ? choice.ginRules : choice.game;
  }

  /** Gin's rules and Oklahoma, under the game while Gin is chosen. */
  function ginControls() {
    if (!isGin(preset())) return null;
    return ginRulesFieldset({
      presets, preset: preset(), oklahoma: choice.oklahoma, prefix: "friends-",
      onRules: (name) => {
        choice.ginRules = name;
        draw();
        form.querySelector(`#friends-gin-rules-${name === "gin" ? "source" : "standard"}`)?.focus();
      },
      onOklahoma: (checked) => { choice.oklahoma = checked; draw(); form.querySelector("#friends-opt-oklahoma")?.focus(); },
    });
  }

  function draw() {
    clear(form);
    const p = presets[preset()];
    while (choice.seats.length > p.max_players) choice.seats.pop();
    while (choice.seats.length < p.min_players) choice.seats.push("open");
    // Gin's entry stands for both its rule sets (ginControls chooses between them).
    const games = GAME_ORDER.filter((g) => presets[g] && (g === "gin" || !GIN_RULES.includes(g)));
    const game = h("select", { id: "friends-game", onchange: (e) => { choice.game = e.target.value; draw(); } },
      games.map((g) => h("option", { value: g, selected: g === choice.game }, t(`game.${g}`))));
    const seatRows = choice.seats.map((value, i) => {
      const select = h("select", { id: `friends-seat-${i + 1}`, onchange: (e) => {
        if (e.target.value === "you") choice.seats = choice.seats.map((s) => (s === "you" ? "open" : s));
        choice.seats[i] = e.target.value;
        draw();
      } },
      h("option", { value: "you", selected: value === "you" }, t("friends.you")),
      h("option", { value: "open", selected: value === "open" }, t("friends.open")),
      DIFFICULTIES.map((b) => h("option", { value: `bot:${b}`, selected: value === `bot:${b}` },
        t("friends.bot", { n: botNumber([...choice.seats.slice(0, i).map((s) => s.split(":")[0]), "bot"], i), level: t(`difficulty.${b}`) }))));
      return h("li", {}, h("label", { for: `friends-seat-${i + 1}` }, t("friends.seat", { n: i + 1 })), " ", select);
    });
    const more = h("button", { type: "button", id: "friends-add-seat", disabled: choice.seats.length >= p.max_players,
      onclick: () => { choice.seats.push("open"); draw(); } }, t("friends.addSeat"));
    const fewer = h("button", { type: "button", id: "friends-remove-seat", disabled: choice.seats.length <= p.min_players,
      onclick: () => { choice.seats.pop(); if (!choice.seats.includes("you")) choice.seats[0] = "you"; draw(); } }, t("friends.removeSeat"));
    const timer = h("select", { id: "friends-timer", onchange: (e) => { choice.timer = Number(e.target.value); } },
      timers.map((n) => h("option", { value: n, selected: n === choice.timer }, n ? t("friends.timer.n", { n }) : t("friends.timer.0"))));
    let length = null;
    if (p.match_end === "dealer_round") {
      length = h("select", { id: "friends-length", onchange: (e) => { choice.length = e.target.value; } },
        h("option", { value: "default", selected: choice.length === "default" }, t("lobby.round", { n: choice.seats.length })),
        h("option", { value: "one", selected: choice.length === "one" }, t("lobby.oneDeal")));
    }
    const grace = h("select", { id: "friends-grace", onchange: (e) => { choice.grace = Number(e.target.value); } },
      graces.map((n) => h("option", { value: n, selected: n === choice.grace }, t("friends.grace.n", { n }))));
    // A part a game does not have (Gin's rules, a length) is null: left out, not written.
    form.append(...[
      h("p", {}, h("label", { for: "friends-game" }, t("lobby.game")), " ", game),
      ginControls(),
      h("fieldset", {}, h("legend", {}, t("friends.seats")), h("ol", { class: "seat-choices" }, seatRows),
        h("div", { class: "seat-buttons" }, more, " ", fewer)),
      length && h("p", {}, h("label", { for: "friends-length" }, t("lobby.length")), " ", length),
      h("p", {}, h("label", { for: "friends-name" }, t("friends.name")), " ", nameInput("friends-name"),
        h("small", { id: "friends-name-rule", class: "hint-text" }, " ", t("friends.nameRule", NAME_TEXT))),
      h("p", {}, h("label", { for: "friends-timer" }, t("friends.timer")), " ", timer),
      h("p", {}, h("label", { for: "friends-grace" }, t("friends.grace")), " ", grace),
      h("p", {}, h("input", { type: "checkbox", id: "friends-rated", checked: choice.rated, onchange: (e) => { choice.rated = e.target.checked; } }),
        " ", h("label", { for: "friends-rated" }, t("room.rated"))),
      h("p", {}, h("button", { type: "submit", class: "primary big", id: "friends-create" }, t("friends.create"))),
    ].filter(Boolean));
  }

  async function submit() {
    const name = checkName(form.querySelector("#friends-name"), status);
    if (!name) return;
    const seats = choice.seats.map((s) => (s.startsWith("bot:") ? { kind: "bot", bot: s.slice(4) } : { kind: s }));
    const button = form.querySelector("#friends-create");
    button.disabled = true;
    try {
      const oneDeal = choice.length === "one" && presets[preset()].match_end === "dealer_round";
      const options = oneDeal ? { match_end: "deals", deals: 1 } : {};
      if (isGin(preset()) && choice.oklahoma) options.oklahoma = true;
      const result = await call("POST", "/api/rooms", { body: {
        preset: preset(), options, seats, name, turn_timer: choice.timer, grace: choice.grace, rated: choice.rated } });
      saveRoomToken(result.room.code, result.token, result.seat);
      location.hash = `#/room/${result.room.code}`;
    } catch (error) {
      status.textContent = t("status.error", { message: error.message });
      button.disabled = false;
    }
  }
  draw();
}

// -- the waiting room -----------------------------------------------------------------
export class RoomView {
  constructor(root, code) {
    this.code = normalizeCode(code);
    this.section = h("section", { class: "room", "aria-busy": "true" }, h("p", {}, "…"));
    this.status = h("p", { class: "status-line", role: "status", "aria-live": "polite" });
    root.append(this.section);
    this.room = null;
    this.mode = null;
    this.refresh();
    this.timer = setInterval(() => this.refresh(), POLL_MS);
  }

  destroy() {
    clearInterval(this.timer);
    this.section.remove();
  }

  relabel() {
    this.render();
  }

  async refresh() {
    try {
      const token = roomToken(this.code);
      if (!token && this.mode !== "watch") {
        this.room = await call("GET", `/api/rooms/${this.code}`);
      } else {
        const body = token ? {} : { watcher: watcherId() };
        if (!token && NAME_RULE.test(savedName())) body.name = savedName();
        this.room = await call("POST", `/api/rooms/${this.code}/poll`, { token, body });
      }
      this.error = null;
    } catch (error) {
      this.room = null;
      this.error = error;
    }
    const room = this.room;
    if (room && room.status === "started" && room.table_id) {
      const token = roomToken(this.code);
      if (room.you !== null && token) saveToken(room.table_id, token, { preset: room.preset, room: this.code });
      clearInterval(this.timer);
      location.hash = `#/table/${room.table_id}`;
      return;
    }
    // Drawn again only when something changed: a person typing their name
    // or on a button keeps their text and focus.
    const key = JSON.stringify([room, this.error?.message, this.mode]);
    if (key === this.shown) return;
    this.shown = key;
    this.render();
  }

  render() {
    const focused = this.section.contains(document.activeElement) ? document.activeElement.id : null;
    const typed = this.section.querySelector("#join-name")?.value;
    this.draw();
    const name = this.section.querySelector("#join-name");
    if (name && typed !== undefined) name.value = typed;
    if (focused) this.section.querySelector(`#${focused}`)?.focus();
  }

  draw() {
    clear(this.section);
    this.section.setAttribute("aria-busy", "false");
    const room = this.room;
    if (!room) {
      const message = this.error && this.error.status === 404 ? this.error.message : t("status.error", { message: this.error?.message ?? "" });
      this.section.append(h("h1", {}, t("friends.roomTitle", { code: this.code })), h("p", { class: "error-text" }, message),
        h("p", {}, h("a", { href: "#/" }, t("table.backToLobby"))));
      return;
    }
    this.section.append(h("h1", {}, t("friends.roomTitle", { code: room.code })));
    if (room.status === "closed") {
      this.section.append(h("p", {}, t("friends.closed")), h("p", {}, h("a", { href: "#/" }, t("table.backToLobby"))));
      clearInterval(this.timer);
      return;
    }
    // What will be played, so that a friend who opens the link knows the rules.
    const house = isGin(room.preset) && room.options?.oklahoma ? ` · ${t("opt.oklahoma.short")}` : "";
    this.section.append(h("p", { class: "room-game", id: "room-game" }, `${t("lobby.game")}: ${t(`game.${room.preset}`)}${house}`));
    if (room.you === null && this.mode !== "watch") {
      this.renderJoin(room);
    } else {
      this.renderWaiting(room);
    }
    this.section.append(this.status);
  }

  renderJoin(room) {
    const full = room.missing.length === 0;
    if (full) {
      this.section.append(h("p", {}, t("friends.full")),
        h("p", {}, h("button", { type: "button", class: "primary", id: "room-watch", onclick: () => { this.mode = "watch"; this.refresh(); } }, t("friends.watch"))));
      this.section.append(this.seatList(room));
      return;
    }
    const input = nameInput("join-name");
    const form = h("form", { class: "join-form", onsubmit: async (e) => {
      e.preventDefault();
      const name = checkName(input, this.status);
      if (!name) return;
      try {
        const result = await call("POST", `/api/rooms/${room.code}/join`, { body: { name } });
        saveRoomToken(room.code, result.token, result.seat);
        this.status.textContent = "";
        this.refresh();
      } catch (error) {
        this.status.textContent = error.message;
        if (error.code === "room.full" || error.code === "room.started") this.refresh();
      }
    } },
    h("h2", {}, t("friends.joinTitle", { code: room.code })),
    h("p", {}, h("label", { for: "join-name" }, t("friends.name")), " ", input,
      h("small", { id: "join-name-rule", class: "hint-text" }, " ", t("friends.nameRule", NAME_TEXT))),
    h("p", {}, h("button", { type: "submit", class: "primary big", id: "join-button" }, t("friends.join"))));
    this.section.append(form, this.seatList(room));
  }

  seatList(room) {
    return h("ol", { class: "room-seats", id: "room-seats" }, room.seats.map((seat) => {
      const mine = seat.seat === room.you;
      const parts = [h("span", { class: "seat-name" }, seatLabel(seat, room.seats))];
      if (mine) parts.push(" ", h("span", { class: "tag" }, t("friends.youMark")));
      if (seat.creator) parts.push(" ", h("span", { class: "tag" }, t("friends.creator")));
      const creatorHere = room.you === room.creator;
      if (creatorHere && seat.kind === "open") {
        const level = h("select", { "aria-label": t("friends.seatBot"), id: `room-bot-level-${seat.seat + 1}` },
          DIFFICULTIES.map((b) => h("option", { value: b }, t(`difficulty.${b}`))));
        parts.push(" ", level, " ", h("button", { type: "button", id: `room-seat-bot-${seat.seat + 1}`,
          onclick: () => this.setSeat(seat.seat, { kind: "bot", bot: level.value }) }, t("friends.seatBot")));
      } else if (creatorHere && seat.kind === "bot") {
        parts.push(" ", h("button", { type: "button", id: `room-seat-open-${seat.seat + 1}`,
          onclick: () => this.setSeat(seat.seat, { kind: "open" }) }, t("friends.reopen")));
      }
      return h("li", { class: `room-seat seat-${seat.kind}` }, ...parts);
    }));
  }

  async setSeat(index, body) {
    try {
      await call("PUT", `/api/rooms/${this.code}/seats/${index + 1}`, { token: roomToken(this.code), body });
      this.refresh();
    } catch (error) {
      this.status.textContent = error.message;
    }
  }

  renderWaiting(room) {
    const link = `${location.origin}/join/${room.code}`;
    const copied = h("span", { class: "copied", role: "status", "aria-live": "polite" });
    this.section.append(h("div", { class: "share" },
      h("p", {}, t("friends.share")),
      h("p", { class: "room-code", id: "room-code-shown" }, room.code),
      h("p", { class: "share-row" }, h("input", { id: "room-link", readonly: true, value: link, "aria-label": t("friends.copy") }), " ",
        h("button", { type: "button", id: "room-copy", onclick: async () => {
          try {
            await navigator.clipboard.writeText(link);
          } catch (_) {
            const field = this.section.querySelector("#room-link");
            field.select();
          }
          copied.textContent = t("friends.copied");
        } }, t("friends.copy")), " ", copied)));
    this.section.append(h("h2", {}, t("friends.players")), this.seatList(room));
    const missing = room.missing.map((i) => i + 1).join(", ");
    this.section.append(h("p", { id: "room-missing" }, missing ? t("friends.waitingFor", { seats: missing }) : t("friends.allSeated")));
    if (this.mode === "watch" && room.you === null) {
      this.section.append(h("p", {}, t("friends.spectator")), watchersLine(room));
      return;
    }
    const buttons = h("p", { class: "room-buttons" });
    if (room.you === room.creator) {
      buttons.append(h("button", { type: "button", class: "primary big", id: "room-start", disabled: room.missing.length > 0,
        onclick: () => this.start() }, t("friends.start")), " ");
    } else {
      const creator = room.seats[room.creator];
      buttons.append(h("span", {}, t("friends.waitingStart", { name: creator.name })), " ");
    }
    buttons.append(h("button", { type: "button", id: "room-leave", onclick: () => this.leave() }, t("friends.leave")));
    this.section.append(buttons, watchersLine(room));
  }

  async start() {
    try {
      await call("POST", `/api/rooms/${this.code}/start`, { token: roomToken(this.code) });
      this.refresh();
    } catch (error) {
      this.status.textContent = error.message;
    }
  }

  async leave() {
    try {
      await call("POST", `/api/rooms/${this.code}/leave`, { token: roomToken(this.code) });
      const all = load(ROOMS_KEY, {});
      delete all[this.code];
      store(ROOMS_KEY, all);
      clearInterval(this.timer);
      clear(this.section);
      this.section.append(h("h1", {}, t("friends.roomTitle", { code: this.code })), h("p", {}, t("friends.left")),
        h("p", {}, h("a", { href: "#/" }, t("table.backToLobby"))));
    } catch (error) {
      this.status.textContent = error.message;
    }
  }
}

/** What a person's seat shows besides the name: [kind, text] pairs. */
function seatMarks(seat) {
  if (seat.kind !== "human") return [];
  const marks = [];
  if (!seat.connected) marks.push(["disconnected", t("friends.disconnected")]);
  if (seat.abandoned) marks.push(["bot-playing", t("friends.botPlayingFor", { name: seat.name })]);
  else if (seat.away) marks.push(["away", t("friends.away")]);
  return marks;
}

function watchersLine(room) {
  return h("p", { class: "watchers", id: "room-watchers" }, `${t("friends.watchers")}: `,
    room.watchers.length ? room.watchers.join(", ") : t("friends.nobodyWatching"));
}

// -- the panel beside a friends' table ------------------------------------------------------
export class RoomPanel {
  constructor(root, tableId) {
    this.root = root;
    this.tableId = tableId;
    this.code = null;
    this.room = null;
    this.chat = [];
    this.chatSince = 0;
    this.active = false;
    this.muted = !!load(MUTE_KEY, false);
    // Away ends with the person's own move at the table (or "I'm back"), not
    // with any key or click: typing in the chat is not playing.
    this.onActivity = () => { this.active = true; };
    document.addEventListener("pyrummy:moved", this.onActivity);
    this.panel = null;
    this.start();
  }

  async start() {
    try {
      const room = await call("GET", `/api/tables/${this.tableId}/room`);
      if (!room || !room.code) return; // not a friends' table: no panel
      this.code = room.code;
    } catch (_) {
      return; // not a friends' table: no panel
    }
    if (this.destroyed) return;
    this.root.classList.add("has-room");
    this.panel = h("aside", { class: "room-panel", id: "room-panel", "aria-label": t("friends.players") });
    // Outside the panel, which is drawn afresh: a warning once said stays said.
    this.alert = h("p", { class: "visually-hidden", id: "room-countdown-alert", role: "status" });
    this.root.append(this.panel, this.alert);
    // The table page draws its opponents afresh on every event: their marks
    // (disconnected, away, a bot playing for them) are put back each time.
    this.observer = new MutationObserver(() => this.markSeats());
    this.observer.observe(this.root, { childList: true, subtree: true });
    this.poll();
    this.timer = setInterval(() => this.poll(), POLL_MS);
    this.ticker = setInterval(() => this.tick(), 1000);
  }

  destroy() {
    this.destroyed = true;
    clearInterval(this.timer);
    clearInterval(this.ticker);
    if (this.observer) this.observer.disconnect();
    document.removeEventListener("pyrummy:moved", this.onActivity);
    this.root.classList.remove("has-room");
    if (this.panel) this.panel.remove();
    if (this.alert) this.alert.remove();
  }

  relabel() {
    this.render();
    this.markSeats();
  }

  /** Marks each opponent's box on the table with what the room knows of that person. */
  markSeats() {
    const room = this.room;
    if (!room) return;
    for (const box of this.root.querySelectorAll(".table-view .opponent[data-seat]")) {
      const seat = room.seats[Number(box.dataset.seat)];
      const marks = seat ? seatMarks(seat) : [];
      const left = this.secondsLeft();
      if (seat && left !== null && this.deadline.seat === seat.seat) marks.push(["countdown", t("friends.secondsShort", { s: left })]);
      const key = marks.map(([kind, text]) => `${kind}:${text}`).join("|");
      const head = box.querySelector(".opponent-head") || box;
      const shown = head.querySelector(".seat-marks");
      // Unchanged: nothing touched (the observer would call this again).
      if ((shown ? shown.dataset.key : "") === key) continue;
      if (shown) shown.remove();
      if (!key) continue;
      head.append(h("span", { class: "seat-marks", dataset: { key } },
        marks.map(([kind, text]) => h("span", { class: `presence seat-mark presence-${kind}`, dataset: { mark: kind } }, text))));
    }
  }

  async poll() {
    const token = tokenFor(this.tableId);
    const body = token ? { since: this.chatSince, active: this.active } : { since: this.chatSince, watcher: watcherId() };
    const name = savedName();
    if (!token && NAME_RULE.test(name)) body.name = name;
    this.active = false;
    try {
      const room = await call("POST", `/api/rooms/${this.code}/poll`, { token, body });
      if (this.destroyed) return;
      this.room = room;
      for (const message of room.chat || []) {
        this.chat.push(message);
        this.chatSince = Math.max(this.chatSince, message.id);
      }
      this.chat = this.chat.slice(-50);
      if (room.table_id && room.table_id !== this.tableId) {
        // "Play again": the same seat (the same token) at the new table.
        if (token) saveToken(room.table_id, token, { preset: room.preset, room: room.code });
        location.hash = `#/table/${room.table_id}`;
        return;
      }
    } catch (_) {
      return;
    }
    this.setDeadline(this.room);
    const { turn_left: _left, ...steady } = this.room;
    const key = JSON.stringify([steady, this.chat.length ? this.chat[this.chat.length - 1].id : 0]);
    if (key === this.shown) return;
    this.shown = key;
    this.render();
    this.markSeats();
  }

  /** The turn timer's end on this page's clock (the server sends seconds left,
   * so the two clocks need not agree). Small poll-to-poll jitter is ignored. */
  setDeadline(room) {
    if (room.turn_left === undefined || room.to_play === undefined || room.to_play === null) {
      this.deadline = null;
      return;
    }
    const deadline = Date.now() + room.turn_left * 1000;
    const same = this.deadline && this.deadline.seat === room.to_play && Math.abs(this.deadline.at - deadline) < 1500;
    if (!same) this.deadline = { seat: room.to_play, at: deadline, warned: false };
  }

  secondsLeft() {
    return this.deadline ? Math.max(0, Math.ceil((this.deadline.at - Date.now()) / 1000)) : null;
  }

  /** Once a second: the countdown's number (not announced: aria-live off), the
   * seat's box on the table, and one spoken warning at 10 s for the person to play. */
  tick() {
    const left = this.secondsLeft();
    const line = this.panel?.querySelector("#room-countdown");
    const room = this.room;
    if (line && room) line.textContent = left === null ? "" : this.countdownText(room, left);
    if (this.panel) this.panel.querySelector("#room-countdown")?.toggleAttribute("hidden", left === null);
    this.markSeats();
    const d = this.deadline;
    if (this.alert && (!d || d.seat !== room?.you)) this.alert.textContent = "";
    if (d && room && d.seat === room.you && left !== null && left <= 10 && left > 0 && !d.warned) {
      d.warned = true;
      if (this.alert) this.alert.textContent = t("friends.turnSoon");
    }
  }

  countdownText(room, left) {
    if (room.to_play === room.you) return t("friends.turnLeftYou", { s: left });
    return t("friends.turnLeft", { name: room.seats[room.to_play]?.name ?? "", s: left });
  }

  render() {
    const room = this.room;
    if (!room || !this.panel) return;
    const hadFocus = this.panel.contains(document.activeElement) ? document.activeElement.id : null;
    const draft = this.panel.querySelector("#chat-input")?.value ?? "";
    clear(this.panel);
    const you = room.you;
    this.panel.append(h("h2", {}, t("friends.roomTitle", { code: room.code })));
    if (you === null) this.panel.append(h("p", { class: "spectator-note", id: "spectator-note" }, t("friends.spectator")));
    const left = this.secondsLeft();
    this.panel.append(
      h("p", { class: "turn-countdown", id: "room-countdown", "aria-live": "off", hidden: left === null },
        left === null ? "" : this.countdownText(room, left)));
    if (you !== null && room.seats[you].away) {
      this.panel.append(h("p", { class: "away-note" }, t("friends.youAway"), " ",
        h("button", { type: "button", id: "room-back", onclick: () => { this.active = true; this.poll(); } }, t("friends.back"))));
    }
    this.panel.append(h("ul", { class: "room-players", id: "room-players" }, room.seats.map((seat) => {
      const marks = [];
      if (seat.kind === "human") {
        marks.push(seat.connected ? ["connected", t("friends.connected")] : ["disconnected", t("friends.disconnected")]);
        if (seat.abandoned) marks.push(["bot-playing", t("friends.botPlaying")]);
        if (seat.away && !seat.abandoned) marks.push(["away", t("friends.away")]);
      }
      if (room.to_play === seat.seat && !room.over) marks.push(["to-play", t("friends.toPlay")]);
      return h("li", { class: "room-player", dataset: { seat: String(seat.seat) } },
        h("span", { class: "seat-name" }, seatLabel(seat, room.seats)), seat.seat === you ? ` ${t("friends.youMark")}` : "",
        marks.map(([kind, text]) => [" ", h("span", { class: `presence presence-${kind}` }, text)]));
    })));
    this.panel.append(watchersLine(room));
    if (room.over) {
      if (you === room.creator) {
        this.panel.append(h("p", {}, h("button", { type: "button", class: "primary", id: "room-again", onclick: () => this.again() }, t("friends.again"))));
      } else {
        this.panel.append(h("p", {}, t("friends.againWait")));
      }
    }
    this.panel.append(this.renderChat(you));
    if (hadFocus) {
      const again = this.panel.querySelector(`#${hadFocus}`);
      if (again) again.focus();
    }
    const input = this.panel.querySelector("#chat-input");
    if (input) input.value = draft;
  }

  renderChat(you) {
    const mute = h("label", { class: "toggle" }, h("input", { type: "checkbox", id: "chat-mute", checked: this.muted,
      onchange: (e) => { this.muted = e.target.checked; store(MUTE_KEY, this.muted); this.render(); } }), " ", t("friends.mute"));
    const box = h("section", { class: "room-chat", "aria-labelledby": "chat-title" }, h("h3", { id: "chat-title" }, t("friends.chat")), mute);
    if (this.muted) {
      box.append(h("p", { class: "hint-text" }, t("friends.muted")));
      return box;
    }
    box.append(h("ol", { class: "chat-log", id: "chat-log", "aria-live": "polite" },
      this.chat.slice(-20).map((m) => h("li", {}, h("b", {}, m.name), ": ", m.text))));
    if (you === null) return box;
    const input = h("input", { id: "chat-input", maxlength: String(CHAT_MAX), autocomplete: "off", "aria-label": t("friends.say") });
    const status = h("span", { class: "chat-status", role: "status" });
    const send = async (text) => {
      try {
        await call("POST", `/api/rooms/${this.code}/chat`, { token: tokenFor(this.tableId), body: { text } });
        input.value = "";
        this.poll();
      } catch (error) {
        status.textContent = error.message;
      }
    };
    box.append(
      h("div", { class: "reactions" }, REACTIONS.map((r) => h("button", { type: "button", class: "reaction", id: `reaction-${REACTIONS.indexOf(r)}`, onclick: () => send(r) }, r))),
      h("form", { class: "chat-form", onsubmit: (e) => { e.preventDefault(); if (input.value.trim()) send(input.value); } },
        input, " ", h("button", { type: "submit", id: "chat-send" }, t("friends.send")), " ", status));
    return box;
  }

  async again() {
    try {
      const room = await call("POST", `/api/rooms/${this.code}/again`, { token: tokenFor(this.tableId) });
      saveToken(room.table_id, tokenFor(this.tableId), { preset: room.preset, room: room.code });
      location.hash = `#/table/${room.table_id}`;
    } catch (error) {
      this.panel.append(h("p", { class: "error-text" }, error.message));
    }
  }
}
