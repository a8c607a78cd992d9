// Generated from the rules core by `python -m pyrummy.server.page_facts`: do not edit.
// The meld limits, the ace rules from strictest to loosest, the ranks as shown and
// the core's sentences saying why cards are not a meld (core/messages.py), for meldcheck.js.

export const MIN_MELD = 3;
export const MAX_SET = 4;
export const MAX_RUN = 13;
export const ACE_ORDER = ["low", "high_or_low", "around_the_corner"];
export const RANK_DISPLAY = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
export const WORDS = {
  "en": {
    "too_few": "a meld needs at least 3 cards",
    "set_too_few": "a set needs at least 3 cards",
    "run_too_few": "a run needs at least 3 cards",
    "duplicate": "{card} appears twice",
    "gap": "{cards}: {missing} is missing",
    "gaps": "{cards}: {missing} are missing",
    "gap_jokers": "{cards}: {missing} are missing, more than the jokers can fill",
    "ace_low": "{ranks} is not a run: the ace is low",
    "no_corner": "{ranks} is not a run: the ace does not go around the corner",
    "ranks_differ": "ranks differ: a set is one rank",
    "suits_differ": "suits differ: a run is one suit",
    "neither": "{cards}: neither a set (ranks differ) nor a run (suits differ)",
    "not_in_sequence": "{cards}: neither a set (ranks differ) nor a run (not in sequence, suits differ)",
    "set_too_many": "a set has at most 4 cards",
    "run_too_long": "a run has at most 13 cards",
    "jokers_only": "a meld cannot be only jokers"
  },
  "ru": {
    "too_few": "в комбинации должно быть не меньше 3 карт",
    "set_too_few": "в сете должно быть не меньше 3 карт",
    "run_too_few": "в стрите должно быть не меньше 3 карт",
    "duplicate": "{card} встречается дважды",
    "gap": "{cards}: не хватает {missing}",
    "gaps": "{cards}: не хватает {missing}",
    "gap_jokers": "{cards}: не хватает {missing}, джокеров на все пропуски не хватит",
    "ace_low": "{ranks} — не стрит: туз здесь только младший",
    "no_corner": "{ranks} — не стрит: через туза стрит не продолжается",
    "ranks_differ": "достоинства разные: в сете все карты одного достоинства",
    "suits_differ": "масти разные: в стрите все карты одной масти",
    "neither": "{cards}: ни сет (достоинства разные), ни стрит (масти разные)",
    "not_in_sequence": "{cards}: ни сет (достоинства разные), ни стрит (не по порядку, масти разные)",
    "set_too_many": "в сете не больше 4 карт",
    "run_too_long": "в стрите не больше 13 карт",
    "jokers_only": "комбинация не может состоять из одних джокеров"
  }
};
