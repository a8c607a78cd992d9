// Fair deals, checked in the browser (docs/fair-deals.md): the commitment
// from the revealed seed and salt, and the deck from the seed by the
// portable shuffle "sha256-fy-1", computed here and never taken from the
// server. SHA-256 comes from crypto.subtle where the page has it (secure
// contexts: https, localhost) and from the small implementation below
// elsewhere (a server on a LAN address over http). No imports: the tests
// load this file in node too.

export const PORTABLE_SHUFFLE = "sha256-fy-1";

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** SHA-256 of `bytes` (a Uint8Array) in plain JavaScript: the digest as a Uint8Array. */
export function sha256Fallback(bytes) {
  const length = bytes.length;
  const padded = new Uint8Array(Math.ceil((length + 9) / 64) * 64);
  padded.set(bytes);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));
  view.setUint32(padded.length - 4, (length * 8) >>> 0);
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    let [a, b, c, d, e, f, g, k] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
      const t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      k = g; g = f; f = e; e = (d + t1) >>> 0;
      d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += k;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(4 * i, h[i]);
  return out;
}

const subtle = globalThis.crypto && globalThis.crypto.subtle;

/** SHA-256 of the UTF-8 of `text`: a Uint8Array of 32 bytes. */
export async function sha256(text, { fallback = false } = {}) {
  const bytes = new TextEncoder().encode(text);
  if (subtle && !fallback) return new Uint8Array(await subtle.digest("SHA-256", bytes));
  return sha256Fallback(bytes);
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The commitment to a seed (decimal text) and a salt (64 hex digits) under a shuffle. */
export async function commitmentOf(shuffle, seed, salt, options = {}) {
  return hex(await sha256(`pyrummy-deal:${shuffle}:${seed}:${salt}`, options));
}

/** The card numbers 0..size-1 in the order `seed` (decimal text) deals them. */
export async function portableOrder(seed, size, options = {}) {
  const words = [];
  let block = 0;
  let position = 0;
  const deck = Array.from({ length: size }, (_, i) => i);
  for (let i = size - 1; i >= 1; i--) {
    const n = i + 1;
    const limit = 2 ** 32 - (2 ** 32 % n);
    let word;
    do {
      if (position === words.length) {
        const digest = await sha256(`pyrummy-shuffle:${seed}:${block}`, options);
        const view = new DataView(digest.buffer);
        for (let j = 0; j < 8; j++) words.push(view.getUint32(4 * j));
        block += 1;
      }
      word = words[position++];
    } while (word >= limit);
    const j = word % n;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/** A card number's name in the record's notation (7H, TD, X1). */
export function cardName(number) {
  if (number >= 52) return `X${number - 51}`;
  return "A23456789TJQK"[number % 13] + "SHDC"[Math.floor(number / 13)];
}

/** The cards `seat` was dealt from `deck` (names), for a hand of `count` cards. */
export function dealtTo(deck, seat, dealer, players, count) {
  const starter = (dealer + 1) % players;
  const roundRobin = (size) => deck.slice(0, size * players).filter((_, p) => (starter + p) % players === seat);
  const plain = roundRobin(count);
  // The starter's extra card (Rotham) comes after the round-robin.
  const extra = seat === starter && count > 0 ? [...roundRobin(count - 1), deck[(count - 1) * players]] : null;
  return extra ? [plain, extra] : [plain];
}

function sameCards(a, b) {
  return a.length === b.length && [...a].sort().join(" ") === [...b].sort().join(" ");
}

/**
 * Check a revealed deal (`last_deal.fair` of the state): the seed and salt
 * must give the commitment, the seed must deal the deck, and what this page
 * saw before the deal (`seen`: the commitment shown then and the hand it
 * was dealt, either may be missing) must agree. Resolves to
 * {ok: true} or {ok: false, reason} with reason one of "commitment",
 * "deck", "changed", "hand", "shuffle".
 */
export async function checkReveal(reveal, seen = {}, seat = null, options = {}) {
  if (reveal.shuffle !== PORTABLE_SHUFFLE) return { ok: false, reason: "shuffle" };
  const made = await commitmentOf(reveal.shuffle, reveal.seed, reveal.salt, options);
  if (made !== reveal.commitment) return { ok: false, reason: "commitment" };
  if (seen.commitment && seen.commitment !== reveal.commitment) return { ok: false, reason: "changed" };
  const order = await portableOrder(reveal.seed, reveal.deck.length, options);
  const deck = order.map(cardName);
  if (deck.join(" ") !== reveal.deck.join(" ")) return { ok: false, reason: "deck" };
  if (seen.hand && seat !== null && seat !== undefined) {
    const ways = dealtTo(deck, seat, reveal.dealer, reveal.players, seen.hand.length);
    if (!ways.some((cards) => sameCards(cards, seen.hand))) return { ok: false, reason: "hand" };
  }
  return { ok: true };
}
