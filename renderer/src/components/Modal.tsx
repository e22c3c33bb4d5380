import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A dialog over the page. Focus moves into it when it opens, Tab and Shift+Tab stay inside it,
 * and focus returns to where it was when it closes. Other keys belong to the caller.
 */
export function Modal({ title, children, labelledBy }: { title: string; children: ReactNode; labelledBy: string }) {
  const dialog = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    // The dialog itself takes focus, not its first button: a stray Enter must not press anything.
    (dialog.current?.querySelector<HTMLElement>('[data-autofocus]') ?? dialog.current)?.focus();
    return () => {
      if (before?.isConnected) before.focus();
    };
  }, []);

  const trap = (event: KeyboardEvent) => {
    if (event.key !== 'Tab' || !dialog.current) return;
    const items = [...dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null);
    if (items.length === 0) return event.preventDefault();
    const [first, last] = [items[0]!, items[items.length - 1]!];
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !dialog.current.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !dialog.current.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div className="modal-backdrop">
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby={labelledBy} ref={dialog} tabIndex={-1} onKeyDown={trap}>
        <h2 id={labelledBy}>{title}</h2>
        {children}
      </div>
    </div>
  );
}
