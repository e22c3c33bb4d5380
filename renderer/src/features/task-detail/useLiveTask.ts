import { useEffect, useState } from 'react';
import { useApp } from '../useApp.js';
import { useRuntimeEvent } from '../useRuntimeEvent.js';

const REFRESH_MS = 250;

/**
 * Loads a task and keeps its conversation current: steps arrive as events, but the model's text
 * and messages do not, so any change to the task reloads it (at most every 250 ms).
 */
export function useLiveTask(taskId: string): string | undefined {
  const loadTask = useApp((s) => s.loadTask);
  const client = useApp((s) => s.client);
  const [error, setError] = useState<string>();
  const [tick, setTick] = useState(0);

  useEffect(() => {
    loadTask(taskId).then(
      () => setError(undefined),
      (e: Error) => setError(e.message),
    );
  }, [taskId, loadTask, tick, client]);

  const [pending, setPending] = useState(false);
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => {
      setPending(false);
      setTick((n) => n + 1);
    }, REFRESH_MS);
    return () => clearTimeout(timer);
  }, [pending]);
  useRuntimeEvent('task.updated', (e) => e.data.id === taskId && setPending(true));
  useRuntimeEvent('task.step', (e) => e.data.taskId === taskId && setPending(true));
  return error;
}
