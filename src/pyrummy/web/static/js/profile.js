// The profile page (#/profile): the display name, statistics and finished
// matches, ratings per game, passkeys (add, remove, sign in with one),
// sign-out and deletion. The server owns the profile (a cookie signs it in);
// this page shows it and turns WebAuthn's binary fields into base64url JSON.

import { h, clear } from "./dom.js";
import { t, addTexts, lang } from "./i18n.js";
import { NAME_RULE, NAME_MAX, NAME_TEXT } from "./game_facts.js";


addTexts({
  en: {
    "profile.title": "Your profile",
    "profile.loading": "Loading…",
    "profile.failed": "The profile could not be loaded.",
    "profile.none": "No profile yet: play a game and this browser gets one.",
    "profile.play": "Play a game",
    "profile.name": "Display name",
    "profile.rename": "Save name",
    "profile.namePlaceholder": "No name yet",
    "profile.renamed": "Name saved.",
    "profile.nameRule": "A name is 1–{max} letters, digits or signs, without {chars}",
    "profile.error": "That did not work: {message}",
    "profile.stats": "Statistics",
    "profile.statsEmpty": "No finished matches yet.",
    "profile.game": "Game",
    "profile.played": "Played",
    "profile.won": "Won",
    "profile.points": "Points",
    "profile.matches": "Finished matches",
    "profile.when": "Finished",
    "profile.result": "Result",
    "profile.win": "won",
    "profile.loss": "lost",
    "profile.resigned": "resigned",
    "profile.ratings": "Ratings",
    "profile.ratingsEmpty": "No rated matches yet (quick matches and rated friends' tables count).",
    "profile.rating": "Rating",
    "profile.range": "Range",
    "profile.ratingNote": "A rating marked ? is provisional until {n} rated matches.",
    "profile.passkeys": "Passkeys",
    "profile.passkeysHint": "A passkey signs this profile in on another browser or device, with no password.",
    "profile.passkeysNone": "No passkeys yet.",
    "profile.passkeyAdd": "Add a passkey",
    "profile.passkeyAdded": "Passkey added.",
    "profile.passkeyRemove": "Remove",
    "profile.passkeyRemoveAria": "Remove passkey {label}",
    "profile.passkeyRemoved": "Passkey removed.",
    "profile.passkeyCreated": "added {date}",
    "profile.passkeyUsed": "last used {date}",
    "profile.passkeysUnavailable": "Passkeys do not work at this address ({host}): they need a domain name. Open the game at {url} to use them.",
    "profile.passkeysUnsupported": "This browser cannot use passkeys.",
    "profile.passkeyCancelled": "The passkey request was cancelled or timed out.",
    "profile.signin": "Sign in with a passkey",
    "profile.signinHint": "Have a passkey for a profile made elsewhere? Sign this browser in to it.",
    "profile.signedIn": "Signed in as {name}.",
    "profile.account": "This browser",
    "profile.signout": "Sign out",
    "profile.signedOut": "Signed out. A passkey signs you in again.",
    "profile.delete": "Delete my profile",
    "profile.deleteTitle": "Delete your profile?",
    "profile.deleteText": "Your name, sign-ins and passkeys are deleted. Matches you played stay, without your name. This cannot be undone.",
    "profile.deleteConfirm": "Delete",
    "profile.deleted": "Your profile is deleted.",
  },
  ru: {
    "profile.title": "Ваш профиль",
    "profile.loading": "Загрузка…",
    "profile.failed": "Не удалось загрузить профиль.",
    "profile.none": "Профиля пока нет: сыграйте партию, и этот браузер его получит.",
    "profile.play": "Сыграть",
    "profile.name": "Имя",
    "profile.rename": "Сохранить имя",
    "profile.namePlaceholder": "Имени пока нет",
    "profile.renamed": "Имя сохранено.",
    "profile.nameRule": "Имя — от 1 до {max} букв, цифр или знаков, без {chars}",
    "profile.error": "Не получилось: {message}",
    "profile.stats": "Статистика",
    "profile.statsEmpty": "Законченных матчей пока нет.",
    "profile.game": "Игра",
    "profile.played": "Сыграно",
    "profile.won": "Побед",
    "profile.points": "Очки",
    "profile.matches": "Законченные матчи",
    "profile.when": "Закончен",
    "profile.result": "Итог",
    "profile.win": "победа",
    "profile.loss": "поражение",
    "profile.resigned": "вы сдались",
    "profile.ratings": "Рейтинги",
    "profile.ratingsEmpty": "Рейтинговых матчей пока нет (считаются быстрые матчи и рейтинговые столы с друзьями).",
    "profile.rating": "Рейтинг",
    "profile.range": "Диапазон",
    "profile.ratingNote": "Рейтинг со знаком ? предварительный, пока не сыграно {n} рейтинговых матчей.",
    "profile.passkeys": "Ключи доступа",
    "profile.passkeysHint": "Ключ доступа (passkey) входит в этот профиль в другом браузере или на другом устройстве без пароля.",
    "profile.passkeysNone": "Ключей доступа пока нет.",
    "profile.passkeyAdd": "Добавить ключ доступа",
    "profile.passkeyAdded": "Ключ доступа добавлен.",
    "profile.passkeyRemove": "Удалить",
    "profile.passkeyRemoveAria": "Удалить ключ доступа {label}",
    "profile.passkeyRemoved": "Ключ доступа удалён.",
    "profile.passkeyCreated": "добавлен {date}",
    "profile.passkeyUsed": "использован {date}",
    "profile.passkeysUnavailable": "Ключи доступа не работают по этому адресу ({host}): нужно доменное имя. Откройте игру по адресу {url}, чтобы ими пользоваться.",
    "profile.passkeysUnsupported": "Этот браузер не поддерживает ключи доступа.",
    "profile.passkeyCancelled": "Запрос ключа доступа отменён или истекло время.",
    "profile.signin": "Войти с ключом доступа",
    "profile.signinHint": "Есть ключ доступа от профиля, созданного в другом месте? Войдите в него в этом браузере.",
    "profile.signedIn": "Вы вошли как {name}.",
    "profile.account": "Этот браузер",
    "profile.signout": "Выйти",
    "profile.signedOut": "Вы вышли. Ключ доступа снова впустит вас.",
    "profile.delete": "Удалить мой профиль",
    "profile.deleteTitle": "Удалить профиль?",
    "profile.deleteText": "Имя, входы и ключи доступа будут удалены. Сыгранные матчи останутся, но без вашего имени. Отменить это нельзя.",
    "profile.deleteConfirm": "Удалить",
    "profile.deleted": "Ваш профиль удалён.",
  },
});

/** A failed request: the HTTP status, the server's error code and message. */
class ProfileError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function call(method, path, body) {
  const headers = { Accept: "application/json", "Accept-Language": lang() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, credentials: "same-origin", body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (_) {
    throw new ProfileError(0, "network", t("error.offline"));
  }
  let data = null;
  try { data = await response.json(); } catch (_) { data = null; }
  if (!response.ok) {
    const error = data && data.error ? data.error : { code: "http", message: t("error.http", { status: response.status }) };
    throw new ProfileError(response.status, error.code || "http", error.message || t("error.http", { status: response.status }));
  }
  return data;
}

// -- WebAuthn's JSON forms: binary fields travel as base64url ---------------

function fromB64url(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)).buffer;
}

function toB64url(buffer) {
  let text = "";
  for (const byte of new Uint8Array(buffer)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function withIds(list) {
  return (list || []).map((c) => ({ ...c, id: fromB64url(c.id) }));
}

/** The server's creation options (JSON) as navigator.credentials.create wants them. */
function creationOptions(json) {
  return { ...json, challenge: fromB64url(json.challenge), user: { ...json.user, id: fromB64url(json.user.id) }, excludeCredentials: withIds(json.excludeCredentials) };
}

function requestOptions(json) {
  return { ...json, challenge: fromB64url(json.challenge), allowCredentials: withIds(json.allowCredentials) };
}

function credentialJson(credential) {
  const r = credential.response;
  const response = { clientDataJSON: toB64url(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toB64url(r.attestationObject);
    if (r.getTransports) response.transports = r.getTransports();
  } else {
    response.authenticatorData = toB64url(r.authenticatorData);
    response.signature = toB64url(r.signature);
    if (r.userHandle) response.userHandle = toB64url(r.userHandle);
  }
  return {
    id: credential.id,
    rawId: toB64url(credential.rawId),
    type: credential.type,
    response,
    clientExtensionResults: credential.getClientExtensionResults ? credential.getClientExtensionResults() : {},
    authenticatorAttachment: credential.authenticatorAttachment || null,
  };
}

function webauthnWorks() {
  return typeof window.PublicKeyCredential === "function" && !!navigator.credentials;
}

/** The text for a failed step: the browser's cancel, or the server's message. */
function failure(error) {
  if (error && (error.name === "NotAllowedError" || error.name === "AbortError")) return t("profile.passkeyCancelled");
  return t("profile.error", { message: error && error.message ? error.message : String(error) });
}

function dateText(seconds) {
  if (!seconds) return "";
  return new Date(seconds * 1000).toLocaleString(lang() === "ru" ? "ru-RU" : "en-GB", { dateStyle: "medium", timeStyle: "short" });
}

function gameName(preset) {
  const key = `game.${preset}`;
  const text = t(key);
  return text === key ? preset : text;
}

function table(id, headings, rows) {
  return h("div", { class: "board-scroll" }, h("table", { class: "board-table profile-table", id },
    h("thead", {}, h("tr", {}, headings.map((text) => h("th", { scope: "col" }, text)))),
    h("tbody", {}, rows.map((cells) => h("tr", {}, cells.map((c) => h("td", {}, String(c))))))));
}

function confirmDelete() {
  return new Promise((resolve) => {
    const cancel = h("button", { type: "button", id: "profile-delete-cancel" }, t("btn.cancel"));
    const ok = h("button", { type: "button", class: "primary danger", id: "profile-delete-confirm" }, t("profile.deleteConfirm"));
    const dialog = h("dialog", { class: "confirm", id: "profile-delete-dialog", "aria-labelledby": "profile-delete-title", "aria-describedby": "profile-delete-text" },
      h("h2", { id: "profile-delete-title" }, t("profile.deleteTitle")),
      h("p", { id: "profile-delete-text" }, t("profile.deleteText")),
      h("div", { class: "dialog-buttons" }, cancel, ok));
    let answer = false;
    cancel.addEventListener("click", () => dialog.close());
    ok.addEventListener("click", () => { answer = true; dialog.close(); });
    dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });
    dialog.addEventListener("close", () => { dialog.remove(); resolve(answer); });
    document.body.append(dialog);
    dialog.showModal();
    cancel.focus();
  });
}

/** The profile view: built from the server's answers, rebuilt after each change. */
export class ProfileView {
  constructor(root) {
    this.root = root;
    this.note = "";
    this.gone = false;
    this.render();
  }

  destroy() { this.gone = true; }

  relabel() { this.render(); }

  /** Show ``text`` in the status line after the next render. */
  say(text) { this.note = text; }

  async render() {
    const body = h("div", { class: "profile-body" }, h("p", {}, t("profile.loading")));
    clear(this.root);
    this.root.append(h("article", { class: "profile-page leaderboard", id: "profile-page" },
      h("h1", {}, t("profile.title")),
      h("p", { class: "profile-status", id: "profile-status", role: "status" }, this.note),
      body));
    let profile;
    try {
      profile = await call("GET", "/api/profile");
    } catch (error) {
      if (this.gone) return;
      clear(body);
      if (error.code === "profile.none") body.append(...this.noProfile());
      else body.append(h("p", { class: "error", role: "alert" }, t("profile.failed")));
      return;
    }
    const [ratings, passkeys] = await Promise.all([
      call("GET", "/api/profile/ratings").catch(() => null),
      call("GET", "/api/profile/passkeys").catch(() => null),
    ]);
    if (this.gone) return;
    clear(body);
    body.append(this.nameSection(profile.profile), this.statsSection(profile), this.ratingsSection(ratings),
      this.passkeySection(passkeys), this.signInSection(), this.accountSection());
  }

  noProfile() {
    return [
      h("p", { id: "profile-none" }, t("profile.none")),
      h("p", {}, h("a", { href: "#/", class: "action button-link primary", id: "profile-play" }, t("profile.play"))),
      this.signInSection(),
    ];
  }

  nameSection(profile) {
    const input = h("input", { id: "profile-name", type: "text", maxlength: String(NAME_MAX), value: profile.name || "", autocomplete: "nickname", placeholder: t("profile.namePlaceholder"), "aria-describedby": "profile-name-error" });
    const error = h("p", { class: "error field-error", id: "profile-name-error", role: "alert" });
    const save = async (event) => {
      event.preventDefault();
      const name = input.value.trim();
      error.textContent = "";
      input.removeAttribute("aria-invalid");
      if (!NAME_RULE.test(name)) {
        error.textContent = t("profile.nameRule", NAME_TEXT);
        input.setAttribute("aria-invalid", "true");
        return;
      }
      try {
        await call("PUT", "/api/profile", { name });
      } catch (failed) {
        error.textContent = failed.status === 422 ? t("profile.nameRule", NAME_TEXT) : failure(failed);
        input.setAttribute("aria-invalid", "true");
        return;
      }
      this.say(t("profile.renamed"));
      this.render();
    };
    return h("section", { class: "profile-section" },
      h("form", { class: "profile-name-form", onsubmit: save },
        h("label", { for: "profile-name" }, t("profile.name")), " ", input, " ",
        h("button", { type: "submit", class: "action primary", id: "profile-rename" }, t("profile.rename"))),
      error);
  }

  statsSection(profile) {
    const section = h("section", { class: "profile-section", "aria-labelledby": "profile-stats-title" },
      h("h2", { id: "profile-stats-title" }, t("profile.stats")));
    if (!profile.statistics.length) {
      section.append(h("p", { id: "profile-stats-empty" }, t("profile.statsEmpty")));
      return section;
    }
    section.append(table("profile-stats", [t("profile.game"), t("profile.played"), t("profile.won"), t("profile.points")],
      profile.statistics.map((s) => [gameName(s.preset), s.played, s.won, s.points])));
    section.append(h("h3", {}, t("profile.matches")));
    section.append(table("profile-matches", [t("profile.game"), t("profile.when"), t("profile.result"), t("profile.points")],
      profile.matches.map((m) => [gameName(m.preset), dateText(m.finished_at),
        m.won ? t("profile.win") : m.resigned ? t("profile.resigned") : t("profile.loss"), m.points])));
    return section;
  }

  ratingsSection(answer) {
    const section = h("section", { class: "profile-section", "aria-labelledby": "profile-ratings-title" },
      h("h2", { id: "profile-ratings-title" }, t("profile.ratings")));
    if (!answer || !answer.ratings.length) {
      section.append(h("p", { id: "profile-ratings-empty" }, t("profile.ratingsEmpty")));
      return section;
    }
    section.append(table("profile-ratings", [t("profile.game"), t("profile.rating"), t("profile.range"), t("profile.played")],
      answer.ratings.map((r) => [gameName(r.preset), `${r.rating}${r.provisional ? "?" : ""}`, `${r.low}–${r.high}`, r.matches])));
    if (answer.ratings.some((r) => r.provisional)) section.append(h("p", { class: "board-note", id: "profile-ratings-note" }, t("profile.ratingNote", { n: answer.provisional_matches })));
    return section;
  }

  passkeySection(answer) {
    const section = h("section", { class: "profile-section", "aria-labelledby": "profile-passkeys-title" },
      h("h2", { id: "profile-passkeys-title" }, t("profile.passkeys")),
      h("p", { class: "board-note" }, t("profile.passkeysHint")));
    if (!answer) {
      section.append(h("p", { class: "error" }, t("profile.failed")));
      return section;
    }
    if (!answer.available) {
      section.append(this.unavailable());
      return section;
    }
    const error = h("p", { class: "error", id: "passkey-error", role: "alert" });
    if (!answer.passkeys.length) section.append(h("p", { id: "passkeys-none" }, t("profile.passkeysNone")));
    else section.append(h("ul", { class: "passkey-list", id: "passkey-list" }, answer.passkeys.map((p) => h("li", { class: "passkey" },
      h("span", { class: "passkey-label" }, p.label), " ",
      h("span", { class: "passkey-dates" }, [t("profile.passkeyCreated", { date: dateText(p.created_at) }),
        p.used_at ? t("profile.passkeyUsed", { date: dateText(p.used_at) }) : null].filter(Boolean).join(", ")), " ",
      h("button", { type: "button", class: "small-button passkey-remove", "aria-label": t("profile.passkeyRemoveAria", { label: p.label }),
        onclick: (e) => this.removePasskey(p.id, e.currentTarget, error) }, t("profile.passkeyRemove"))))));
    if (!webauthnWorks()) section.append(h("p", { id: "passkeys-unsupported" }, t("profile.passkeysUnsupported")));
    else section.append(h("button", { type: "button", class: "action", id: "passkey-add", onclick: (e) => this.addPasskey(e.currentTarget, error) }, t("profile.passkeyAdd")));
    section.append(error);
    return section;
  }

  unavailable() {
    const url = `${location.protocol}//localhost${location.port ? `:${location.port}` : ""}/#/profile`;
    // The address is a link: the sentence is split where it goes.
    const [before, after] = t("profile.passkeysUnavailable", { host: location.hostname, url: "\u0000" }).split("\u0000");
    return h("p", { id: "passkeys-unavailable", class: "profile-warning" },
      before, h("a", { href: url, id: "passkeys-localhost" }, url), after ?? "");
  }

  signInSection() {
    const error = h("p", { class: "error", id: "signin-error", role: "alert" });
    const section = h("section", { class: "profile-section", "aria-labelledby": "profile-signin-title" },
      h("h2", { id: "profile-signin-title" }, t("profile.signin")),
      h("p", { class: "board-note" }, t("profile.signinHint")));
    if (!webauthnWorks()) section.append(h("p", {}, t("profile.passkeysUnsupported")));
    else section.append(h("button", { type: "button", class: "action", id: "passkey-signin", onclick: (e) => this.signIn(e.currentTarget, error) }, t("profile.signin")));
    section.append(error);
    return section;
  }

  accountSection() {
    const error = h("p", { class: "error", id: "account-error", role: "alert" });
    return h("section", { class: "profile-section", "aria-labelledby": "profile-account-title" },
      h("h2", { id: "profile-account-title" }, t("profile.account")),
      h("div", { class: "profile-buttons" },
        h("button", { type: "button", class: "action", id: "profile-signout", onclick: (e) => this.signOut(e.currentTarget, error) }, t("profile.signout")),
        h("button", { type: "button", class: "action danger", id: "profile-delete", onclick: (e) => this.remove(e.currentTarget, error) }, t("profile.delete"))),
      error);
  }

  async step(button, error, work) {
    button.disabled = true;
    error.textContent = "";
    try {
      await work();
    } catch (failed) {
      if (this.gone) return;
      button.disabled = false;
      if (failed && failed.code === "passkey.not_here") error.append(this.unavailable());
      else error.textContent = failure(failed);
      return;
    }
    if (!this.gone) this.render();
  }

  addPasskey(button, error) {
    return this.step(button, error, async () => {
      const { publicKey } = await call("POST", "/api/profile/passkeys/options");
      const credential = await navigator.credentials.create({ publicKey: creationOptions(publicKey) });
      await call("POST", "/api/profile/passkeys", { credential: credentialJson(credential) });
      this.say(t("profile.passkeyAdded"));
    });
  }

  removePasskey(id, button, error) {
    return this.step(button, error, async () => {
      await call("DELETE", `/api/profile/passkeys/${encodeURIComponent(id)}`);
      this.say(t("profile.passkeyRemoved"));
    });
  }

  signIn(button, error) {
    return this.step(button, error, async () => {
      const { publicKey } = await call("POST", "/api/profile/signin/options");
      const credential = await navigator.credentials.get({ publicKey: requestOptions(publicKey) });
      const answer = await call("POST", "/api/profile/signin", { credential: credentialJson(credential) });
      this.say(t("profile.signedIn", { name: answer.profile.name || "" }));
    });
  }

  signOut(button, error) {
    return this.step(button, error, async () => {
      await call("POST", "/api/profile/signout");
      this.say(t("profile.signedOut"));
    });
  }

  async remove(button, error) {
    if (!(await confirmDelete())) return;
    await this.step(button, error, async () => {
      await call("DELETE", "/api/profile");
      this.say(t("profile.deleted"));
    });
  }
}
