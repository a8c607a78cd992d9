// The rules pages (one per game, with the flow of a deal) and the FAQ. Their
// texts (rules_text.js) get the rules' figures from the presets.

import { h } from "./dom.js";
import { t, lang } from "./i18n.js";
import { rulesText, faqText, GAME_ORDER } from "./rules_text.js";
import { RISKY_DEADWOOD } from "./advice.js";
import { say } from "./tutorial.js";

const FLOWS = {
  knock: ["flow.deal", "flow.draw", ["flow.give", "flow.knock"], "flow.showdown", "flow.settle"],
  gin: ["flow.deal", "flow.draw", ["flow.give", "flow.knock"], "flow.showdown", "flow.settle"],
  meld: ["flow.deal", "flow.draw", "flow.meld", ["flow.discard", "flow.out"], "flow.settle"],
};

function flowDiagram(kind) {
  const steps = FLOWS[kind];
  const items = [];
  steps.forEach((step, i) => {
    if (i) items.push(h("li", { class: "flow-arrow", "aria-hidden": "true" }, "→"));
    const text = Array.isArray(step) ? step.map((s) => t(s)) : [t(step)];
    items.push(h("li", { class: `flow-step${i === 2 ? " loop" : ""}` }, text.map((line, j) => h("span", { class: j ? "alt" : "" }, line))));
  });
  return h("figure", { class: "flow" },
    h("figcaption", {}, t("rules.flow")),
    h("div", { class: "flow-scroll", tabindex: "0", role: "region", "aria-label": t("rules.flow") }, h("ol", { class: "flow-steps" }, items)),
    h("p", { class: "flow-hint" }, t("rules.flowHint")));
}

export function renderRules(root, game) {
  const texts = rulesText(lang());
  const chosen = texts[game] ? game : "knock";
  const rules = texts[chosen];
  const tabs = h("nav", { class: "rule-tabs", "aria-label": t("rules.title") },
    GAME_ORDER.map((g) => h("a", { href: `#/rules/${g}`, "aria-current": g === chosen ? "page" : null }, t(`game.${g}`))));
  const sections = rules.sections.map(([title, text]) => h("section", {}, h("h2", {}, title), h("p", {}, text)));
  const common = texts.common.sections.map(([title, text]) => h("section", {}, h("h3", {}, title), h("p", {}, text)));
  root.append(h("article", { class: "rules" },
    h("h1", {}, `${t("rules.title")}: ${rules.title}`), tabs,
    chosen === "knock" ? h("p", { class: "tutorial-link" }, h("a", { href: "#/learn", id: "rules-tutorial" }, say("again"))) : null,
    flowDiagram(rules.flow), sections,
    h("h2", {}, texts.common.title), common));
}

export function renderFaq(root) {
  const items = faqText(lang(), { RISKY_DEADWOOD }).map(([q, a], i) => h("details", { class: "faq-item", open: i === 0 },
    h("summary", {}, `${i + 1}. ${q}`), h("p", {}, a)));
  root.append(h("article", { class: "faq" }, h("h1", {}, t("faq.title")), items));
}
