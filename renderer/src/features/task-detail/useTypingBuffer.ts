import { useCallback, useEffect, useRef } from 'react';

/**
 * Gathers typed characters into one `type` action: a word becomes one recorded step, not one
 * step per key. The buffer goes out after `idleMs` without typing, or at once before any other
 * action (a click, a named key, release) so the desktop sees everything in the order made.
 */
export function useTypingBuffer(send: (text: string) => void, idleMs = 400): { add: (text: string) => void; flush: () => void } {
  const buffer = useRef('');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const sendRef = useRef(send);
  sendRef.current = send;

  const flush = useCallback(() => {
    clearTimeout(timer.current);
    const text = buffer.current;
    buffer.current = '';
    if (text) sendRef.current(text);
  }, []);
  const add = useCallback(
    (text: string) => {
      buffer.current += text;
      clearTimeout(timer.current);
      timer.current = setTimeout(flush, idleMs);
    },
    [flush, idleMs],
  );
  useEffect(() => flush, [flush]); // leaving the page still delivers what was typed
  return { add, flush };
}
