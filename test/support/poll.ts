/**
 * Calls `probe` until it returns a value other than undefined, then resolves with it. Real time,
 * a generous deadline: the failure message says what was awaited and what was last seen.
 */
export async function pollUntil<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  options: { timeoutMs?: number; intervalMs?: number; lastSeen?: () => unknown } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const seen = options.lastSeen ? `; last seen: ${JSON.stringify(options.lastSeen())}` : '';
      const why = lastError ? `; last error: ${(lastError as Error).message}` : '';
      throw new Error(`timed out waiting for ${what}${seen}${why}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
}
