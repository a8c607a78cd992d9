// The guided Knock Rummy deal: a fixed two-player deal, written out card by
// card, with the numbers the coach says at each step. Pure data (no DOM), so
// tests/web/test_web_tutorial.py checks every number against the rules core.

export const TUTORIAL_DEAL = {
  preset: "knock",
  // Your ten cards as dealt; the first upcard; the top of the stock.
  hand: ["5H", "6H", "7H", "9C", "9D", "2C", "3C", "KS", "QS", "4D"],
  upcard: "TH",
  stockTop: "9S",
  stockCount: 31,
  // The bot's ten cards (shown at the showdown); it draws the A♣ and throws it.
  botHand: ["JH", "JC", "JD", "4C", "5C", "6C", "7S", "8D", "2H", "4S"],
  botDraws: "AC",
  botDiscards: "AC",
  // What you do: draw the stock, discard the K♠, take the A♣, knock with the Q♠.
  yourDiscard: "KS",
  yourKnock: "QS",
  // Deadwood (the best arrangement) at each step, as the coach says it.
  deadwood: {
    dealt: 47, // 10 cards as dealt
    afterDraw: 29, // 11 cards: 9♠ makes three nines
    afterDiscard: 19, // 10 cards: without the K♠
    afterTake: 14, // 11 cards: A♣ makes A-2-3♣
    afterKnock: 4, // 10 cards shown: only the 4♦ is left over
    bot: 21, // the bot's hand at the showdown
  },
  // The bot pays the difference: 21 - 4.
  payment: 17,
};
