// Numbers as people write them: exact fractions from the server ("17/2")
// shown as 8½ when the fraction has a common glyph, else as 17/3.

const GLYPHS = { "1/2": "½", "1/3": "⅓", "2/3": "⅔", "1/4": "¼", "3/4": "¾", "1/5": "⅕", "2/5": "⅖", "3/5": "⅗", "4/5": "⅘", "1/6": "⅙", "5/6": "⅚", "1/8": "⅛", "3/8": "⅜", "5/8": "⅝", "7/8": "⅞" };

/** Parse "17/2", "-5", "3" into [numerator, denominator]. */
export function parseFraction(text) {
  const [n, d] = String(text).split("/");
  return [parseInt(n, 10), d === undefined ? 1 : parseInt(d, 10)];
}

/** "17/2" → "8½", "-3/2" → "−1½", "17/3" → "17/3", "5" → "5". */
export function formatAmount(text, { sign = false } = {}) {
  const [num, den] = parseFraction(text);
  const negative = num < 0;
  const abs = Math.abs(num);
  let body;
  if (den === 1) body = String(abs);
  else {
    const whole = Math.floor(abs / den);
    const rest = `${abs % den}/${den}`;
    if (GLYPHS[rest]) body = (whole ? String(whole) : "") + GLYPHS[rest];
    else body = `${abs}/${den}`;
  }
  if (negative) return "−" + body;
  if (sign && num > 0) return "+" + body;
  return body;
}

export function fractionValue(text) {
  const [n, d] = parseFraction(text);
  return n / d;
}

/** A moment (seconds or a Date) as people of the page's language write it: "30.11.2026, 18:05" in Russian. */
export function formatDate(when, language, { compact = false } = {}) {
  const date = when instanceof Date ? when : new Date(when * 1000);
  const locale = language === "ru" ? "ru-RU" : "en-GB";
  if (!compact) return date.toLocaleString(locale, { dateStyle: "medium", timeStyle: "short" });
  // Tables on a phone: "1 Dec, 03:21" ("1 дек., 03:21"); the year only when it is not this one.
  const options = { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" };
  if (date.getFullYear() !== new Date().getFullYear()) options.year = "numeric";
  return date.toLocaleString(locale, options);
}
