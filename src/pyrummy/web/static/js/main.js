// The page: a header, and one view at a time chosen by the address (#/...).
//   #/            the lobby          #/table/ID     a table
//   #/history     finished matches   #/replay/ID    one match, step by step
//   #/friends     a table for friends #/room/CODE   its waiting room (/join/CODE)
//   #/rules/GAME  the rules          #/faq          questions and answers
//   #/learn       the guided Knock Rummy deal

import { h, clear } from "./dom.js";
import { t, lang, setLang, onLangChange } from "./i18n.js";
import { settings, saveSetting } from "./settings.js";
import { renderLobby } from "./lobby.js";
import { TableView } from "./table.js";
import { renderHistory, ReplayView } from "./history.js";
import { renderRules, renderFaq } from "./pages.js";
import { renderStats } from "./stats.js";
import { renderFriendsForm, RoomView, RoomPanel } from "./room.js";
import { TutorialView } from "./tutorial.js";
import { startGame } from "./lobby.js";

const main = document.getElementById("view");
let current = null;

function header() {
  const bar = document.getElementById("topbar");
  clear(bar);
  const nav = h("nav", { "aria-label": "main" },
    h("a", { href: "#/", class: "brand" }, h("span", { class: "brand-suit", "aria-hidden": "true" }, "♠"), t("app.title")),
    h("a", { href: "#/" }, t("nav.play")),
    h("a", { href: "#/history" }, t("nav.history")),
    h("a", { href: "#/stats" }, t("nav.stats")),
    h("a", { href: "#/rules/knock" }, t("nav.rules")),
    h("a", { href: "#/faq" }, t("nav.faq")),
  );
  const prefs = settings();
  const four = h("label", { class: "toggle" },
    h("input", { type: "checkbox", id: "four-colour", checked: prefs.fourColour, onchange: (e) => { saveSetting("fourColour", e.target.checked); route(); } }),
    " ", t("settings.fourColour"));
  const langButton = h("button", {
    type: "button", class: "lang", id: "lang-switch", "aria-label": t("nav.language.aria"), lang: lang() === "ru" ? "en" : "ru",
    onclick: () => setLang(lang() === "ru" ? "en" : "ru"),
  }, t("nav.language"));
  const sound = h("button", {
    type: "button", class: "lang", id: "sound-toggle", "aria-pressed": prefs.sound ? "true" : "false",
    onclick: () => { saveSetting("sound", !settings().sound); header(); },
  }, `${t("settings.sound")}: ${t(prefs.sound ? "settings.on" : "settings.off")}`);
  bar.append(nav, h("div", { class: "prefs" }, four, sound, langButton));
  // The static page's own texts follow the language too.
  document.getElementById("skip-link").textContent = t("nav.skip");
  document.getElementById("api-link").textContent = t("nav.api");
  document.documentElement.lang = lang();
  for (const link of nav.querySelectorAll("a")) {
    const here = location.hash || "#/";
    const target = link.getAttribute("href");
    if (target === here || (target !== "#/" && here.startsWith(target.split("/").slice(0, 2).join("/")))) {
      link.setAttribute("aria-current", "page");
    }
  }
}

function route() {
  header();
  document.body.classList.toggle("four-colour", !!settings().fourColour);
  const hash = location.hash || "#/";
  const parts = hash.slice(2).split("/");
  if (current && current.destroy) current.destroy();
  current = null;
  clear(main);
  document.title = t("app.title");
  if (parts[0] === "table" && parts[1]) {
    // A friends' table also gets the room's panel (players, watchers, chat).
    const view = new TableView(main, parts[1]);
    const panel = new RoomPanel(main, parts[1]);
    current = { destroy: () => { view.destroy(); panel.destroy(); }, relabel: () => { view.relabel(); panel.relabel(); } };
  } else if (parts[0] === "friends") {
    renderFriendsForm(main);
  } else if (parts[0] === "room" && parts[1]) {
    current = new RoomView(main, parts[1]);
  } else if (parts[0] === "learn") {
    current = new TutorialView(main, { onPlay: () => startGame({ preset: "knock", options: {}, bots: ["easy"], speed: settings().speed, length: "default" }) });
  } else if (parts[0] === "stats") {
    renderStats(main);
  } else if (parts[0] === "history") {
    renderHistory(main);
  } else if (parts[0] === "replay" && parts[1]) {
    current = new ReplayView(main, parts[1]);
  } else if (parts[0] === "rules") {
    renderRules(main, parts[1] || "knock");
  } else if (parts[0] === "faq") {
    renderFaq(main);
  } else {
    renderLobby(main);
  }
  const heading = main.querySelector("h1");
  if (heading && document.activeElement === document.body) heading.setAttribute("tabindex", "-1");
}

window.addEventListener("hashchange", route);
// The skip link moves focus to the view without changing the address (which names the view).
document.getElementById("skip-link").addEventListener("click", (event) => {
  event.preventDefault();
  main.focus();
});
onLangChange(() => {
  if (current && current.relabel) {
    header();
    current.relabel();
  } else {
    route();
  }
});
document.documentElement.lang = lang();
route();
