import { spawn } from 'node:child_process';
import nut from '@nut-tree-fork/nut-js';
import { insertIntoFocusedPage } from './browser.js';
import type { SandboxdParams, SandboxdResult, ScreenPoint } from '../../../../electron/contract/sandboxProtocol.js';

const { mouse, keyboard, Point, Button, Key } = nut;
// The host owns pacing (settle by screen stability): no artificial delays here.
mouse.config.autoDelayMs = 0;
mouse.config.mouseSpeed = 100_000;
keyboard.config.autoDelayMs = 0;

const BUTTONS = { left: Button.LEFT, right: Button.RIGHT, middle: Button.MIDDLE } as const;

const NAMED_KEYS: Record<string, nut.Key> = {
  ctrl: Key.LeftControl,
  shift: Key.LeftShift,
  alt: Key.LeftAlt,
  meta: Key.LeftSuper,
  enter: Key.Enter,
  tab: Key.Tab,
  escape: Key.Escape,
  backspace: Key.Backspace,
  delete: Key.Delete,
  space: Key.Space,
  up: Key.Up,
  down: Key.Down,
  left: Key.Left,
  right: Key.Right,
  home: Key.Home,
  end: Key.End,
  pageup: Key.PageUp,
  pagedown: Key.PageDown,
  insert: Key.Insert,
  '-': Key.Minus,
  '=': Key.Equal,
  ',': Key.Comma,
  '.': Key.Period,
  '/': Key.Slash,
  ';': Key.Semicolon,
  "'": Key.Quote,
  '[': Key.LeftBracket,
  ']': Key.RightBracket,
  '\\': Key.Backslash,
  '`': Key.Grave,
};

function toKey(name: string): nut.Key {
  const named = NAMED_KEYS[name];
  if (named !== undefined) return named;
  const upper = name.toUpperCase();
  const byName = /^[0-9]$/.test(name) ? `Num${name}` : upper;
  const key = (Key as unknown as Record<string, nut.Key | undefined>)[byName];
  if (key === undefined) throw new Error(`no key named ${name}`);
  return key;
}

/** Moves the pointer; returns where it is. */
export async function moveTo(p: ScreenPoint): Promise<ScreenPoint> {
  await mouse.setPosition(new Point(p.x, p.y));
  return position();
}

/** mouse.click: move then press `count` times. */
export async function click(p: Required<SandboxdParams<'mouse.click'>>): Promise<ScreenPoint> {
  await mouse.setPosition(new Point(p.x, p.y));
  const button = BUTTONS[p.button];
  if (p.count === 2) await mouse.doubleClick(button);
  else for (let i = 0; i < p.count; i++) await mouse.click(button);
  return position();
}

/** mouse.drag: press at `from`, move in a few steps (so pages see mousemove), release at `to`. */
export async function drag(p: SandboxdParams<'mouse.drag'>): Promise<ScreenPoint> {
  await mouse.setPosition(new Point(p.from.x, p.from.y));
  await mouse.pressButton(Button.LEFT);
  const steps = 8;
  for (let i = 1; i <= steps; i++) {
    const x = Math.round(p.from.x + ((p.to.x - p.from.x) * i) / steps);
    const y = Math.round(p.from.y + ((p.to.y - p.from.y) * i) / steps);
    await mouse.setPosition(new Point(x, y));
  }
  await mouse.releaseButton(Button.LEFT);
  return position();
}

/** mouse.scroll at a point: positive dy scrolls down, positive dx right. */
export async function scroll(p: Required<SandboxdParams<'mouse.scroll'>>): Promise<ScreenPoint> {
  await mouse.setPosition(new Point(p.x, p.y));
  if (p.dy > 0) await mouse.scrollDown(p.dy);
  if (p.dy < 0) await mouse.scrollUp(-p.dy);
  if (p.dx > 0) await mouse.scrollRight(p.dx);
  if (p.dx < 0) await mouse.scrollLeft(-p.dx);
  return position();
}

/** Where the pointer is. */
export async function position(): Promise<ScreenPoint> {
  const p = await mouse.getPosition();
  return { x: p.x, y: p.y };
}

/** keyboard.press: a key or a combination, released in reverse order. */
export async function press(keys: string[]): Promise<SandboxdResult<'keyboard.press'>> {
  const mapped = keys.map(toKey);
  // One key per call: libnut's multi-key release can lose the last key, which X then autorepeats.
  for (const key of mapped) await keyboard.pressKey(key);
  for (const key of [...mapped].reverse()) await keyboard.releaseKey(key);
  return { pressed: keys };
}

/** keyboard.type: ASCII runs are typed as X key events, other runs committed or pasted. */
export async function typeText(text: string): Promise<SandboxdResult<'keyboard.type'>> {
  let typed = 0;
  let pasted = 0;
  for (const run of text.match(/[\x20-\x7e\n\t]+|[^\x20-\x7e\n\t]+/g) ?? []) {
    if (/^[\x20-\x7e\n\t]/.test(run)) {
      await typeAscii(run);
      typed += run.length;
    } else {
      // The X keyboard has no keys for CJK and X clipboard hand-over to Chromium is racy on a
      // fresh desktop: commit like an IME when the sandbox browser has focus, else paste.
      if (!(await insertIntoFocusedPage(run))) {
        await setClipboard(run);
        await press(['ctrl', 'v']);
      }
      pasted += [...run].length;
    }
  }
  return { typed, pasted };
}

// libnut drops the second of two identical characters typed back to back ("ll" in hello): type
// per character and give a repeated one a moment, so X delivers a separate press.
async function typeAscii(run: string): Promise<void> {
  let previous = '';
  for (const ch of run) {
    if (ch === previous) await new Promise((r) => setTimeout(r, 15));
    await keyboard.type(ch);
    previous = ch;
  }
}

// xclip keeps serving the selection in the background until another owner takes it. The previous
// owner may still answer for a moment, so read the clipboard back until it holds our text.
async function setClipboard(text: string): Promise<void> {
  await xclip(['-selection', 'clipboard', '-i'], text);
  for (let i = 0; i < 50; i++) {
    if ((await xclip(['-selection', 'clipboard', '-o'])) === text) return settleOwnerChange();
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the clipboard did not take the text to paste');
}

// Apps learn of a new clipboard owner asynchronously (XFixes) and may paste a cached value until
// then; X offers no acknowledgement to wait for, so give the notification a short head start.
const OWNER_CHANGE_MS = 80;
const settleOwnerChange = (): Promise<void> => new Promise((r) => setTimeout(r, OWNER_CHANGE_MS));

function xclip(args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('xclip', args, { stdio: ['pipe', input === undefined ? 'pipe' : 'ignore', 'ignore'] });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 || input === undefined ? resolve(out) : reject(new Error(`xclip exited ${code}`))));
    child.stdin?.end(input ?? '', 'utf8');
  });
}
