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

/** Where secret values come from when another process may store new ones (the secret store). */
export interface SecretFeed {
  /** Changes whenever the stored secrets may have changed (cheap: a file's stat). */
  version(): string;
  entries(): Iterable<readonly [name: string, value: string]>;
}

/** How often a followed feed is checked for values another process stored. */
const FEED_CHECK_MS = 100;

/** Replaces known secret values with `[secret:<name>]` before anything is written or sent. */
export class Redactor {
  /** Every spelling of every value → the secret's name. */
  private readonly secrets = new Map<string, string>();
  private readonly names = new Set<string>();
  private pattern: RegExp | undefined;
  private feed: { source: SecretFeed; version?: string; checkedAt: number } | undefined;

  /**
   * Learns every value of `source` now and again whenever its version changes (checked at most
   * every 100 ms when something is redacted), so a secret stored by another process — the CLI
   * while `serve` runs — is redacted here too. A broken source is skipped, not fatal.
   */
  follow(source: SecretFeed): void {
    this.feed = { source, checkedAt: -Infinity };
    this.refresh();
  }

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
    this.refresh();
    return this.names.size;
  }

  /** Redacts a string. */
  text(value: string): string {
    this.refresh();
    return this.replace(value);
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
    this.refresh();
    if (!this.pattern) return value;
    return this.walk(value) as T;
  }

  private replace(value: string): string {
    if (!this.pattern) return value;
    return value.replace(this.pattern, (match) => secretPlaceholder(this.secrets.get(match) ?? 'unknown'));
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.replace(value);
    if (Array.isArray(value)) return value.map((v) => this.walk(v));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[this.replace(k)] = this.walk(v);
      return out;
    }
    return value;
  }

  private refresh(): void {
    const feed = this.feed;
    if (!feed) return;
    const now = Date.now();
    if (now - feed.checkedAt < FEED_CHECK_MS) return;
    feed.checkedAt = now;
    try {
      const version = feed.source.version();
      if (version === feed.version) return;
      for (const [name, value] of feed.source.entries()) if (value.length >= MIN_SECRET_LENGTH) this.add(name, value);
      feed.version = version;
    } catch {
      // An unreadable store is reported where it is used (secrets.*, providers); redaction goes on.
    }
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
