import type { ComputerAction } from '../../../../electron/contract/index.js';

/** Where a click landed, in the frame's own pixels (the image may be shown scaled). */
export function pointOnImage(
  click: { clientX: number; clientY: number },
  box: { left: number; top: number; width: number; height: number },
  frame: { width: number; height: number },
): { x: number; y: number } {
  const scale = (offset: number, shown: number, natural: number) =>
    Math.min(natural - 1, Math.max(0, Math.round((offset / Math.max(1, shown)) * natural)));
  return { x: scale(click.clientX - box.left, box.width, frame.width), y: scale(click.clientY - box.top, box.height, frame.height) };
}

/** Browser key names → the sandbox's key names (contract KeyNameSchema). */
const NAMED_KEYS: Record<string, string> = {
  Enter: 'enter',
  Tab: 'tab',
  Escape: 'escape',
  Backspace: 'backspace',
  Delete: 'delete',
  ArrowUp: 'up',
  ArrowDown: 'down',
  ArrowLeft: 'left',
  ArrowRight: 'right',
  Home: 'home',
  End: 'end',
  PageUp: 'pageup',
  PageDown: 'pagedown',
  Insert: 'insert',
};

/** The parts of a KeyboardEvent that decide the action. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  /** Inside an input method's composition: the IME owns the key, its text comes at compositionend. */
  isComposing?: boolean;
}

/**
 * What one key press on the live image does on the desktop: plain characters are typed (any
 * script), named keys and shortcuts are pressed; lone modifiers and unknown keys do nothing.
 */
export function keyToAction(press: KeyPress): ComputerAction | undefined {
  if (press.isComposing) return undefined;
  // The person's paste shortcut pastes their clipboard (the paste event), not the desktop's.
  if ((press.ctrlKey || press.metaKey) && !press.altKey && press.key.toLowerCase() === 'v') return undefined;
  const modifiers = [press.ctrlKey && 'ctrl', press.altKey && 'alt', press.metaKey && 'meta'].filter((m): m is string => Boolean(m));
  const named = NAMED_KEYS[press.key] ?? (/^F([1-9]|1[0-2])$/.test(press.key) ? press.key.toLowerCase() : undefined);
  if (named) return { action: 'key', keys: [...modifiers, ...(press.shiftKey ? ['shift'] : []), named] };
  if ([...press.key].length !== 1) return undefined; // Shift, Control, Dead, Process…
  if (modifiers.length === 0) return { action: 'type', text: press.key };
  // A shortcut such as ctrl+c: the sandbox presses printable ASCII keys only.
  const key = press.key === ' ' ? 'space' : press.key.toLowerCase();
  return /^[\x21-\x7e]$|^space$/.test(key) ? { action: 'key', keys: [...modifiers, key] } : undefined;
}
