// The JSON API and the live WebSocket of a table. Seat tokens are kept per
// table in localStorage (the server also sets an HttpOnly cookie), so a
// refresh or a dropped connection never loses a game.

import { lang, t } from "./i18n.js";

const TOKENS_KEY = "pyrummy.tokens";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }

  /** No answer from the server at all (it is down, or this device is offline). */
  get offline() {
    return this.code === "network";
  }
}

/**
 * The browser's own words for a failed fetch ("Failed to fetch", "NetworkError
 * when attempting to fetch resource") are English whatever the page's
 * language, and say nothing of what to do: a request that got no answer
 * becomes an ApiError with status 0, code "network" and the page's sentence.
 */
export function offlineError() {
  return new ApiError(0, "network", t("error.offline"));
}

function tokens() {
  try {
    return JSON.parse(localStorage.getItem(TOKENS_KEY) || "{}");
  } catch (_) {
    return {};
  }
}

export function saveToken(tableId, token, info = {}) {
  const all = tokens();
  all[tableId] = { token, ...info, saved: Date.now() };
  try {
    localStorage.setItem(TOKENS_KEY, JSON.stringify(all));
  } catch (_) {
    // the cookie still identifies the seat
  }
}

export function tokenFor(tableId) {
  return tokens()[tableId]?.token ?? null;
}

export function forgetToken(tableId) {
  const all = tokens();
  delete all[tableId];
  try {
    localStorage.setItem(TOKENS_KEY, JSON.stringify(all));
  } catch (_) {
    // nothing to do
  }
}

export function knownTables() {
  return Object.entries(tokens()).map(([id, info]) => ({ id, ...info }));
}

async function request(method, path, { body, tableId } = {}) {
  const headers = { "Accept-Language": lang() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const token = tableId ? tokenFor(tableId) : null;
  if (token) headers["X-Seat-Token"] = token;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch (_) {
    throw offlineError();
  }
  const type = response.headers.get("content-type") || "";
  let data = null;
  try {
    data = type.includes("json") ? await response.json() : await response.text();
  } catch (_) {
    // A body cut off on the way (the connection dropped) or not the JSON it claims to be.
    if (response.ok) throw new ApiError(response.status, "http", t("error.http", { status: response.status }));
  }
  if (!response.ok) {
    // A proxy's own error page (a 502 while the server restarts) is no sentence for a person.
    const error = data && data.error ? data.error : { code: "http", message: t("error.http", { status: response.status }) };
    throw new ApiError(response.status, error.code, error.message);
  }
  return data;
}

export const api = {
  presets: () => request("GET", "/api/presets"),
  createTable: (body) => request("POST", "/api/tables", { body }),
  state: (id) => request("GET", `/api/tables/${id}/state`, { tableId: id }),
  act: (id, action, seq) => request("POST", `/api/tables/${id}/actions`, { tableId: id, body: { action, seq } }),
  hint: (id) => request("GET", `/api/tables/${id}/hint`, { tableId: id }),
  continueDeal: (id) => request("POST", `/api/tables/${id}/continue`, { tableId: id }),
  /** Give up the match for this seat (X-Seat-Token): the seat's new state; 409 once it is over. */
  resign: (id) => request("POST", `/api/tables/${id}/resign`, { tableId: id }),
  settings: (id, botDelay) => request("PUT", `/api/tables/${id}/settings`, { tableId: id, body: { bot_delay: botDelay } }),
  explainMeld: (id, cards) => request("POST", `/api/tables/${id}/explain-meld?lang=${lang()}`, { tableId: id, body: { cards } }),
  matches: (offset = 0) => request("GET", `/api/matches?status=over&limit=20&offset=${offset}`),
  replay: (id, step) => request("GET", `/api/matches/${id}/replay${step === undefined ? "" : `?step=${step}`}`),
  record: (id) => request("GET", `/api/matches/${id}/record`),
};

/** A move sent over the socket got no answer (closed, or no ack in time). */
export class SocketLost extends Error {}

/** How long a move sent over the socket waits for its ack before the POST (ms). */
const ACK_TIMEOUT = 4000;

/**
 * A live connection to a table. `onMessage` gets every event and state; the
 * connection comes back by itself and asks for what it missed (`since`).
 * `request` sends a move over it (`{"type": "act" | "continue", ...}`),
 * answered by an ack after the move's own event.
 */
export class TableSocket {
  constructor(tableId, { onMessage, onStatus, getSeq }) {
    this.tableId = tableId;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.getSeq = getSeq;
    this.closed = false;
    this.retry = 0;
    this.lastId = 0;
    this.waiting = new Map();
    this.open();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const since = this.getSeq();
    const token = tokenFor(this.tableId);
    const query = new URLSearchParams();
    if (since !== null && since !== undefined) query.set("since", String(since));
    query.set("lang", lang());
    // The token never goes in the URL: it rides as a subprotocol (a header).
    const protocols = token ? ["pyrummy", `pyrummy.token.${token}`] : ["pyrummy"];
    this.ws = new WebSocket(
      `${scheme}://${location.host}/api/tables/${this.tableId}/ws?${query}`,
      protocols,
    );
    this.ws.onopen = () => {
      this.retry = 0;
      this.onStatus(true);
    };
    this.ws.onmessage = (event) => {
      try {
        const message = JSON.parse(event.data);
        if ((message.type === "ack" || message.type === "error") && this.waiting.has(message.id)) {
          this.answered(message.id, message);
        } else {
          this.onMessage(message);
        }
      } catch (error) {
        console.error(error);
      }
    };
    this.ws.onclose = () => {
      for (const id of [...this.waiting.keys()]) this.answered(id, null);
      if (this.closed) return;
      this.onStatus(false);
      const delay = Math.min(5000, 300 * 2 ** this.retry);
      this.retry += 1;
      this.timer = setTimeout(() => this.open(), delay);
    };
  }

  /**
   * Send a move; resolves on its ack, rejects with the server's ApiError or
   * with SocketLost. Null when the socket is not open (use the POST then).
   */
  request(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return null;
    this.lastId += 1;
    const id = this.lastId;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.answered(id, null), ACK_TIMEOUT);
      this.waiting.set(id, { resolve, reject, timer });
      this.ws.send(JSON.stringify({ ...message, id }));
    });
  }

  answered(id, message) {
    const waiting = this.waiting.get(id);
    if (!waiting) return;
    this.waiting.delete(id);
    clearTimeout(waiting.timer);
    if (message === null) waiting.reject(new SocketLost("no answer on the socket"));
    else if (message.type === "ack") waiting.resolve(message);
    else waiting.reject(new ApiError(message.status, message.code, message.message));
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
