// The table's own texts (added to the catalogue): the knock advice, the
// deal's banner and the match summary.

import { addTexts } from "./i18n.js";

addTexts({
  en: {
    "table.actions": "Actions",
    "advice.knockGin": "knock with {card}: no deadwood, that is gin",
    "advice.knockLow": "knock with {card}: deadwood {n} is low enough",
    "advice.knockHigh": "Knocking with {card} leaves deadwood {n}. With {limit} or more an opponent is likely to be lower, and a beaten knocker pays.",
    "advice.knockTaken": "Knocking with {card} leaves deadwood {n}, and {name} has taken {cards} from the discard pile, which suggests melds. A beaten knocker pays.",
    "summary.title": "Your match",
    "summary.titleWinner": "{name}'s match",
    "summary.points": "Points",
    "summary.bestDeal": "Best deal",
    "summary.bestDealValue": "deal {n}, {amount}",
    "summary.dealsWon": "Deals won",
    "summary.ofDeals": "{n} of {m}",
    "summary.knocks": "Knocks",
    "summary.moves": "Moves made",
  },
  ru: {
    "table.actions": "Действия",
    "advice.knockGin": "стучите с {card}: остатка нет, это джин",
    "advice.knockLow": "стучите с {card}: остаток {n} достаточно мал",
    "advice.knockHigh": "Стук с {card} оставляет остаток {n}. При остатке {limit} и больше у соперника, скорее всего, меньше, а перебитый стучавший платит.",
    "advice.knockTaken": "Стук с {card} оставляет остаток {n}, а {name} брал из сброса {cards} — похоже, у него комбинации. Перебитый стучавший платит.",
    "summary.title": "Ваш матч",
    "summary.titleWinner": "Матч: {name}",
    "summary.points": "Очки",
    "summary.bestDeal": "Лучшая сдача",
    "summary.bestDealValue": "сдача {n}, {amount}",
    "summary.dealsWon": "Выиграно сдач",
    "summary.ofDeals": "{n} из {m}",
    "summary.knocks": "Стуков",
    "summary.moves": "Ваших ходов",
  },
});
