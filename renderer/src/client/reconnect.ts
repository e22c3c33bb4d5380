/** Waits between reconnect attempts: 0.5 s, 1 s, 2 s, 4 s, then every 5 s (a restart takes seconds, not minutes). */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(5_000, 500 * 2 ** Math.max(0, attempt));
}

/**
 * After a refused WebSocket a browser cannot tell "server down" from "token refused"; the page's
 * own origin answering plain HTTP means the server is up, so the token was refused.
 */
export async function serverAnswers(origin: string): Promise<boolean> {
  try {
    const response = await fetch(`${origin}/`, { cache: 'no-store' });
    return response.ok;
  } catch {
    return false;
  }
}
