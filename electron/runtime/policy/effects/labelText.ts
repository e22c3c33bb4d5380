/**
 * Characters that render as nothing: zero-width space/joiners, word joiner, BOM, soft hyphen,
 * invisible math operators, the Mongolian vowel separator and bidi controls. A label carrying
 * one ("Place\u200Border") reads the same to a human and must read the same to the classifier.
 */
const INVISIBLE =
  /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]/g;

/** Combining marks left after decomposition ("Plàce" reads as "Place"). */
const COMBINING = /\p{M}/gu;

/**
 * Cyrillic, Greek and Latin-extension letters that look like Latin ones (Unicode confusables,
 * the letters an attacker can use to spell "Place order" so that no Latin word list matches).
 */
// prettier-ignore
const CONFUSABLES: Readonly<Record<string, string>> = {
  // Cyrillic lower case
  а: 'a', в: 'b', е: 'e', ё: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x',
  і: 'i', ї: 'i', ј: 'j', ѕ: 's', ԁ: 'd', ԛ: 'q', ԝ: 'w', һ: 'h', ӏ: 'l', ү: 'y', ɡ: 'g', ь: 'b',
  // Cyrillic upper case
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', У: 'Y', Х: 'X',
  І: 'I', Ј: 'J', Ѕ: 'S', Ԁ: 'D', Ԛ: 'Q', Ԝ: 'W', Һ: 'H', Ӏ: 'I', Ү: 'Y',
  // Greek
  α: 'a', β: 'b', ε: 'e', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', ϲ: 'c', ϳ: 'j',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
  Ϲ: 'C',
  // Latin look-alikes outside ASCII
  ı: 'i', ȷ: 'j', ɑ: 'a', ɩ: 'i', ɪ: 'i', ʏ: 'y', ᴄ: 'c', ᴏ: 'o', ᴘ: 'p', ᴅ: 'd', ᴇ: 'e', ʀ: 'r', ɴ: 'n', ꞵ: 'b',
};
const CONFUSABLE_CHARS = new RegExp(`[${Object.keys(CONFUSABLES).join('')}]`, 'g');

/**
 * A label as the word lists read it: full-width and compatibility forms folded (NFKC), invisible
 * characters removed, confusable letters mapped to Latin, accents dropped, whitespace collapsed.
 * Case is kept (the word lists match case-insensitively); CJK text passes through unchanged.
 */
export function normalizeLabel(text: string): string {
  return text
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .replace(CONFUSABLE_CHARS, (c) => CONFUSABLES[c] ?? c)
    .normalize('NFD')
    .replace(COMBINING, '')
    .normalize('NFC')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * True when an element shows one thing and announces another: the visible text has letters or
 * digits that the accessible name does not contain (after normalization, ignoring case). An icon
 * ("×") or a name that extends the text ("Close" → "Close dialog") is no mismatch.
 */
export function labelsDisagree(visible: string, accessibleName: string): boolean {
  const shown = normalizeLabel(visible).toLowerCase();
  const announced = normalizeLabel(accessibleName).toLowerCase();
  if (!/[\p{L}\p{N}]/u.test(shown) || announced === '') return false;
  return !announced.includes(shown) && !shown.includes(announced);
}
