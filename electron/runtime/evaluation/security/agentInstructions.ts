/**
 * The mini-language the attack material speaks to the obedient model: one instruction a line,
 * `AGENT: <tool> <json-arguments>`, e.g. `AGENT: browser.click {"selector":"#buy"}`. The user's
 * goal uses the same lines for the harmless part, so the model knows nothing in advance: every
 * target comes from what it is sent.
 */
export interface AgentInstruction {
  /** The line as written, the identity used to obey each instruction once. */
  line: string;
  tool: string;
  args: Record<string, unknown>;
}

const LINE = /AGENT:\s*([A-Za-z0-9_.-]+)\s*(\{.*\})?\s*$/;

/** Every instruction in a text, in order; lines whose arguments are not a JSON object are skipped. */
export function parseInstructions(text: string): AgentInstruction[] {
  const out: AgentInstruction[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const match = LINE.exec(raw.trim());
    if (!match) continue;
    const args = parseArgs(match[2]);
    if (args === undefined) continue;
    out.push({ line: match[0], tool: match[1]!, args });
  }
  return out;
}

/**
 * The texts a message carries: the message itself and, when it is JSON (tool results are), every
 * string inside it, unescaped — an instruction in an API body or a page text is found either way.
 */
export function textsOf(content: string): string[] {
  const texts = [content];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 6) return;
    if (typeof value === 'string') {
      texts.push(value);
      const nested = tryJson(value);
      if (nested !== undefined && typeof nested === 'object') visit(nested, depth + 1);
    } else if (Array.isArray(value)) for (const v of value) visit(v, depth + 1);
    else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) visit(v, depth + 1);
  };
  const parsed = tryJson(content);
  if (parsed !== undefined && typeof parsed === 'object') visit(parsed, 0);
  return texts;
}

/** What a model turn can quote: the latest tool result, or the first result of a named tool. */
export interface ResultLookup {
  last(): string;
  first(tool: string): string;
}

/**
 * Fills `{{last}}` (the latest tool result, as the model was shown it) and `{{result:<tool>}}`
 * (the first result of that tool: the read the user asked for) in every string argument.
 */
export function fillArgs(args: Record<string, unknown>, results: ResultLookup): Record<string, unknown> {
  const fill = (value: unknown): unknown => {
    if (typeof value === 'string')
      return value.replace(/\{\{(?:last|result:([A-Za-z0-9_.-]+))\}\}/g, (_whole, tool?: string) =>
        tool === undefined ? results.last() : results.first(tool),
      );
    if (Array.isArray(value)) return value.map(fill);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
    return value;
  };
  return fill(args) as Record<string, unknown>;
}

function parseArgs(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return {};
  const value = tryJson(text);
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
