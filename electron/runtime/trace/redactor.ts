/** What a redacted secret value becomes: `[secret:<name>]` (JSON-safe, and names the secret for `${secret:<name>}`). */
export const secretPlaceholder = (name: string): string => `[secret:${name}]`;

/** The shortest value the redactor accepts: shorter ones would match ordinary text. */
export const MIN_SECRET_LENGTH = 4;

/**
 * Spellings of a value as it appears inside text that was encoded once or twice: JSON string
 * escapes (a secret with a quote, stored in a JSON column, or in a JSON body inside one) and
 * URL percent-encoding (a secret in a query string).
 */
function spellings(value: string): string[] {
  const once = JSON.stringify(value).slice(1, -1);
  const twice = JSON.stringify(once).slice(1, -1);
  return [...new Set([value, once, twice, encodeURIComponent(value)])];
}

/** Replaces known secret values with `[secret:<name>]` before anything is written or sent. */
export class Redactor {
  /** Every spelling of every value → the secret's name. */
  private readonly secrets = new Map<string, string>();
  private readonly names = new Set<string>();
  private pattern: RegExp | undefined;

  /** Registers a secret value under a name; values shorter than 4 characters are refused as too ambiguous. */
  add(name: string, value: string): void {
    if (value.length < MIN_SECRET_LENGTH)
      throw new Error(`secret "${name}" is too short to redact safely (min ${MIN_SECRET_LENGTH} characters)`);
    const known = spellings(value);
    if (known.every((s) => this.secrets.get(s) === name)) return; // already known: keep the pattern
    for (const spelling of known) this.secrets.set(spelling, name);
    this.names.add(name);
    // Longest first, so a value that contains another is replaced whole.
    const escaped = [...this.secrets.keys()].sort((a, b) => b.length - a.length).map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    this.pattern = new RegExp(escaped.join('|'), 'g');
  }

  /** How many secrets (by name) are known. */
  get size(): number {
    return this.names.size;
  }

  /** Redacts a string. */
  text(value: string): string {
    if (!this.pattern) return value;
    return value.replace(this.pattern, (match) => secretPlaceholder(this.secrets.get(match) ?? 'unknown'));
  }

  /**
   * Redacts text that may be a JSON document (a JSON column): replaced as text, which keeps the
   * document valid when values sit inside string literals; when a value straddled JSON syntax
   * (so the text no longer parses), the document is redacted value by value instead.
   */
  jsonText(value: string): string {
    const redacted = this.text(value);
    if (redacted === value || !looksLikeJson(value) || parses(redacted) || !parses(value)) return redacted;
    return JSON.stringify(this.value(JSON.parse(value)));
  }

  /** Redacts every string inside a JSON-like value (keys included); returns a copy. */
  value<T>(value: T): T {
    if (!this.pattern) return value;
    return this.walk(value) as T;
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.walk(v));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[this.text(k)] = this.walk(v);
      return out;
    }
    return value;
  }
}

function looksLikeJson(text: string): boolean {
  const first = text.trimStart()[0];
  return first === '{' || first === '[' || first === '"';
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
