import { en, type MessageKey } from './en.js';
import { zhCN } from './zhCN.js';

export type { MessageKey } from './en.js';

/** The UI languages. */
export const LOCALES = ['en', 'zh-CN'] as const;
/** A UI language. */
export type Locale = (typeof LOCALES)[number];

/** Every catalog by locale. */
export const CATALOGS: Record<Locale, Record<MessageKey, string>> = { en, 'zh-CN': zhCN };

/** Narrows any string (navigator.language, storage) to a supported locale. */
export function toLocale(value: string | null | undefined): Locale {
  return value?.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

/** A translated message with `{name}` placeholders filled in. */
export function translate(locale: Locale, key: MessageKey, vars: Record<string, string | number> = {}): string {
  const template = CATALOGS[locale][key] ?? en[key];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

/**
 * A server text (code + parameters) in the reader's language; the English the server sent when
 * the catalogs do not know the code (a newer server, or a reason with no code).
 */
export function translateServerText(
  locale: Locale,
  text: { code: string; params: Record<string, string | number> } | undefined,
  english: string,
): string {
  if (!text || !(text.code in en)) return english;
  // A `risk` parameter is a risk class: shown in the reader's words, as the risk badges are.
  const risk = text.params.risk;
  const riskKey = `risk.${risk}`;
  const params =
    typeof risk === 'string' && riskKey in en ? { ...text.params, risk: translate(locale, riskKey as MessageKey) } : text.params;
  return translate(locale, text.code as MessageKey, params);
}

/** Several server texts joined in the reader's language; the English when any code is unknown. */
export function translateServerTexts(
  locale: Locale,
  texts: readonly { code: string; params: Record<string, string | number> }[] | undefined,
  english: string,
): string {
  if (!texts?.length || texts.some((text) => !(text.code in en))) return english;
  return texts.map((text) => translateServerText(locale, text, '')).join(translate(locale, 'text.separator'));
}

/** Formats a cost in US dollars. */
export function formatCost(usd: number): string {
  return `$${usd.toFixed(usd < 0.01 && usd > 0 ? 4 : 2)}`;
}
