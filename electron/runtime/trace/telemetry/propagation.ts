import { context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';

/**
 * `fetch` that adds the active trace context (`traceparent`, `tracestate`) to each request, for
 * SDK clients that accept a custom fetch (openai, @anthropic-ai/sdk, MCP Streamable HTTP). With
 * telemetry off the API's propagator is a no-op and the request is sent as given.
 */
export const tracedFetch: typeof fetch = (input, init) => {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  if (Object.keys(carrier).length === 0) return fetch(input, init);
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
  for (const [name, value] of Object.entries(carrier)) headers.set(name, value);
  return fetch(input, { ...init, headers });
};

/** The active trace context as MCP `_meta` fields (`traceparent`, `tracestate`); empty with telemetry off. */
export function traceMeta(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/** Runs `work` outside any trace: shared setup (an MCP connection several tasks use) belongs to no one step. */
export function untraced<T>(work: () => T): T {
  return context.with(ROOT_CONTEXT, work);
}
