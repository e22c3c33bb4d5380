/** Pretty-printed JSON (tool arguments, trace data); text only, never HTML. */
export function JsonBlock({ value, compact = false }: { value: unknown; compact?: boolean }) {
  return <pre className={compact ? 'json json-compact' : 'json'}>{JSON.stringify(value, null, compact ? 0 : 2)}</pre>;
}
