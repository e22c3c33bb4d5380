import type { GatewayLog } from '../gateway/dispatcher.js';
import type { Redactor } from '../trace/redactor.js';

/**
 * The gateway's server log with known secret values redacted: an unexpected error can quote
 * whatever its handler held (a header, a body), and the log outlives the call.
 */
export function redactedLog(redactor: Redactor, write = (...parts: unknown[]) => console.error(...parts)): GatewayLog {
  return (message, fields) => {
    const parts: unknown[] = [redactor.text(message)];
    if (fields !== undefined) parts.push(redactor.value(printable(fields)));
    write(...parts);
  };
}

/** Errors become their stack text (their message is not an own enumerable field the redactor would see). */
function printable(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields))
    out[key] = value instanceof Error ? (value.stack ?? `${value.name}: ${value.message}`) : value;
  return out;
}
