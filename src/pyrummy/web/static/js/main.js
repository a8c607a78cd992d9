// The page: a header, and one view at a time chosen by the address (#/...).
//   #/            the lobby: the game to play and its Deal button first
//                 (lobby.js)          #/table/ID     a table (Resign in the header)
//   #/history     finished matches   #/replay/ID    one match, step by step
//   #/friends     a table for friends #/room/CODE   its waiting room (/join/CODE)
//   #/rules/GAME  the rules          #/faq          questions and answers
//   #/learn       the guided Knock Rummy deal
//   #/leaderboard/GAME  the game's rated players (ratings.js)
//   #/profile     the player's profile, ratings and passkeys (profile.js)

//
// Only the lobby is imported here: the other views are imported when first
// shown, so the first load (and its slow-link time) carries the lobby alone.

import { h, clear } from "./dom.js";
import { t, lang, setLang, onLangChange } from "./i18n.js";
import { settings, saveSetting } from "./settings.js";
import { renderLobby, startGame, FIRST_BOT } from "./lobby.js";
import { renderStats } from "./stats.js";
import { tokenFor, knownTables } from "./api.js";
import { resignedAt } from "./stats.js";
import { confirmResign, resignTable } from "./resign.js";

const main = document.getElementById("view");
let current = null;
/** Counts the routes taken: a view whose module arrives after the next route is not shown. */
let routes = 0;
/** Tables whose match this page has seen end (stats.js says so): no Resign there. */
const overTables = new Set();

/** The table shown now, when it is one this browser has a seat at and has not left. */
function seatedTable() {
  const parts = (location.hash || "#/").slice(2).split("/");
  if (parts[0] !== "table" || !parts[1]) return null;
  const id = parts[1];
  if (!tokenFor(id) || resignedAt(id) || overTables.has(id)) return null;
  const known = knownTables().find((m) => m.id === id);
  return { id, room: !!known?.room, quick: !!known?.quick };
}

async function resign(table, button, note) {
  if (!(await confirmResign({ friends: table.room || !!document.querySelector(".room-panel"), rated: table.quick }))) return;
  button.disabled = true;
  note.textContent = "";
  try {
    const state = await resignTable(table.id);
    overTables.add(table.id);
    header();
    // The table shows the seat's state at once (its socket brings the rest).
    if (state && current && current.accept) current.accept(state);
    announce(t("resign.done"));
    document.getElementById("header-note")?.focus();
  } catch (error) {
    button.disabled = false;
    note.textContent = t("resign.failed", { message: error.message });
    note.hidden = false;
  }
}

/** A short spoken and shown line under the header (after Resign). */
function announce(text) {
  const line = document.getElementById("header-note");
  if (!line) return;
  line.textContent = text;
}

/**
 * The header: the name, the links and the settings; on a phone the links and
 * settings fold into a menu. ``keepOpen`` rebuilds it as it was (an open menu
 * stays open, the focused control keeps the focus), for a change made in it.
 */
function header({ keepOpen = false } = {}) {
  const bar = document.getElementById("topbar");
  const wasOpen = keepOpen && bar.classList.contains("menu-open");
  const focused = keepOpen && bar.contains(document.activeElement) ? document.activeElement.id : null;
  clear(bar);
  bar.classList.toggle("menu-open", wasOpen);
  const brand = h("a", { href: "#/", class: "brand" }, h("span", { class: "brand-suit", "aria-hidden": "true" }, "♠"), t("app.title"));
  const nav = h("nav", { "aria-label": t("nav.menu") },
    h("a", { href: "#/" }, t("nav.play")),
    h("a", { href: "#/history" }, t("nav.history")),
    h("a", { href: "#/stats" }, t("nav.stats")),
    h("a", { href: "#/leaderboard/knock" }, t("nav.leaderboard")),
    h("a", { href: "#/rules/knock" }, t("nav.rules")),
    h("a", { href: "#/faq" }, t("nav.faq")),
    h("a", { href: "#/profile" }, t("nav.profile")),
  );
  const prefs = settings();
  const four = h("label", { class: "toggle" },
    h("input", { type: "checkbox", id: "four-colour", checked: prefs.fourColour, onchange: (e) => { saveSetting("fourColour", e.target.checked); route({ keepOpen: true }); } }),
    " ", t("settings.fourColour"));
  const langButton = h("button", {
    type: "button", class: "lang", id: "lang-switch", "aria-label": t("nav.language.aria"), lang: lang() === "ru" ? "en" : "ru",
    onclick: () => setLang(lang() === "ru" ? "en" : "ru"),
  }, t("nav.language"));
  const sound = h("button", {
    type: "button", class: "lang", id: "sound-toggle", "aria-pressed": prefs.sound ? "true" : "false",
    onclick: () => { saveSetting("sound", !settings().sound); header({ keepOpen: true }); },
  }, `${t("settings.sound")}: ${t(prefs.sound ? "settings.on" : "settings.off")}`);
  // Resign: only at a table where this browser has a seat and the match goes on.
  const table = seatedTable();
  const note = h("p", { class: "resign-error", id: "resign-error", role: "alert", hidden: true });
  const resignButton = table ? h("button", { type: "button", class: "lang resign", id: "resign-button",
    onclick: (e) => resign(table, e.currentTarget, note) }, t("resign.button")) : null;
  const panel = h("div", { class: "menu-panel", id: "menu-panel" },
    nav, h("div", { class: "prefs" }, resignButton, note, four, sound, langButton));
  // On a phone the links and settings fold into this menu (style.css).
  const menuButton = h("button", { type: "button", class: "menu-button", id: "menu-button", "aria-controls": "menu-panel",
    "aria-expanded": wasOpen ? "true" : "false",
    onclick: () => {
      const open = !bar.classList.contains("menu-open");
      bar.classList.toggle("menu-open", open);
      menuButton.setAttribute("aria-expanded", open ? "true" : "false");
      if (open) panel.querySelector("a, button")?.focus();
    } },
  h("span", { class: "menu-icon", "aria-hidden": "true" }, "☰"), h("span", { class: "menu-label" }, t("nav.menu")));
  bar.append(brand, menuButton, panel);
  if (focused) document.getElementById(focused)?.focus();
  // The static page's own texts follow the language too.
  document.getElementById("skip-link").textContent = t("nav.skip");
  document.getElementById("api-link").textContent = t("nav.api");
  document.documentElement.lang = lang();
  const here = location.hash || "#/";
  for (const link of nav.querySelectorAll("a")) {
    const target = link.getAttribute("href");
    if (target === here || (target !== "#/" && here.startsWith(target.split("/").slice(0, 2).join("/")))) {
      link.setAttribute("aria-current", "page");
    }
  }
}

let tableStylesLoaded = null;

/**
 * The style sheet of the table and the other views (table.css): not needed
 * by the lobby, so it is not among the first screen's requests (on a slow
 * link each request counts); asked for once the lobby is usable, or by the
 * first other view. Resolves when loaded (or failed: the view still works).
 */
function tableStyles() {
  if (!tableStylesLoaded) {
    tableStylesLoaded = new Promise((resolve) => {
      const link = h("link", { rel: "stylesheet", href: "/static/table.css" });
      link.addEventListener("load", resolve);
      link.addEventListener("error", resolve);
      document.head.append(link);
    });
  }
  return tableStylesLoaded;
}

/** The view's module (and style sheet), then the view: shown unless the address changed meanwhile. */
function later(load, show) {
  const mine = routes;
  main.setAttribute("aria-busy", "true");
  Promise.all([load(), tableStyles()]).then(([module]) => {
    if (mine !== routes) return;
    main.removeAttribute("aria-busy");
    current = show(module) || null;
    focusable();
  }, () => {
    if (mine !== routes) return;
    main.removeAttribute("aria-busy");
    main.append(h("p", { class: "error", role: "alert" }, t("error.offline")));
  });
}

/** A view's heading can take the focus (the skip link and screen readers land there). */
function focusable() {
  const heading = main.querySelector("h1");
  if (heading && document.activeElement === document.body) heading.setAttribute("tabindex", "-1");
}

function route({ keepOpen = false } = {}) {
  routes += 1;
  header({ keepOpen });
  announce("");
  document.body.classList.toggle("four-colour", !!settings().fourColour);
  const hash = location.hash || "#/";
  const parts = hash.slice(2).split("/");
  if (current && current.destroy) current.destroy();
  current = null;
  clear(main);
  main.removeAttribute("aria-busy");
  document.title = t("app.title");
  if (parts[0] === "table" && parts[1]) {
    // A friends' table also gets the room's panel (players, watchers, chat).
    later(() => Promise.all([import("./table.js"), import("./room.js")]), ([{ TableView }, { RoomPanel }]) => {
      const view = new TableView(main, parts[1]);
      const panel = new RoomPanel(main, parts[1]);
      return {
        destroy: () => { view.destroy(); panel.destroy(); },
        relabel: () => { view.relabel(); panel.relabel(); },
        accept: (state) => view.accept(state),
      };
    });
  } else if (parts[0] === "friends") {
    later(() => import("./room.js"), ({ renderFriendsForm }) => { renderFriendsForm(main); });
  } else if (parts[0] === "room" && parts[1]) {
    later(() => import("./room.js"), ({ RoomView }) => new RoomView(main, parts[1]));
  } else if (parts[0] === "learn") {
    later(() => import("./tutorial.js"), ({ TutorialView }) => new TutorialView(main, {
      onPlay: () => startGame({ preset: "knock", options: {}, bots: [FIRST_BOT], speed: settings().speed, length: "default" }),
    }));
  } else if (parts[0] === "stats") {
    later(() => Promise.resolve(null), () => { renderStats(main); });
  } else if (parts[0] === "history") {
    later(() => import("./history.js"), ({ renderHistory }) => { renderHistory(main); });
  } else if (parts[0] === "replay" && parts[1]) {
    later(() => import("./history.js"), ({ ReplayView }) => new ReplayView(main, parts[1]));
  } else if (parts[0] === "rules") {
    later(() => import("./pages.js"), ({ renderRules }) => { renderRules(main, parts[1] || "knock"); });
  } else if (parts[0] === "leaderboard") {
    later(() => import("./ratings.js"), ({ renderLeaderboard }) => { renderLeaderboard(main, parts[1] || "knock"); });
  } else if (parts[0] === "profile") {
    later(() => import("./profile.js"), ({ ProfileView }) => new ProfileView(main));
  } else if (parts[0] === "faq") {
    later(() => import("./pages.js"), ({ renderFaq }) => { renderFaq(main); });
  } else {
    renderLobby(main).then(tableStyles, tableStyles);
  }
  focusable();
}

window.addEventListener("hashchange", () => route());
// A match seen to its end (stats.js records it) leaves nothing to resign.
document.addEventListener("pyrummy:match-over", (event) => {
  const id = event.detail && event.detail.tableId;
  if (id && !overTables.has(id)) {
    overTables.add(id);
    header({ keepOpen: true });
  }
});
// The menu closes with Escape, its focus back on its button.
document.addEventListener("keydown", (event) => {
  const bar = document.getElementById("topbar");
  if (event.key === "Escape" && bar.classList.contains("menu-open")) {
    bar.classList.remove("menu-open");
    const button = document.getElementById("menu-button");
    button?.setAttribute("aria-expanded", "false");
    button?.focus();
  }
});
// The skip link moves focus to the view without changing the address (which names the view).
document.getElementById("skip-link").addEventListener("click", (event) => {
  event.preventDefault();
  main.focus();
});
onLangChange(() => {
  if (current && current.relabel) {
    header({ keepOpen: true });
    current.relabel();
  } else {
    route({ keepOpen: true });
  }
});
document.documentElement.lang = lang();
route();
