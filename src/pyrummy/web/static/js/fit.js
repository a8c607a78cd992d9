// Card sizes that use the room the table has: the page itself never scrolls
// during play, so the hand, the piles and the melds on the table are sized
// here from the space they are given (the CSS grid of the board), after each
// render and when the window changes size.

const MIN_CARD = 40;
const MAX_CARD = 124;
const MIN_MELD_CARD = 30;
const MIN_PILE = 30;
/** The piles keep the rules' reminder only while their cards need not shrink below this share. */
const KEEP_REMINDER_SHARE = 0.75;
/** A board lower than this (px) hides the rules' reminder under the piles. */
const SHORT_BOARD = 440;
/** A covered card shows this share of its width: its whole index stays readable. */
const MIN_SHOWN = 0.44;
const GROUP_GAP = 8;
/** A note beside the piles (Oklahoma's) may grow to this width (em) from its style sheet's. */
const MAX_NOTE_EM = 22;

function px(value) {
  return `${Math.round(value * 10) / 10}px`;
}

/**
 * The hand's card width and overlap: as large as the screen allows (one card
 * at most about a sixth of the width and a ninth of the height), then
 * overlapped so that the whole hand fits its row, each covered card showing
 * its index; smaller cards only when even that does not fit.
 */
function fitHand(board) {
  const hand = board.querySelector(".hand");
  if (!hand) return null;
  const cards = hand.querySelectorAll(".card");
  const groups = hand.querySelectorAll(".hand-group").length;
  const n = cards.length;
  const room = hand.clientWidth - 8;
  const tall = board.classList.contains("tall-hand") ? 7 : 9;
  let width = Math.min(MAX_CARD, window.innerWidth / 6, window.innerHeight / tall);
  width = Math.max(MIN_CARD, width);
  const gaps = Math.max(0, groups - 1) * GROUP_GAP;
  const stepFor = (w) => (n > 1 ? (room - gaps - w) / (n - 1) : w);
  let step = stepFor(width);
  while (n > 1 && step < width * MIN_SHOWN && width > MIN_CARD) {
    width -= 1;
    step = stepFor(width);
  }
  step = Math.min(step, width + 4);
  hand.style.setProperty("--card-w", px(width));
  hand.style.setProperty("--overlap", px(Math.min(0, step - width)));
  hand.style.setProperty("--spread", px(Math.max(0, step - width)));
  return width;
}

/**
 * The piles' cards follow the hand's, a little smaller where the height is
 * short. True when the piles still overlap something with cards no smaller
 * than ``smallest`` of their fitted width (a tall note beside them, such as
 * Oklahoma's); 0: down to the smallest cards at all.
 */
function fitPiles(board, handWidth, smallest = 0) {
  const piles = board.querySelector(".piles");
  if (!piles || !handWidth) return false;
  // Tall screens (portrait phones) have room for larger piles than the hand's width allows.
  const short = window.innerHeight < 500;
  const stacked = getComputedStyle(piles).flexDirection === "column";
  let width = Math.max(handWidth, Math.min(120, window.innerHeight / 9));
  if (short) width = handWidth * 0.85;
  else if (stacked) width = Math.min(handWidth, ((board.querySelector(".table-melds")?.clientHeight || 300) - 64) / 2.9);
  width = Math.max(MIN_CARD, width);
  piles.style.setProperty("--card-w", px(width));
  // Where the board is short (a friends' panel below it, a landscape phone),
  // the piles give way: smaller until they overlap nothing else on the board.
  const others = [...board.children].filter((el) => el !== piles);
  const overlaps = () => {
    const r = piles.getBoundingClientRect();
    return others.some((el) => {
      const q = el.getBoundingClientRect();
      return r.left < q.right && q.left < r.right && r.top < q.bottom && q.top < r.bottom;
    });
  };
  // A note too tall for the room grows sideways first, while the board has the width.
  const note = piles.querySelector(".oklahoma-note");
  if (note) {
    note.style.maxWidth = "";
    const style = getComputedStyle(note);
    let em = parseFloat(style.maxWidth) / parseFloat(style.fontSize);
    while (em < MAX_NOTE_EM && overlaps()) {
      note.style.maxWidth = `${em + 1}em`;
      if (piles.getBoundingClientRect().width > board.clientWidth - 16) {
        note.style.maxWidth = `${em}em`;
        break;
      }
      em += 1;
    }
  }
  const floor = Math.max(MIN_PILE, width * smallest);
  while (width > floor && overlaps()) {
    width -= 2;
    piles.style.setProperty("--card-w", px(width));
  }
  return overlaps();
}

/**
 * The melds on the table: their cards shrink (down to MIN_MELD_CARD) until
 * every meld fits the area; past that the area scrolls, and the melds a
 * selected card may join (the lay-off targets) are scrolled into view.
 */
function fitMelds(board, handWidth) {
  const area = board.querySelector(".table-melds");
  const melds = area && area.querySelector(".melds");
  if (!melds) return;
  let width = Math.max(MIN_MELD_CARD, Math.min(68, (handWidth || 60) * 0.8));
  area.style.setProperty("--card-w", px(width));
  while (area.scrollHeight > area.clientHeight + 1 && width > MIN_MELD_CARD) {
    width -= 2;
    area.style.setProperty("--card-w", px(width));
  }
  const target = area.querySelector(".meld.target");
  if (target) {
    const box = target.getBoundingClientRect();
    const view = area.getBoundingClientRect();
    if (box.top < view.top || box.bottom > view.bottom) area.scrollTop += box.top - view.top - 4;
  }
}

export function fitTable(section) {
  const board = section.querySelector(".board");
  if (!board) return;
  // A short board keeps the cards and drops the reminder of the rules.
  board.classList.toggle("short-board", board.clientHeight < SHORT_BOARD);
  const width = fitHand(board);
  // Piles that would have to shrink much to leave room for the reminder: it
  // goes, and they are fitted again.
  board.classList.remove("bare-piles");
  let overlapping = fitPiles(board, width, board.classList.contains("short-board") ? 0 : KEEP_REMINDER_SHARE);
  if (overlapping && !board.classList.contains("short-board")) {
    board.classList.add("short-board");
    overlapping = fitPiles(board, width);
  }
  // Still no room (a landscape phone with a friends' panel): the piles' captions go.
  if (overlapping) {
    board.classList.add("bare-piles");
    fitPiles(board, width);
  }
  fitMelds(board, width);
}
