// The rules of each game and the FAQ, in English and Russian (from the
// project's docs/rules/ and the source pages). Each rule section is a title and
// paragraphs; `flow` picks the deal diagram.
//
// The prose never writes a figure of the rules: a preset's numbers (bonuses,
// limits, targets, hand sizes...) are placeholders filled from the presets
// themselves (rules_figures.js, generated from core/rules.py), the meld limits
// from meld_facts.js, so changing a preset changes this text. In a text:
//   {field}          the game's own figure (any option of core/rules.py, or deck_size)
//   {preset.field}   another game's figure (the common rules and the FAQ)
//   {a + b - 3}      a sum of figures and whole numbers, signs spaced (worked examples)
//   {handN}          the cards each of N players gets; {hands} all of them, in words
//   {players}        the number of players ("2-5"); {all_seven_deals} as "4-6"
//   {MIN_MELD} {MAX_SET} {MAX_RUN}  the meld limits; names the caller passes ({RISKY_DEADWOOD})
// tests/web/test_web_rules_text.py checks that every other number is an
// example, a card or a value of the core, and that en and ru say the same figures.

import { PRESET_FIGURES } from "./rules_figures.js";
import { MIN_MELD, MAX_SET, MAX_RUN } from "./meld_facts.js";

export const RULES = {
  en: {
    common: {
      title: "Common to all games",
      sections: [
        ["Cards and values", "A {knock.deck_size}-card deck without jokers (Rotham adds {rotham.jokers}). The ace is low: A 2 3 … 10 J Q K. Values: ace 1, 2-10 face value, J Q K 10."],
        ["Melds", "A set is {MIN_MELD} or {MAX_SET} cards of one rank. A run is {MIN_MELD} or more cards of one suit in a row. A-2-3 is a run; Q-K-A and K-A-2 are not. A card belongs to one meld only."],
        ["Best arrangement", "Unmatched cards are deadwood. The page arranges your hand into the melds that leave the least deadwood — not the longest run. 7♠ 7♥ 7♦ 8♠ 9♠: the best is 7♠ 8♠ 9♠ + 7♥ 7♦, deadwood 14."],
        ["Dealing and turns", "The first dealer is random; the deal passes to the left. Play starts to the dealer's left and goes clockwise. Each turn begins by drawing the top card of the stock or of the discard pile. A card taken from the discard pile cannot be given back in the same turn."],
      ],
    },
    knock: {
      title: "Knock Rummy (Poker Rum)",
      flow: "knock",
      sections: [
        ["Players and cards", "{players} players, each for themselves: {hands}. One card starts the discard pile; the rest is the stock. A match is one full round of dealers."],
        ["Hidden melds", "Melds are never shown during play, and nobody lays off on another player's cards."],
        ["A turn", "Draw one card, then give one back: face up on the discard pile (play passes to the left), or face down — that is the knock, and the deal ends at once. You may knock on any turn, the first included, with any deadwood."],
        ["Stock exhausted", "The stock is not rebuilt. If your turn starts with the stock empty you may take the top discard or decline it; declining ends the deal with a showdown without a knocker (no penalty, no bonus). After {turn_cap} turns the deal also ends that way."],
        ["Showdown", "Every hand is shown in its best arrangement; the lowest deadwood wins."],
        ["Settlement", "Rum — the knocker has 0: everyone pays the knocker their deadwood + {rum_bonus}, even another 0. Knocker alone lowest: everyone pays the knocker the difference. Knocker tied for lowest: the other lowest players collect the differences; the knocker pays and gets nothing. Knocker beaten: the lowest players collect the differences, and the knocker pays {knock_penalty} more; winners share equally, in exact fractions (8½, 17/3)."],
        ["Example", "A knocks with 4♥ 5♥ 6♥ Q♣ Q♦ Q♠ 8♦ (deadwood 8); B has A♠ A♥ A♦ 7♣ 8♣ 9♣ 3♥ (deadwood 3). B wins: A pays 8 − 3 + {knock_penalty} = {8 - 3 + knock_penalty}. A third player with 20 would pay B 17."],
        ["Winning the match", "The highest net total after the round of dealers wins; players tied on the highest share the win."],
      ],
    },
    "knock-target": {
      title: "Knock Rummy to a target",
      flow: "knock",
      sections: [
        ["Differences from Knock Rummy", "{players} players: {hands}. A beaten knocker pays {knock_penalty} to every opponent whose deadwood is lower, not one {knock_penalty} shared. The match ends after the deal in which someone reaches the target ({target} points); the highest total wins."],
        ["Example", "Knocker 9, others 2 and 5: the 2 gets 7 + {knock_penalty} from the knocker and 3 from the 5; the 5 gets {knock_penalty} from the knocker."],
      ],
    },
    rummy: {
      title: "Rummy",
      flow: "meld",
      sections: [
        ["Players and cards", "You against {min_players - 1}-{max_players - 1} bots: {hands}. Unlike the other games (where the first dealer is random), here the first dealer sits to your right, so you play first in the first deal; then the deal passes clockwise."],
        ["A turn", "Draw one card. Then, in any order and as often as you like: meld (put {MIN_MELD} or more cards forming a set or run face up) and lay off (add cards to any meld on the table, anyone's). Finish by discarding one card."],
        ["Lay-offs", "A set grows to {MAX_SET} cards at most; a run grows at either end; an ace only goes below a 2, nothing above a king. Every laid-off card shows who laid it. Melds are never rearranged."],
        ["The taken discard", "It cannot be discarded in the same turn, and you may not meld or lay off so that it is the only card left in your hand."],
        ["Undo", "Before you discard, the melds and lay-offs of this turn can be taken back. A card drawn from the stock cannot be put back."],
        ["Going out", "The moment your hand is empty you are out; discarding your last card is going out too. You score the value of all the cards left in the other hands. Going out at once — with nothing melded or laid off earlier in the deal — doubles the score."],
        ["Stock runs out", "The first time, the discard pile except its top card is turned over to form the new stock. The second time, or after {turn_cap} turns with nobody out, the deal is a draw."],
        ["Game", "The first player to reach {target} points wins."],
      ],
    },
    basic: {
      title: "Basic Rummy",
      flow: "meld",
      sections: [
        ["Standard game", "{players} players; {hands}. Draw, then at most one meld, any number of lay-offs, and a discard. Go out by melding, laying off or discarding your last card. When the stock is empty and the next player does not want the discard, the pile is turned over unshuffled as the new stock. The winner scores the cards left in the other hands."],
        ["House rules (options)", "Any number of melds per turn; going out at once doubles the score or adds 10; no lay-offs before your own first meld; the ace high or low (Q-K-A, ace 15) or around the corner (K-A-2); going out only by a discard; what happens when the stock runs out; scoring by penalty points or pay per point."],
      ],
    },
    block: {
      title: "Block Rummy",
      flow: "meld",
      sections: [
        ["The block", "As Basic Rummy, but the discard pile is never reused. When the stock is empty and the next player does not want the discard, the deal ends: the lowest hand scores the differences to every other hand; tied lowest players share. Example: 6, 15, 7, 21 → the 6 scores 9 + 1 + 15 = 25."],
      ],
    },
    rotham: {
      title: "Rotham Rummy",
      flow: "meld",
      sections: [
        ["Jokers", "{deck_size} cards: the deck and {jokers} jokers. A joker stands for any card in a set or run. Holding the real card a melded joker stands for, you may exchange it for the joker in your turn. A joker left in hand counts 15."],
        ["Deals", "{deals} deals. The starting player gets {hand2 + 1} cards and no draw on the first turn; everyone else gets {hand2}. Deals 1-{all_seven_first - 1} play as Basic Rummy; in deals {all_seven_deals} you may meld only all {hand2} cards at once."],
      ],
    },
    gin: {
      title: "Gin Rummy",
      flow: "gin",
      sections: [
        ["Players and cards", "{players} players, {hand2} cards each. Melds are kept in hand."],
        ["A turn", "Draw from the stock or the discard pile, then discard."],
        ["Knock", "After drawing you may knock when the deadwood left after the knock card is {knock_limit} or less. Knocking is never required."],
        ["Showdown", "The knocker shows melds and deadwood; the defender shows melds and lays off deadwood on the knocker's melds (also on a gin hand)."],
        ["Score", "Knocker lower: the knocker scores the difference. Defender equal or lower (undercut): the defender scores the difference + {undercut_bonus}. Gin (all {hand2} cards melded): {gin_bonus} + the defender's deadwood. With only {wall_cards} cards left in the stock and no knock, the deal is a draw. Game to {target}."],
      ],
    },
    "gin-standard": {
      title: "Gin Rummy (standard rules)",
      flow: "gin",
      sections: [
        ["Source", "The common rules of Gin Rummy as Pagat (pagat.com/rummy/ginrummy.html) and Hoyle give them; the rest as in Gin Rummy."],
        ["First up-card", "The non-dealer may take the up-card or pass; then the dealer may take it or pass; if both pass, the non-dealer draws from the stock. Press Pass to pass."],
        ["Score", "Knocker lower: the difference. Undercut (defender equal or lower): the difference + {undercut_bonus}. Gin: {gin_bonus} + the defender's deadwood; no lay-offs on gin. Big gin ({hand2 + 1} cards all melded after drawing, no discard): {big_gin_bonus} + the defender's deadwood."],
        ["Game", "Game to {target}: the winner adds {game_bonus}, each player {line_bonus} per deal won. If the loser scored nothing (shutout), the winner's whole score is doubled."],
        ["Oklahoma (option)", "The first up-card's value is the knock limit (an ace: gin only); a spade up-card doubles the deal's score. The table shows the limit in force."],
      ],
    },
    "gin-openspiel": {
      title: "Gin Rummy (OpenSpiel's rules)",
      flow: "gin",
      sections: [
        ["Source", "The defaults of OpenSpiel's gin_rummy, for research side by side: a match of {deals} deal, knock at {knock_limit} or less, the first up-card offered, gin {gin_bonus}, undercut {undercut_bonus}, no lay-offs on gin."],
        ["Ties", "A defender who ties the knocker scores nothing and neither does the knocker."],
      ],
    },
  },
  ru: {
    common: {
      title: "Общее для всех игр",
      sections: [
        ["Карты и очки", "Колода из {knock.deck_size} карт без джокеров (в ротаме ещё {rotham.jokers}). Туз младший: A 2 3 … 10 J Q K. Стоимость: туз 1, 2-10 по номиналу, J Q K по 10."],
        ["Комбинации", "Сет — {MIN_MELD} или {MAX_SET} карты одного достоинства. Стрит — {MIN_MELD} и больше карт одной масти подряд. A-2-3 — стрит, а Q-K-A и K-A-2 — нет. Карта входит только в одну комбинацию."],
        ["Лучшая раскладка", "Несвязанные карты — остаток. Страница раскладывает руку так, чтобы остаток был наименьшим, а не ряд самым длинным. 7♠ 7♥ 7♦ 8♠ 9♠: лучше 7♠ 8♠ 9♠ + 7♥ 7♦, остаток 14."],
        ["Раздача и ходы", "Первый сдающий случаен, дальше сдача переходит влево. Начинает сосед сдающего слева, ход идёт по часовой. Каждый ход начинается с верхней карты колоды или сброса. Взятую из сброса карту нельзя вернуть в тот же ход."],
      ],
    },
    knock: {
      title: "Нок-рамми (Poker Rum)",
      flow: "knock",
      sections: [
        ["Игроки и карты", "{players} человек, каждый за себя: {hands}. Одна карта открывает сброс, остальное — закрытая колода. Партия — полный круг сдающих."],
        ["Закрытые комбинации", "Во время игры комбинации не открывают, к чужим картам ничего не подкладывают."],
        ["Ход", "Возьмите одну карту и верните одну: открыто на сброс (ход переходит влево) или закрыто — это стук, сдача сразу кончается. Стучать можно в любой ход, даже в первый, с любым остатком."],
        ["Колода кончилась", "Колоду не восстанавливают. Если ход начинается при пустой колоде, можно взять верхнюю карту сброса или отказаться; отказ заканчивает сдачу вскрытием без стука (без штрафа и без премии). После {turn_cap} ходов сдача кончается так же."],
        ["Вскрытие", "Все руки показывают в лучшей раскладке; выигрывает меньший остаток."],
        ["Расчёт", "Рум — у стучавшего 0: каждый платит ему свой остаток + {rum_bonus}, даже другой ноль. Стучавший один меньше всех: каждый платит ему разницу. Стучавший делит минимум: разницы забирают другие минимальные, стучавший ничего не платит и не получает. Стучавший перебит: минимальные забирают разницы, а стучавший платит ещё {knock_penalty}; победители делят поровну, точными дробями (8½, 17/3)."],
        ["Пример", "A стучит с 4♥ 5♥ 6♥ Q♣ Q♦ Q♠ 8♦ (остаток 8); у B A♠ A♥ A♦ 7♣ 8♣ 9♣ 3♥ (остаток 3). B выигрывает: A платит 8 − 3 + {knock_penalty} = {8 - 3 + knock_penalty}. Третий игрок с 20 заплатил бы B 17."],
        ["Итог партии", "После круга сдающих выигрывает большая чистая сумма; равные делят победу."],
      ],
    },
    "knock-target": {
      title: "Нок-рамми до цели",
      flow: "knock",
      sections: [
        ["Отличия от нок-рамми", "{players} игроков: {hands}. Перебитый стучавший платит {knock_penalty} каждому, у кого остаток меньше, а не одни {knock_penalty} на всех. Партия кончается после сдачи, в которой кто-то достиг цели ({target} очков); выигрывает большая сумма."],
        ["Пример", "Стучавший 9, остальные 2 и 5: у двойки 7 + {knock_penalty} от стучавшего и 3 от пятёрки; пятёрка получает {knock_penalty} от стучавшего."],
      ],
    },
    rummy: {
      title: "Рамми",
      flow: "meld",
      sections: [
        ["Игроки и карты", "Вы против {min_players - 1}-{max_players - 1} ботов: {hands}. В отличие от других игр (где первый сдающий выбирается случайно), здесь первый сдающий сидит справа от вас, поэтому первую сдачу начинаете вы; дальше сдающий сдвигается по кругу."],
        ["Ход", "Возьмите карту. Затем в любом порядке и сколько угодно раз: выложите ({MIN_MELD} и больше карт сетом или стритом) и подложите (к любой комбинации на столе, чьей угодно). В конце сбросьте одну карту."],
        ["Подкладывание", "Сет дополняется до {MAX_SET} карт; стрит растёт с обоих краёв; туз встаёт только под двойку, над королём продолжения нет. У подложенной карты видно, кто её положил. Комбинации на столе не перекладывают."],
        ["Карта из сброса", "Её нельзя сбросить в тот же ход и нельзя выкладывать так, чтобы в руке осталась только она."],
        ["Отмена", "До сброса выкладывание и подкладывание этого хода можно отменить. Карту, взятую из колоды, вернуть нельзя."],
        ["Выход", "Как только рука опустела, вы вышли; сбросить последнюю карту — тоже выход. Вышедший получает очки всех карт, оставшихся у соперников. Выход разом — если до того в этой сдаче вы ничего не выкладывали и не подкладывали — удваивает очки."],
        ["Колода кончилась", "В первый раз сброс, кроме верхней карты, переворачивается и становится колодой. Во второй раз или после {turn_cap} ходов без выхода — ничья."],
        ["Партия", "Выигрывает тот, кто первым набрал {target} очков."],
      ],
    },
    basic: {
      title: "Простой рамми",
      flow: "meld",
      sections: [
        ["Обычная игра", "{players} игроков; {hands}. Взять карту, затем не больше одной комбинации, сколько угодно подкладываний и сброс. Выход — выкладыванием, подкладыванием или сбросом последней карты. Когда колода пуста и следующий не берёт сброс, сброс переворачивают без тасовки. Победитель получает очки карт на руках у остальных."],
        ["Домашние правила (настройки)", "Сколько угодно комбинаций за ход; выход разом удваивает очки или даёт +10; подкладывать только после своей первой комбинации; туз старший или младший (Q-K-A, туз 15) или «через угол» (K-A-2); выход только сбросом; что делать, когда кончилась колода; штрафные очки или оплата за очко."],
      ],
    },
    block: {
      title: "Блок-рамми",
      flow: "meld",
      sections: [
        ["Блок", "Как простой рамми, но сброс не используется повторно. Когда колода пуста и следующий не берёт сброс, сдача кончается: меньшая рука получает сумму разниц со всеми остальными; равные делят. Пример: 6, 15, 7, 21 → шестёрка получает 9 + 1 + 15 = 25."],
      ],
    },
    rotham: {
      title: "Ротам-рамми",
      flow: "meld",
      sections: [
        ["Джокеры", "{deck_size} карт: колода и {jokers} джокера. Джокер заменяет любую карту в сете или стрите. У кого есть настоящая карта, которую заменяет выложенный джокер, может в свой ход обменять её на джокера. Джокер на руке — 15 очков."],
        ["Сдачи", "Сдач в партии: {deals}. Начинающий получает {hand2 + 1} карт и в первый ход карту не берёт; остальные — по {hand2}. Сдачи 1-{all_seven_first - 1} — как простой рамми; в сдачах {all_seven_deals} выкладывать можно только все {hand2} карт сразу."],
      ],
    },
    gin: {
      title: "Джин-рамми",
      flow: "gin",
      sections: [
        ["Игроки и карты", "Игроков: {players}, по {hand2} карт. Комбинации держат в руке."],
        ["Ход", "Возьмите карту из колоды или сброса, затем сбросьте."],
        ["Стук", "После добора можно постучать, если остаток без карты стука не больше {knock_limit}. Стучать не обязательно."],
        ["Вскрытие", "Стучавший показывает комбинации и остаток; защищающийся показывает свои и подкладывает остаток к комбинациям стучавшего (и к джину)."],
        ["Счёт", "У стучавшего меньше: он получает разницу. У защищающегося столько же или меньше (подрезка): он получает разницу + {undercut_bonus}. Джин (все {hand2} карт в комбинациях): {gin_bonus} + остаток соперника. Если в колоде осталось {wall_cards} карты и никто не постучал — ничья. Игра до {target}."],
      ],
    },
    "gin-standard": {
      title: "Джин-рамми (стандартные правила)",
      flow: "gin",
      sections: [
        ["Источник", "Общепринятые правила джин-рамми по Pagat (pagat.com/rummy/ginrummy.html) и Хойлу; остальное как в джин-рамми."],
        ["Первая открытая карта", "Несдающий может взять открытую карту или спасовать; затем сдающий; если оба спасовали, несдающий берёт из колоды. Кнопка «Пас»."],
        ["Счёт", "У стучавшего меньше: разница. Подрезка: разница + {undercut_bonus}. Джин: {gin_bonus} + остаток соперника, подкладывать к джину нельзя. Большой джин (все {hand2 + 1} карт в комбинациях после добора, без сброса): {big_gin_bonus} + остаток соперника."],
        ["Игра", "Игра до {target}: победитель получает ещё {game_bonus}, каждый — по {line_bonus} за выигранную сдачу. Если проигравший не набрал ни очка, весь счёт победителя удваивается."],
        ["Оклахома (вариант)", "Стоимость первой открытой карты — предел стука (туз — только джин); пика удваивает счёт сдачи. Стол показывает действующий предел."],
      ],
    },
    "gin-openspiel": {
      title: "Джин-рамми (правила OpenSpiel)",
      flow: "gin",
      sections: [
        ["Источник", "Настройки gin_rummy из OpenSpiel для сравнения в исследованиях: сдач в партии {deals}, стук при {knock_limit} и меньше, первая открытая карта предлагается, джин {gin_bonus}, подрезка {undercut_bonus}, к джину не подкладывают."],
        ["Ничья", "Если у защищающегося столько же, сколько у стучавшего, никто не получает очков."],
      ],
    },
  },
};

export const FAQ = {
  en: [
    ["How do I start and how many cards are dealt?", "Press Deal: the first screen offers the game you played last (Knock Rummy the first time) against bots. To choose another game, the bots or the match length, press Game and options first. In Rummy: {rummy.hands}. One card is turned up to start the discard pile; the rest is the stock."],
    ["What is a turn made of?", "Draw from the stock or take the top discard (click either). In Knock Rummy, select a card and press Discard — or Knock to end the deal. In Rummy, select cards and press Meld, or select a card and click a dashed meld on the table to lay it off; finish by discarding. Before the discard, Undo takes back this turn's melds and lay-offs."],
    ["Which cards can be melded?", "A meld has at least {MIN_MELD} cards: a set is {MIN_MELD} or {MAX_SET} cards of one rank, a run {MIN_MELD} or more of one suit in a row. The ace is low: A-2-3 is a run, Q-K-A and K-A-2 are not. If a meld does not work, the status line says why — for example which card is missing."],
    ["How do lay-offs work?", "Select a card in your hand: every meld on the table it fits gets a dashed outline. Click one and the card goes there. A set grows to {MAX_SET} cards, a run at either end; an ace goes only below a 2, nothing above a king."],
    ["When should I knock in Knock Rummy?", "Any time — but the knocker who is beaten pays {knock.knock_penalty} extra. The page shows your deadwood live and asks for confirmation when a knock looks risky (deadwood {RISKY_DEADWOOD} or more, or an opponent has picked up discards that suggest melds). Early is usually right: ten dealt cards hold about 57 points of deadwood on average, every turn you wait gives the others a draw and a chance to knock first, and a beaten knock costs only {knock.knock_penalty}. So knock with a hand a little better than an ordinary one; wait with a poor hand, and wait longer against players who keep passing their chances to knock. Between strong players most two-player deals end on the first or second turn."],
    ["How is a deal scored?", "Knock Rummy: the lowest deadwood collects the differences (see the rules for ties, rum and the knock penalty). Rummy: whoever goes out scores the cards left in the other hands; going out at once doubles it. Fractions are exact: 8½, 17/3."],
    ["What if I close the page or lose the connection?", "Nothing is lost: every move is stored the moment it is made. Open the page again and the game continues where it was."],
    ["How do I leave a game, or find one I left?", "Your unfinished games of this browser are listed under Your games on the first screen: Continue one, or Abandon it. At the table, Resign is in the header (in the menu on a phone). Either way the match ends for you and counts as a loss; at a table with friends a bot plays your seat on. The server keeps only a few unfinished games per player: when Deal says so, finish or abandon one of them."],
    ["Can I play with the keyboard?", "Yes. The hand is one tab stop: arrows move, Enter or Space selects. S draws from the stock, P takes the discard, M melds, L lays off, D discards, K knocks, U undoes, X declines, N goes on to the next deal."],
  ],
  ru: [
    ["Как начать партию и сколько карт раздают?", "Нажмите «Раздать»: на первом экране — игра, в которую вы играли последней (в первый раз — Нок-рамми), против ботов. Чтобы выбрать другую игру, ботов или длину партии, сначала нажмите «Игра и настройки». В рамми {rummy.hands}. Одна карта открывается и начинает сброс, остальные — колода."],
    ["Из чего состоит ход?", "Возьмите карту из колоды или верхнюю из сброса (нажмите на них). В нок-рамми выберите карту и нажмите «Сбросить» — или «Стук», чтобы закончить сдачу. В рамми выделите карты и нажмите «Выложить» или выберите карту и нажмите обведённую пунктиром комбинацию на столе, чтобы подложить; в конце сбросьте карту. До сброса «Отменить» возвращает выложенное в этот ход."],
    ["Какие карты можно выложить?", "Комбинация — от {MIN_MELD} карт. Сет — {MIN_MELD} или {MAX_SET} карты одного достоинства, стрит — {MIN_MELD} и больше карт одной масти подряд. Туз младший: A-2-3 — стрит, а Q-K-A и K-A-2 — нет. Если комбинация не складывается, строка статуса скажет почему, например какой карты не хватает."],
    ["Как подкладывать карты к комбинациям?", "Выберите карту в руке — все комбинации, к которым она подходит, обведутся пунктиром. Нажмите нужную, и карта ляжет туда. Сет — до {MAX_SET} карт, стрит — с любого края, но туз встаёт только под двойку, а над королём продолжения нет."],
    ["Когда стучать в нок-рамми?", "Когда угодно — но перебитый стучавший платит {knock.knock_penalty} сверху. Страница всё время показывает ваш остаток и переспрашивает, если стук рискованный (остаток {RISKY_DEADWOOD} и больше или соперник брал из сброса карты, похожие на комбинации). Обычно лучше рано: в десяти сданных картах в среднем около 57 очков остатка, каждый ход ожидания даёт соперникам ещё один добор и шанс постучать первыми, а проигранный стук стоит всего {knock.knock_penalty}. Стучите с рукой чуть лучше обычной; с плохой рукой ждите, и ждите дольше против игроков, которые не стучат, когда могут. У сильных игроков вдвоём большинство сдач кончается на первом-втором ходу."],
    ["Как считаются очки после сдачи?", "Нок-рамми: меньший остаток забирает разницы (про равенство, рум и штраф за стук — в правилах). Рамми: вышедший получает очки карт, оставшихся у соперников; выход разом удваивает очки. Дроби точные: 8½, 17/3."],
    ["Что будет, если закрыть страницу или пропадёт связь?", "Ничего не потеряется: каждый ход сохраняется в момент хода. Откройте страницу снова, и игра продолжится с того же места."],
    ["Как выйти из игры или найти брошенную?", "Неоконченные игры этого браузера перечислены в разделе «Ваши игры» на первом экране: продолжите игру или бросьте её. За столом кнопка «Сдаться» — в верхней строке (на телефоне — в меню). В обоих случаях партия для вас заканчивается и засчитывается как проигрыш; за столом с друзьями ваше место займёт бот. Сервер держит лишь несколько неоконченных игр одного игрока: если об этом скажет кнопка «Раздать», доиграйте или бросьте одну из них."],
    ["Можно играть с клавиатуры?", "Да. Рука — одна остановка Tab: стрелки двигают выбор, Enter или пробел выделяют карту. S — взять из колоды, P — из сброса, M — выложить, L — подложить, D — сбросить, K — стук, U — отменить, X — отказаться, N — следующая сдача."],
  ],
};

export const GAME_ORDER = ["knock", "rummy", "gin", "gin-standard", "knock-target", "basic", "block", "rotham", "gin-openspiel"];

/** The hand sizes in words: consecutive numbers of players dealt alike are one range. */
const HANDS = {
  en: (groups) => groups.map(([players, cards], i) => (i ? `${cards} for ${players}` : `${cards} cards each for ${players} players`)).join(", "),
  ru: (groups) => groups.map(([players, cards], i) => (i ? `по ${cards} — если ${players}` : `по ${cards} карт, если играют ${players}`)).join(", "),
};

/** "2-5", or "2" when both ends are one number. */
function range(from, to) {
  return from === to ? String(from) : `${from}-${to}`;
}

/** Deal numbers: "4-6" when consecutive, else "1, 3". */
function dealList(numbers) {
  const consecutive = numbers.length > 1 && numbers.every((n, i) => n === numbers[0] + i);
  return consecutive ? range(numbers[0], numbers[numbers.length - 1]) : numbers.join(", ");
}

/** A preset's figures as the texts name them: its options and the derived ones. */
function namedFigures(figures, language) {
  const named = { ...figures, players: range(figures.min_players, figures.max_players) };
  const groups = [];
  for (const [players, cards] of figures.hand_sizes) {
    named[`hand${players}`] = cards;
    const last = groups[groups.length - 1];
    if (last && last.cards === cards && last.to === players - 1) last.to = players;
    else groups.push({ from: players, to: players, cards });
  }
  named.hands = (HANDS[language] || HANDS.en)(groups.map((g) => [range(g.from, g.to), g.cards]));
  named.all_seven_first = figures.all_seven_deals[0];
  named.all_seven_deals = dealList(figures.all_seven_deals);
  return named;
}

/**
 * `text` with its figures filled in (see the top of this module): `game` is
 * the game whose figures a bare name means; `extra` adds names (the FAQ's
 * RISKY_DEADWOOD). A name nobody declares stays as it is written, so a test sees it.
 */
export function fillFigures(text, game, language, figures = PRESET_FIGURES, extra = {}) {
  const globals = { MIN_MELD, MAX_SET, MAX_RUN, ...extra };
  const value = (name) => {
    if (/^\d+$/.test(name)) return Number(name);
    if (name in globals) return globals[name];
    const dot = name.lastIndexOf(".");
    const preset = dot < 0 ? game : name.slice(0, dot);
    const own = figures[preset] && namedFigures(figures[preset], language);
    const key = name.slice(dot + 1);
    return own && key in own ? own[key] : undefined;
  };
  return text.replace(/\{([^{}]+)\}/g, (whole, inside) => {
    // Terms and the signs between them, spaced: "8 - 3 + knock_penalty" (a
    // preset's name may hold a hyphen: "knock-target.target").
    const parts = inside.trim().split(/\s+([+-])\s+/);
    const first = value(parts[0]);
    if (parts.length === 1) return first === undefined ? whole : String(first);
    let total = first;
    for (let i = 1; i < parts.length; i += 2) {
      const term = value(parts[i + 1]);
      if (typeof total !== "number" || typeof term !== "number") return whole;
      total += parts[i] === "-" ? -term : term;
    }
    return typeof total === "number" ? String(total) : whole;
  });
}

/** The rules of every game in `language`, figures filled in: { game: { title, flow, sections } }. */
export function rulesText(language, figures = PRESET_FIGURES) {
  const texts = RULES[language] || RULES.en;
  return Object.fromEntries(Object.entries(texts).map(([game, rules]) => [game, {
    ...rules,
    sections: rules.sections.map(([title, text]) => [title, fillFigures(text, game, language, figures)]),
  }]));
}

/** The FAQ in `language`, figures filled in (`extra`: the page's own figures it names). */
export function faqText(language, extra = {}, figures = PRESET_FIGURES) {
  return (FAQ[language] || FAQ.en).map(([question, answer]) => [question, fillFigures(answer, "knock", language, figures, extra)]);
}
