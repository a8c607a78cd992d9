// The rules of each game and the FAQ, in English and Russian (from the
// project's RULES.md and the source pages). Each rule section is a title and
// paragraphs; `flow` picks the deal diagram.

export const RULES = {
  en: {
    common: {
      title: "Common to all games",
      sections: [
        ["Cards and values", "A 52-card deck without jokers (Rotham adds three). The ace is low: A 2 3 … 10 J Q K. Values: ace 1, 2-10 face value, J Q K 10."],
        ["Melds", "A set is 3 or 4 cards of one rank. A run is 3 or more cards of one suit in a row. A-2-3 is a run; Q-K-A and K-A-2 are not. A card belongs to one meld only."],
        ["Best arrangement", "Unmatched cards are deadwood. The page arranges your hand into the melds that leave the least deadwood — not the longest run. 7♠ 7♥ 7♦ 8♠ 9♠: the best is 7♠ 8♠ 9♠ + 7♥ 7♦, deadwood 14."],
        ["Dealing and turns", "The first dealer is random; the deal passes to the left. Play starts to the dealer's left and goes clockwise. Each turn begins by drawing the top card of the stock or of the discard pile. A card taken from the discard pile cannot be given back in the same turn."],
      ],
    },
    knock: {
      title: "Knock Rummy (Poker Rum)",
      flow: "knock",
      sections: [
        ["Players and cards", "2-5 players, each for themselves. 10 cards each for two players, 7 for three to five. One card starts the discard pile; the rest is the stock. A match is one full round of dealers."],
        ["Hidden melds", "Melds are never shown during play, and nobody lays off on another player's cards."],
        ["A turn", "Draw one card, then give one back: face up on the discard pile (play passes to the left), or face down — that is the knock, and the deal ends at once. You may knock on any turn, the first included, with any deadwood."],
        ["Stock exhausted", "The stock is not rebuilt. If your turn starts with the stock empty you may take the top discard or decline it; declining ends the deal with a showdown without a knocker (no penalty, no bonus). After 120 turns the deal also ends that way."],
        ["Showdown", "Every hand is shown in its best arrangement; the lowest deadwood wins."],
        ["Settlement", "Rum — the knocker has 0: everyone pays the knocker their deadwood + 25, even another 0. Knocker alone lowest: everyone pays the knocker the difference. Knocker tied for lowest: the other lowest players collect the differences; the knocker pays and gets nothing. Knocker beaten: the lowest players collect the differences, and the knocker pays 10 more; winners share equally, in exact fractions (8½, 17/3)."],
        ["Example", "A knocks with 4♥ 5♥ 6♥ Q♣ Q♦ Q♠ 8♦ (deadwood 8); B has A♠ A♥ A♦ 7♣ 8♣ 9♣ 3♥ (deadwood 3). B wins: A pays 8 − 3 + 10 = 15. A third player with 20 would pay B 17."],
        ["Winning the match", "The highest net total after the round of dealers wins; players tied on the highest share the win."],
      ],
    },
    "knock-target": {
      title: "Knock Rummy to a target",
      flow: "knock",
      sections: [
        ["Differences from Knock Rummy", "2-6 players: 10 cards for two, 7 for three or four, 6 for five or six. A beaten knocker pays 10 to every opponent whose deadwood is lower, not one 10 shared. The match ends after the deal in which someone reaches the target; the highest total wins."],
        ["Example", "Knocker 9, others 2 and 5: the 2 gets 7 + 10 from the knocker and 3 from the 5; the 5 gets 10 from the knocker."],
      ],
    },
    rummy: {
      title: "Rummy",
      flow: "meld",
      sections: [
        ["Players and cards", "You against 1-3 bots: 10 cards each for two players, 7 for three or four. Unlike the other games (where the first dealer is random), here the first dealer sits to your right, so you play first in the first deal; then the deal passes clockwise."],
        ["A turn", "Draw one card. Then, in any order and as often as you like: meld (put 3 or more cards forming a set or run face up) and lay off (add cards to any meld on the table, anyone's). Finish by discarding one card."],
        ["Lay-offs", "A set grows to 4 cards at most; a run grows at either end; an ace only goes below a 2, nothing above a king. Every laid-off card shows who laid it. Melds are never rearranged."],
        ["The taken discard", "It cannot be discarded in the same turn, and you may not meld or lay off so that it is the only card left in your hand."],
        ["Undo", "Before you discard, the melds and lay-offs of this turn can be taken back. A card drawn from the stock cannot be put back."],
        ["Going out", "The moment your hand is empty you are out; discarding your last card is going out too. You score the value of all the cards left in the other hands. Going out at once — with nothing melded or laid off earlier in the deal — doubles the score."],
        ["Stock runs out", "The first time, the discard pile except its top card is turned over to form the new stock. The second time, or after 120 turns with nobody out, the deal is a draw."],
        ["Game", "The first player to reach the target wins."],
      ],
    },
    basic: {
      title: "Basic Rummy",
      flow: "meld",
      sections: [
        ["Standard game", "2-6 players; 10 cards for two, 7 for three or four, 6 for five or six. Draw, then at most one meld, any number of lay-offs, and a discard. Go out by melding, laying off or discarding your last card. When the stock is empty and the next player does not want the discard, the pile is turned over unshuffled as the new stock. The winner scores the cards left in the other hands."],
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
        ["Jokers", "55 cards: the deck and 3 jokers. A joker stands for any card in a set or run. Holding the real card a melded joker stands for, you may exchange it for the joker in your turn. A joker left in hand counts 15."],
        ["Deals", "Six deals. The starting player gets 8 cards and no draw on the first turn; everyone else gets 7. Deals 1-3 play as Basic Rummy; in deals 4-6 you may meld only all seven cards at once."],
      ],
    },
    gin: {
      title: "Gin Rummy",
      flow: "gin",
      sections: [
        ["Players and cards", "Two players, 10 cards each. Melds are kept in hand."],
        ["A turn", "Draw from the stock or the discard pile, then discard."],
        ["Knock", "After drawing you may knock when the deadwood left after the knock card is 10 or less. Knocking is never required."],
        ["Showdown", "The knocker shows melds and deadwood; the defender shows melds and lays off deadwood on the knocker's melds (also on a gin hand)."],
        ["Score", "Knocker lower: the knocker scores the difference. Defender equal or lower (undercut): the defender scores the difference + 10. Gin (all 10 cards melded): 20 + the defender's deadwood. With only 2 cards left in the stock and no knock, the deal is a draw. Game to 100."],
      ],
    },
    "gin-standard": {
      title: "Gin Rummy (standard rules)",
      flow: "gin",
      sections: [
        ["Source", "The common rules of Gin Rummy as Pagat (pagat.com/rummy/ginrummy.html) and Hoyle give them; the rest as in Gin Rummy."],
        ["First up-card", "The non-dealer may take the up-card or pass; then the dealer may take it or pass; if both pass, the non-dealer draws from the stock. Press Pass to pass."],
        ["Score", "Knocker lower: the difference. Undercut (defender equal or lower): the difference + 25. Gin: 25 + the defender's deadwood; no lay-offs on gin. Big gin (11 cards all melded after drawing, no discard): 31 + the defender's deadwood."],
        ["Game", "Game to 100: the winner adds 100, each player 25 per deal won. If the loser scored nothing (shutout), the winner's whole score is doubled."],
        ["Oklahoma (option)", "The first up-card's value is the knock limit (an ace: gin only); a spade up-card doubles the deal's score. The table shows the limit in force."],
      ],
    },
    "gin-openspiel": {
      title: "Gin Rummy (OpenSpiel's rules)",
      flow: "gin",
      sections: [
        ["Source", "The defaults of OpenSpiel's gin_rummy, for research side by side: one deal, knock at 10 or less, the first up-card offered, gin 25, undercut 25, no lay-offs on gin."],
        ["Ties", "A defender who ties the knocker scores nothing and neither does the knocker."],
      ],
    },
  },
  ru: {
    common: {
      title: "Общее для всех игр",
      sections: [
        ["Карты и очки", "Колода из 52 карт без джокеров (в ротаме ещё три). Туз младший: A 2 3 … 10 J Q K. Стоимость: туз 1, 2-10 по номиналу, J Q K по 10."],
        ["Комбинации", "Сет - 3 или 4 карты одного достоинства. Стрит - 3 и больше карт одной масти подряд. A-2-3 - стрит, а Q-K-A и K-A-2 - нет. Карта входит только в одну комбинацию."],
        ["Лучшая раскладка", "Несвязанные карты - остаток. Страница раскладывает руку так, чтобы остаток был наименьшим, а не ряд самым длинным. 7♠ 7♥ 7♦ 8♠ 9♠: лучше 7♠ 8♠ 9♠ + 7♥ 7♦, остаток 14."],
        ["Раздача и ходы", "Первый сдающий случаен, дальше сдача переходит влево. Начинает сосед сдающего слева, ход идёт по часовой. Каждый ход начинается с верхней карты колоды или сброса. Взятую из сброса карту нельзя вернуть в тот же ход."],
      ],
    },
    knock: {
      title: "Нок-рамми (Poker Rum)",
      flow: "knock",
      sections: [
        ["Игроки и карты", "2-5 человек, каждый за себя. Вдвоём по 10 карт, от трёх до пяти - по 7. Одна карта открывает сброс, остальное - закрытая колода. Партия - полный круг сдающих."],
        ["Закрытые комбинации", "Во время игры комбинации не открывают, к чужим картам ничего не подкладывают."],
        ["Ход", "Возьмите одну карту и верните одну: открыто на сброс (ход переходит влево) или закрыто - это стук, сдача сразу кончается. Стучать можно в любой ход, даже в первый, с любым остатком."],
        ["Колода кончилась", "Колоду не восстанавливают. Если ход начинается при пустой колоде, можно взять верхнюю карту сброса или отказаться; отказ заканчивает сдачу вскрытием без стука (без штрафа и без премии). После 120 ходов сдача кончается так же."],
        ["Вскрытие", "Все руки показывают в лучшей раскладке; выигрывает меньший остаток."],
        ["Расчёт", "Рум - у стучавшего 0: каждый платит ему свой остаток + 25, даже другой ноль. Стучавший один меньше всех: каждый платит ему разницу. Стучавший делит минимум: разницы забирают другие минимальные, стучавший ничего не платит и не получает. Стучавший перебит: минимальные забирают разницы, а стучавший платит ещё 10; победители делят поровну, точными дробями (8½, 17/3)."],
        ["Пример", "A стучит с 4♥ 5♥ 6♥ Q♣ Q♦ Q♠ 8♦ (остаток 8); у B A♠ A♥ A♦ 7♣ 8♣ 9♣ 3♥ (остаток 3). B выигрывает: A платит 8 − 3 + 10 = 15. Третий игрок с 20 заплатил бы B 17."],
        ["Итог партии", "После круга сдающих выигрывает большая чистая сумма; равные делят победу."],
      ],
    },
    "knock-target": {
      title: "Нок-рамми до цели",
      flow: "knock",
      sections: [
        ["Отличия от нок-рамми", "2-6 игроков: вдвоём по 10 карт, втроём и вчетвером по 7, впятером и вшестером по 6. Перебитый стучавший платит 10 каждому, у кого остаток меньше, а не одну десятку на всех. Партия кончается после сдачи, в которой кто-то достиг цели; выигрывает большая сумма."],
        ["Пример", "Стучавший 9, остальные 2 и 5: у двойки 7 + 10 от стучавшего и 3 от пятёрки; пятёрка получает 10 от стучавшего."],
      ],
    },
    rummy: {
      title: "Рамми",
      flow: "meld",
      sections: [
        ["Игроки и карты", "Вы против 1-3 ботов: вдвоём по 10 карт, втроём и вчетвером по 7. В отличие от других игр (где первый сдающий выбирается случайно), здесь первый сдающий сидит справа от вас, поэтому первую сдачу начинаете вы; дальше сдающий сдвигается по кругу."],
        ["Ход", "Возьмите карту. Затем в любом порядке и сколько угодно раз: выложите (3 и больше карт сетом или стритом) и подложите (к любой комбинации на столе, чьей угодно). В конце сбросьте одну карту."],
        ["Подкладывание", "Сет дополняется до 4 карт; стрит растёт с обоих краёв; туз встаёт только под двойку, над королём продолжения нет. У подложенной карты видно, кто её положил. Комбинации на столе не перекладывают."],
        ["Карта из сброса", "Её нельзя сбросить в тот же ход и нельзя выкладывать так, чтобы в руке осталась только она."],
        ["Отмена", "До сброса выкладывание и подкладывание этого хода можно отменить. Карту, взятую из колоды, вернуть нельзя."],
        ["Выход", "Как только в руке 0 карт, вы вышли; сбросить последнюю карту - тоже выход. Вышедший получает очки всех карт, оставшихся у соперников. Выход разом - если до того в этой сдаче вы ничего не выкладывали и не подкладывали - удваивает очки."],
        ["Колода кончилась", "В первый раз сброс, кроме верхней карты, переворачивается и становится колодой. Во второй раз или после 120 ходов без выхода - ничья."],
        ["Партия", "Выигрывает тот, кто первым набрал цель."],
      ],
    },
    basic: {
      title: "Простой рамми",
      flow: "meld",
      sections: [
        ["Обычная игра", "2-6 игроков; вдвоём по 10 карт, втроём и вчетвером по 7, впятером и вшестером по 6. Взять карту, затем не больше одной комбинации, сколько угодно подкладываний и сброс. Выход - выкладыванием, подкладыванием или сбросом последней карты. Когда колода пуста и следующий не берёт сброс, сброс переворачивают без тасовки. Победитель получает очки карт на руках у остальных."],
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
        ["Джокеры", "55 карт: колода и 3 джокера. Джокер заменяет любую карту в сете или стрите. У кого есть настоящая карта, которую заменяет выложенный джокер, может в свой ход обменять её на джокера. Джокер на руке - 15 очков."],
        ["Сдачи", "Шесть сдач. Начинающий получает 8 карт и в первый ход карту не берёт; остальные - по 7. Сдачи 1-3 - как простой рамми; в сдачах 4-6 выкладывать можно только все семь карт сразу."],
      ],
    },
    gin: {
      title: "Джин-рамми",
      flow: "gin",
      sections: [
        ["Игроки и карты", "Двое, по 10 карт. Комбинации держат в руке."],
        ["Ход", "Возьмите карту из колоды или сброса, затем сбросьте."],
        ["Стук", "После добора можно постучать, если остаток без карты стука не больше 10. Стучать не обязательно."],
        ["Вскрытие", "Стучавший показывает комбинации и остаток; защищающийся показывает свои и подкладывает остаток к комбинациям стучавшего (и к джину)."],
        ["Счёт", "У стучавшего меньше: он получает разницу. У защищающегося столько же или меньше (подрезка): он получает разницу + 10. Джин (все 10 карт в комбинациях): 20 + остаток соперника. Если в колоде осталось 2 карты и никто не постучал - ничья. Игра до 100."],
      ],
    },
    "gin-standard": {
      title: "Джин-рамми (стандартные правила)",
      flow: "gin",
      sections: [
        ["Источник", "Общепринятые правила джин-рамми по Pagat (pagat.com/rummy/ginrummy.html) и Хойлу; остальное как в джин-рамми."],
        ["Первая открытая карта", "Несдающий может взять открытую карту или спасовать; затем сдающий; если оба спасовали, несдающий берёт из колоды. Кнопка «Пас»."],
        ["Счёт", "У стучавшего меньше: разница. Подрезка: разница + 25. Джин: 25 + остаток соперника, подкладывать к джину нельзя. Большой джин (все 11 карт в комбинациях после добора, без сброса): 31 + остаток соперника."],
        ["Игра", "Игра до 100: победитель получает ещё 100, каждый - по 25 за выигранную сдачу. Если проигравший не набрал ни очка, весь счёт победителя удваивается."],
        ["Оклахома (вариант)", "Стоимость первой открытой карты - предел стука (туз - только джин); пика удваивает счёт сдачи. Стол показывает действующий предел."],
      ],
    },
    "gin-openspiel": {
      title: "Джин-рамми (правила OpenSpiel)",
      flow: "gin",
      sections: [
        ["Источник", "Настройки gin_rummy из OpenSpiel для сравнения в исследованиях: одна сдача, стук при 10 и меньше, первая открытая карта предлагается, джин 25, подрезка 25, к джину не подкладывают."],
        ["Ничья", "Если у защищающегося столько же, сколько у стучавшего, никто не получает очков."],
      ],
    },
  },
};

export const FAQ = {
  en: [
    ["How do I start and how many cards are dealt?", "Press Deal: the first screen offers the game you played last (Knock Rummy the first time) against bots. To choose another game, the bots or the match length, press Game and options first. In Rummy two players get 10 cards each, three or four get 7. One card is turned up to start the discard pile; the rest is the stock."],
    ["What is a turn made of?", "Draw from the stock or take the top discard (click either). In Knock Rummy, select a card and press Discard — or Knock to end the deal. In Rummy, select cards and press Meld, or select a card and click a dashed meld on the table to lay it off; finish by discarding. Before the discard, Undo takes back this turn's melds and lay-offs."],
    ["Which cards can be melded?", "A meld has at least 3 cards: a set is 3 or 4 cards of one rank, a run 3 or more of one suit in a row. The ace is low: A-2-3 is a run, Q-K-A and K-A-2 are not. If a meld does not work, the status line says why — for example which card is missing."],
    ["How do lay-offs work?", "Select a card in your hand: every meld on the table it fits gets a dashed outline. Click one and the card goes there. A set grows to 4 cards, a run at either end; an ace goes only below a 2, nothing above a king."],
    ["When should I knock in Knock Rummy?", "Any time — but the knocker who is beaten pays 10 extra. The page shows your deadwood live and asks for confirmation when a knock looks risky (deadwood 10 or more, or an opponent has picked up discards that suggest melds). Early is usually right: ten dealt cards hold about 57 points of deadwood on average, every turn you wait gives the others a draw and a chance to knock first, and a beaten knock costs only 10. So knock with a hand a little better than an ordinary one; wait with a poor hand, and wait longer against players who keep passing their chances to knock. Between strong players most two-player deals end on the first or second turn."],
    ["How is a deal scored?", "Knock Rummy: the lowest deadwood collects the differences (see the rules for ties, rum and the knock penalty). Rummy: whoever goes out scores the cards left in the other hands; going out at once doubles it. Fractions are exact: 8½, 17/3."],
    ["What if I close the page or lose the connection?", "Nothing is lost: every move is stored the moment it is made. Open the page again and the game continues where it was."],
    ["How do I leave a game, or find one I left?", "Your unfinished games of this browser are listed under Your games on the first screen: Continue one, or Abandon it. At the table, Resign is in the header (in the menu on a phone). Either way the match ends for you and counts as a loss; at a table with friends a bot plays your seat on. The server keeps only a few unfinished games per player: when Deal says so, finish or abandon one of them."],
    ["Can I play with the keyboard?", "Yes. The hand is one tab stop: arrows move, Enter or Space selects. S draws from the stock, P takes the discard, M melds, L lays off, D discards, K knocks, U undoes, X declines, N goes on to the next deal."],
  ],
  ru: [
    ["Как начать партию и сколько карт раздают?", "Нажмите «Раздать»: на первом экране - игра, в которую вы играли последней (в первый раз - Нок-рамми), против ботов. Чтобы выбрать другую игру, ботов или длину партии, сначала нажмите «Игра и настройки». В рамми вдвоём у каждого по 10 карт, втроём и вчетвером - по 7. Одна карта открывается и начинает сброс, остальные - колода."],
    ["Из чего состоит ход?", "Возьмите карту из колоды или верхнюю из сброса (нажмите на них). В нок-рамми выберите карту и нажмите «Сбросить» - или «Стук», чтобы закончить сдачу. В рамми выделите карты и нажмите «Выложить» или выберите карту и нажмите обведённую пунктиром комбинацию на столе, чтобы подложить; в конце сбросьте карту. До сброса «Отменить» возвращает выложенное в этот ход."],
    ["Какие карты можно выложить?", "Комбинация - от 3 карт. Сет - 3 или 4 карты одного достоинства, стрит - 3 и больше карт одной масти подряд. Туз младший: A-2-3 - стрит, а Q-K-A и K-A-2 - нет. Если комбинация не складывается, строка статуса скажет почему, например какой карты не хватает."],
    ["Как подкладывать карты к комбинациям?", "Выберите карту в руке - все комбинации, к которым она подходит, обведутся пунктиром. Нажмите нужную, и карта ляжет туда. Сет - до 4 карт, стрит - с любого края, но туз встаёт только под двойку, а над королём продолжения нет."],
    ["Когда стучать в нок-рамми?", "Когда угодно - но перебитый стучавший платит 10 сверху. Страница всё время показывает ваш остаток и переспрашивает, если стук рискованный (остаток 10 и больше или соперник брал из сброса карты, похожие на комбинации). Обычно лучше рано: в десяти сданных картах в среднем около 57 очков остатка, каждый ход ожидания даёт соперникам ещё один добор и шанс постучать первыми, а проигранный стук стоит всего 10. Стучите с рукой чуть лучше обычной; с плохой рукой ждите, и ждите дольше против игроков, которые не стучат, когда могут. У сильных игроков вдвоём большинство сдач кончается на первом-втором ходу."],
    ["Как считаются очки после сдачи?", "Нок-рамми: меньший остаток забирает разницы (про равенство, рум и штраф за стук - в правилах). Рамми: вышедший получает очки карт, оставшихся у соперников; выход разом удваивает очки. Дроби точные: 8½, 17/3."],
    ["Что будет, если закрыть страницу или пропадёт связь?", "Ничего не потеряется: каждый ход сохраняется в момент хода. Откройте страницу снова, и игра продолжится с того же места."],
    ["Как выйти из игры или найти брошенную?", "Неоконченные игры этого браузера перечислены в разделе «Ваши игры» на первом экране: продолжите игру или бросьте её. За столом кнопка «Сдаться» - в верхней строке (на телефоне - в меню). В обоих случаях партия для вас заканчивается и засчитывается как проигрыш; за столом с друзьями ваше место займёт бот. Сервер держит лишь несколько неоконченных игр одного игрока: если об этом скажет кнопка «Раздать», доиграйте или бросьте одну из них."],
    ["Можно играть с клавиатуры?", "Да. Рука - одна остановка Tab: стрелки двигают выбор, Enter или пробел выделяют карту. S - взять из колоды, P - из сброса, M - выложить, L - подложить, D - сбросить, K - стук, U - отменить, X - отказаться, N - следующая сдача."],
  ],
};

export const GAME_ORDER = ["knock", "rummy", "gin", "gin-standard", "knock-target", "basic", "block", "rotham", "gin-openspiel"];
