/**
 * Resolves on the first SIGINT, SIGTERM or SIGHUP (the terminal closed): a long-lived process
 * (`serve`, `worker`) then stops its runtime itself, so what the next process needs lands first.
 */
export function untilStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    const stop = (signal: NodeJS.Signals) => {
      for (const s of signals) process.off(s, stop);
      resolve(signal);
    };
    for (const s of signals) process.on(s, stop);
  });
}
