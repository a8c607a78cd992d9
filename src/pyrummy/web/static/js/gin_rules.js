// Gin's choice of rules, shared by the lobby and the friends' table setup:
// Gin is one game in a list, played by the standard rules most players know
// (``gin-standard``: the first up-card's offer, gin 25, undercut 25, big gin
// 31, game bonuses) or by the source's (``gin``), with Oklahoma a house rule
// either may add. What each set scores is read from the server's presets
// (``gin`` of /api/presets), never written here.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import "./gin_text.js";

/** Gin's rule sets, the one a first visit gets first. */
export const GIN_RULES = ["gin-standard", "gin"];
/** The rules a person who never chose gets: the ones players of other sites expect. */
export const GIN_DEFAULT = "gin-standard";

/** Is ``preset`` one of Gin's rule sets? */
export function isGin(preset) {
  return GIN_RULES.includes(preset);
}

/** What a gin rule set scores, in short words, from the server's facts of it (``info.gin``). */
export function ginFacts(info, { oklahoma = false } = {}) {
  const f = info?.gin;
  if (!f) return "";
  const parts = [
    f.up_card_offer ? t("ginFact.offer") : null,
    // Under Oklahoma the limit is the up-card's: the house rule's hint says so.
    oklahoma ? null : t("ginFact.knock", { n: f.knock_limit }),
    t("ginFact.gin", { n: f.gin_bonus }),
    t("ginFact.undercut", { n: f.undercut_bonus }),
    f.big_gin_bonus ? t("ginFact.bigGin", { n: f.big_gin_bonus }) : null,
    f.layoff_on_gin ? null : t("ginFact.noLayoffOnGin"),
    f.game_bonus ? t("ginFact.game", { n: f.game_bonus }) : null,
    f.line_bonus ? t("ginFact.line", { n: f.line_bonus }) : null,
    f.shutout_double ? t("ginFact.shutout") : null,
  ];
  return parts.filter(Boolean).join(" · ");
}

/**
 * The fieldset choosing Gin's rules (a radio per rule set the server has,
 * with its facts) and Oklahoma. ``prefix`` keeps the ids of two forms apart
 * ("" gives ``gin-rules-standard``, ``gin-rules-source``, ``opt-oklahoma``);
 * ``onRules(name)`` and ``onOklahoma(checked)`` are called on a change.
 */
export function ginRulesFieldset({ presets, preset, oklahoma, prefix = "", onRules, onOklahoma }) {
  const choices = GIN_RULES.filter((name) => presets[name]).map((name) => {
    const id = `${prefix}gin-rules-${name === "gin" ? "source" : "standard"}`;
    return h("label", { class: "game-choice gin-rules-choice", for: id },
      h("input", { type: "radio", name: `${prefix}gin-rules`, id, value: name, checked: preset === name,
        "aria-describedby": `${id}-facts`, onchange: () => onRules(name) }),
      h("span", { class: "game-title" }, t(name === "gin" ? "lobby.ginSource" : "lobby.ginStandard")),
      h("span", { class: "game-blurb", id: `${id}-facts` }, ginFacts(presets[name], { oklahoma })));
  });
  const box = `${prefix}opt-oklahoma`;
  return h("fieldset", { class: "options gin-rules", id: `${prefix}gin-rules` }, h("legend", {}, t("lobby.ginRules")),
    h("div", { class: "game-list" }, choices),
    h("label", { class: "check", for: box },
      h("input", { type: "checkbox", id: box, checked: oklahoma, "aria-describedby": `${box}-hint`,
        onchange: (e) => onOklahoma(e.target.checked) }),
      " ", t("opt.oklahoma")),
    h("p", { class: "muted", id: `${box}-hint` }, t("opt.oklahoma.hint")));
}
