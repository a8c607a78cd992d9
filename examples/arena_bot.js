#!/usr/bin/env node
// A bot for `pyrummy arena`, in another language: it speaks the arena's line
// protocol (docs/arena-protocol.md) over stdin/stdout.
//
//   pyrummy arena --game knock --bots "simple,cmd:node examples/arena_bot.js" --deals 20
//
// Its play is a plain heuristic, read from the observation's text notation:
// knock when it may (giving back its highest card), take the upcard when it
// pairs with a card in hand or extends a suit neighbour, otherwise draw from
// the stock, and discard the highest card that has no partner.
"use strict";

const readline = require("readline");

const RANKS = "A23456789TJQK";

function rankOf(card) {
  return RANKS.indexOf(card[0]);
}

function suitOf(card) {
  return card[1];
}

function points(card) {
  return Math.min(rankOf(card) + 1, 10);
}

// A card has a partner when another card in hand shares its rank or is its
// neighbour in the same suit.
function hasPartner(card, hand) {
  return hand.some(
    (other) =>
      other !== card &&
      (rankOf(other) === rankOf(card) ||
        (suitOf(other) === suitOf(card) && Math.abs(rankOf(other) - rankOf(card)) <= 1)),
  );
}

function choose(observation, legal) {
  const hand = observation.hand;
  const texts = legal.map((action) => action.text);
  const knocks = texts.filter((text) => text.startsWith("knock "));
  if (knocks.length > 0) {
    knocks.sort((a, b) => points(b.slice(6)) - points(a.slice(6)));
    return knocks[0];
  }
  if (texts.includes("draw discard")) {
    const pile = observation.discard_pile;
    const top = pile[pile.length - 1];
    if (top && hasPartner(top, hand.concat([top]))) return "draw discard";
    return texts.includes("draw stock") ? "draw stock" : texts[texts.length - 1];
  }
  const discards = texts.filter((text) => text.startsWith("discard "));
  if (discards.length > 0) {
    const score = (text) => {
      const card = text.slice(8);
      return points(card) + (hasPartner(card, hand) ? 0 : 20);
    };
    discards.sort((a, b) => score(b) - score(a));
    return discards[0];
  }
  return texts[0];
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello") {
    process.stdout.write(JSON.stringify({ name: "arena_bot.js", protocol: 1 }) + "\n");
  } else if (message.type === "decision") {
    process.stdout.write(choose(message.observation, message.legal) + "\n");
  } else if (message.type === "bye") {
    process.exit(0);
  }
  // "deal", "result" and "error" need no answer.
});
