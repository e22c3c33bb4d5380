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

/** A server text as it arrives (contract `ServerText`): a code, its parameters, maybe machine words. */
export interface ServerTextLike {
  code: string;
  params: Record<string, ServerTextParamLike>;
  detail?: string;
}
type ServerTextParamLike = string | number | ServerTextLike | ServerTextLike[];

const isText = (value: ServerTextParamLike): value is ServerTextLike => typeof value === 'object' && !Array.isArray(value);

/** True when the catalogs know the code and every code nested in its parameters. */
function knows(text: ServerTextLike): boolean {
  if (!(text.code in en)) return false;
  return Object.values(text.params).every((p) => (Array.isArray(p) ? p.every(knows) : !isText(p) || knows(p)));
}

/** A parameter in the reader's language: a nested text rendered, a list joined, a risk class in its words. */
function renderParam(locale: Locale, name: string, value: ServerTextParamLike): string {
  // A check's observations are lines, as the server writes them; other lists read as one sentence.
  const separator = name === 'lines' ? '\n' : translate(locale, 'text.separator');
  if (Array.isArray(value)) return value.map((v) => renderInline(locale, v)).join(separator);
  if (isText(value)) return renderInline(locale, value);
  const riskKey = `risk.${value}`;
  if (name === 'risk' && typeof value === 'string' && riskKey in en) return translate(locale, riskKey as MessageKey);
  return String(value);
}

function renderSentence(locale: Locale, text: ServerTextLike): string {
  const params = Object.fromEntries(Object.entries(text.params).map(([name, value]) => [name, renderParam(locale, name, value)]));
  return translate(locale, text.code as MessageKey, params);
}

/** A nested text as one string: its machine words follow the sentence. */
function renderInline(locale: Locale, text: ServerTextLike): string {
  if (text.code === 'text.verbatim') return text.detail ?? '';
  const sentence = renderSentence(locale, text);
  return text.detail === undefined ? sentence : translate(locale, 'text.withDetail', { text: sentence, detail: text.detail });
}

/**
 * A server text (code + parameters) in the reader's language; the English the server sent when
 * the catalogs do not know the code (a newer server, or a reason with no code).
 */
export function translateServerText(locale: Locale, text: ServerTextLike | undefined, english: string): string {
  if (!text || !knows(text)) return english;
  return renderInline(locale, text);
}

/** Several server texts joined in the reader's language; the English when any code is unknown. */
export function translateServerTexts(locale: Locale, texts: readonly ServerTextLike[] | undefined, english: string): string {
  if (!texts?.length || !texts.every(knows)) return english;
  return texts.map((text) => renderInline(locale, text)).join(translate(locale, 'text.separator'));
}

/**
 * A server sentence to show with its machine words apart (a tool's error, a model's words: shown
 * as code, untranslated). English readers get the server's own English, exactly as it was sent.
 */
export function serverTextParts(locale: Locale, text: ServerTextLike | undefined, english: string): { sentence: string; detail?: string } {
  if (locale === 'en' || !text || !knows(text)) return { sentence: english };
  if (text.code === 'text.verbatim') return { sentence: '', ...(text.detail !== undefined && { detail: text.detail }) };
  return { sentence: renderSentence(locale, text), ...(text.detail !== undefined && { detail: text.detail }) };
}

/**
 * A step's error for the reader: its code rendered when it has one that still reads as the English
 * it was recorded with (a code left from an earlier attempt never labels a newer error), else the
 * recorded words verbatim, as machine words.
 */
export function stepErrorParts(
  locale: Locale,
  step: { error?: string; errorText?: ServerTextLike },
): { sentence: string; detail?: string } | undefined {
  if (step.error === undefined) return undefined;
  const current = step.errorText !== undefined && knows(step.errorText) && renderInline('en', step.errorText) === step.error;
  if (locale === 'en') return { sentence: step.error };
  return current ? serverTextParts(locale, step.errorText, step.error) : { sentence: '', detail: step.error };
}

/** Formats a cost in US dollars. */
export function formatCost(usd: number): string {
  return `$${usd.toFixed(usd < 0.01 && usd > 0 ? 4 : 2)}`;
}
