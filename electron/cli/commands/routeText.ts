import type { Route } from '../../contract/index.js';

/**
 * A step's route as `tasks show` prints it: the tier that ran, why, and the tools passed over
 * before it (unavailable, rejected the arguments, or failed with a retryable error).
 */
export function routeText(route: Route | undefined): string {
  if (!route) return '';
  const passed = route.attempts.map((a) => `${a.tool} ${OUTCOME[a.outcome]}: ${oneLine(a.detail)}`);
  return `${route.tier} tier: ${oneLine(route.reason)}${passed.length > 0 ? ` (passed over: ${passed.join('; ')})` : ''}`;
}

const OUTCOME: Record<Route['attempts'][number]['outcome'], string> = {
  unavailable: 'unavailable',
  invalid_args: 'rejected the arguments',
  retryable_error: 'failed',
};

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 240 ? `${flat.slice(0, 240)}…` : flat;
}
