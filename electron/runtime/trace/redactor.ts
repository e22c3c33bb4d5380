/** Replaces known secret values with a marker before anything is written or sent. */
export class Redactor {
  private readonly secrets = new Map<string, string>();
  private pattern: RegExp | undefined;

  /** Registers a secret value under a name; values shorter than 4 characters are refused as too ambiguous. */
  add(name: string, value: string): void {
    if (value.length < 4) throw new Error(`secret "${name}" is too short to redact safely (min 4 characters)`);
    this.secrets.set(value, name);
    const escaped = [...this.secrets.keys()].sort((a, b) => b.length - a.length).map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    this.pattern = new RegExp(escaped.join('|'), 'g');
  }

  get size(): number {
    return this.secrets.size;
  }

  /** Redacts a string. */
  text(value: string): string {
    if (!this.pattern) return value;
    return value.replace(this.pattern, (match) => `[REDACTED:${this.secrets.get(match)}]`);
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
