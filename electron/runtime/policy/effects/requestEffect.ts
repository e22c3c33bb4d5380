import type { HeldEffect, RiskClass } from '../../../contract/index.js';
import { isPaymentHost, PAYMENT_FIELD, riskOfPath } from './riskWords.js';

/** A request as the browser's network layer sees it, before it leaves. */
export interface OutgoingRequest {
  method: string;
  url: string;
  /** True for a main-frame document navigation. */
  mainFrameNavigation: boolean;
  /** The origin of the page that sends it (`null` origins count as foreign). */
  pageOrigin: string;
  /** Raw body text (forms, JSON, beacons), when there is one. */
  body?: string;
  contentType?: string;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Field names whose values are never shown, even masked to a prefix. */
const SECRET_FIELD = /pass(word)?|secret|token|api[-_]?key|auth|otp|pin|cvc|cvv|csc|security[-_ ]?code|card|cc-|pan|iban|account/i;
const MAX_BODY = 2000;
const MAX_FIELDS = 50;

/**
 * What a request would do if it left, or undefined for a read: any method but GET/HEAD/OPTIONS,
 * and a main-frame navigation to another origin or to a payment page, is a state change. Its risk
 * is `payment` when the path, the fields or the host say so, else what its path says, else `write`.
 */
export function requestEffect(req: OutgoingRequest): HeldEffect | undefined {
  const url = safeUrl(req.url);
  if (!url) return undefined;
  const method = req.method.toUpperCase();
  const fields = req.body === undefined ? undefined : parseFields(req.body, req.contentType);
  const signals = paymentSignals(url, fields);
  const kind = effectKind(req, url, method, signals.length > 0);
  if (!kind) return undefined;
  const reasons = [...describeKind(kind, method, url, req.pageOrigin), ...signals];
  const risk: RiskClass = signals.length > 0 ? 'payment' : (riskOfPath(url.pathname) ?? 'write');
  const masked = fields && maskFields(fields);
  return {
    kind,
    method,
    url: url.href,
    risk,
    reasons,
    ...(masked && Object.keys(masked).length > 0 ? { fields: masked } : req.body ? { body: maskBody(req.body) } : {}),
  };
}

/** The effect of a WebSocket message a page sends. */
export function webSocketEffect(url: string, message: string | Buffer): HeldEffect {
  const text = typeof message === 'string' ? message : `<${message.length} bytes>`;
  const parsed = safeUrl(url);
  const fields = typeof message === 'string' ? parseFields(message, 'application/json') : undefined;
  const signals = parsed ? paymentSignals(parsed, fields) : [];
  return {
    kind: 'websocket',
    method: 'WS',
    url,
    risk: signals.length > 0 ? 'payment' : 'send',
    reasons: ['a message sent over a WebSocket', ...signals],
    ...(fields && Object.keys(fields).length > 0 ? { fields: maskFields(fields) } : { body: maskBody(text) }),
  };
}

function effectKind(req: OutgoingRequest, url: URL, method: string, payment: boolean): HeldEffect['kind'] | undefined {
  if (!SAFE_METHODS.has(method)) return req.mainFrameNavigation ? 'form' : 'request';
  if (!req.mainFrameNavigation) return undefined;
  return url.origin !== req.pageOrigin || payment ? 'navigation' : undefined;
}

function describeKind(kind: HeldEffect['kind'], method: string, url: URL, pageOrigin: string): string[] {
  if (kind === 'navigation') return url.origin !== pageOrigin ? [`the page navigates to another origin (${url.origin})`] : [];
  return [`${method} ${kind === 'form' ? 'form submission ' : ''}to ${url.pathname}`];
}

/** Reasons a request is a payment: a payment provider's host, a payment path, payment fields. */
function paymentSignals(url: URL, fields: Record<string, string> | undefined): string[] {
  const signals: string[] = [];
  if (isPaymentHost(url.hostname)) signals.push(`${url.hostname} is a payment provider`);
  if (riskOfPath(url.pathname) === 'payment') signals.push(`payment path ${url.pathname}`);
  const payFields = Object.keys(fields ?? {}).filter((name) => PAYMENT_FIELD.test(lastSegment(name)));
  if (payFields.length > 0) signals.push(`payment fields ${payFields.slice(0, 5).join(', ')}`);
  return signals;
}

/** Form fields of a urlencoded, multipart or JSON body (nested JSON keys as dotted paths). */
export function parseFields(body: string, contentType = ''): Record<string, string> | undefined {
  const type = contentType.toLowerCase();
  if (type.includes('multipart/form-data')) return multipartFields(body);
  const json = tryJson(body);
  if (json !== undefined && typeof json === 'object' && json !== null) return flatten(json);
  if (type.includes('application/x-www-form-urlencoded') || /^[\w.%[\]-]+=[^&]*(&[\w.%[\]-]+=[^&]*)*$/.test(body.trim())) {
    return Object.fromEntries([...new URLSearchParams(body)].slice(0, MAX_FIELDS));
  }
  return undefined;
}

function multipartFields(body: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const part of body.split(/\r?\n--/)) {
    const name = /name="([^"]*)"/.exec(part)?.[1];
    if (name === undefined || Object.keys(fields).length >= MAX_FIELDS) continue;
    const value = part
      .split(/\r?\n\r?\n/)
      .slice(1)
      .join('\n')
      .replace(/\r?\n$/, '');
    fields[name] = /filename="/.test(part) ? '<file>' : value;
  }
  return fields;
}

function flatten(value: object, prefix = '', out: Record<string, string> = {}): Record<string, string> {
  for (const [key, v] of Object.entries(value)) {
    if (Object.keys(out).length >= MAX_FIELDS) break;
    const name = prefix ? `${prefix}.${key}` : key;
    if (v !== null && typeof v === 'object') flatten(v as object, name, out);
    else out[name] = String(v);
  }
  return out;
}

function maskFields(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [name, SECRET_FIELD.test(lastSegment(name)) ? maskValue(value) : value.slice(0, 200)]),
  );
}

/** Card-like digit runs in free text are masked to their last four digits. */
function maskBody(body: string): string {
  return body.replace(/\b\d(?:[ -]?\d){11,18}\b/g, (digits) => maskValue(digits)).slice(0, MAX_BODY);
}

function maskValue(value: string): string {
  const digits = value.replace(/\D/g, '');
  return digits.length >= 12 ? `•••• ${digits.slice(-4)}` : '••••';
}

function lastSegment(name: string): string {
  return name.split('.').pop() ?? name;
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
