import { describe, expect, it } from 'vitest';
import { ComputerActionSchema, TERMINAL_STATES, TIER_ORDER } from '../../../electron/contract/index.js';
import { ENDED_STATES, TIERS } from '../../../renderer/src/stores/contractValues.js';
import { keyToAction, pointOnImage, type KeyPress } from '../../../renderer/src/features/task-detail/screenInput.js';
import { newerImage } from '../../../renderer/src/stores/screenSlice.js';
import { toolsByTier } from '../../../renderer/src/features/tools/tiers.js';

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  shiftKey: false,
  ...mods,
});

describe('live screen input (takeover)', () => {
  it('maps a click on the scaled image to the frame’s own pixels, clamped inside it', () => {
    const box = { left: 100, top: 50, width: 640, height: 400 };
    const frame = { width: 1280, height: 800 };
    expect(pointOnImage({ clientX: 420, clientY: 250 }, box, frame)).toEqual({ x: 640, y: 400 });
    expect(pointOnImage({ clientX: 100, clientY: 50 }, box, frame)).toEqual({ x: 0, y: 0 });
    expect(pointOnImage({ clientX: 2000, clientY: -10 }, box, frame)).toEqual({ x: 1279, y: 0 });
  });

  it('types characters (any script), presses named keys and shortcuts, ignores lone modifiers', () => {
    expect(keyToAction(press('a'))).toEqual({ action: 'type', text: 'a' });
    expect(keyToAction(press('A', { shiftKey: true }))).toEqual({ action: 'type', text: 'A' });
    expect(keyToAction(press('中'))).toEqual({ action: 'type', text: '中' });
    expect(keyToAction(press('Enter'))).toEqual({ action: 'key', keys: ['enter'] });
    expect(keyToAction(press('Tab', { shiftKey: true }))).toEqual({ action: 'key', keys: ['shift', 'tab'] });
    expect(keyToAction(press('ArrowLeft'))).toEqual({ action: 'key', keys: ['left'] });
    expect(keyToAction(press('F5'))).toEqual({ action: 'key', keys: ['f5'] });
    expect(keyToAction(press('C', { ctrlKey: true, shiftKey: true }))).toEqual({ action: 'key', keys: ['ctrl', 'c'] });
    expect(keyToAction(press(' ', { ctrlKey: true }))).toEqual({ action: 'key', keys: ['ctrl', 'space'] });
    for (const key of ['Shift', 'Control', 'Dead', 'Process', 'Unidentified']) expect(keyToAction(press(key)), key).toBeUndefined();
    expect(keyToAction(press('中', { ctrlKey: true }))).toBeUndefined();
  });

  it('leaves keys inside an input method composition and the paste shortcut to the page (their text comes as compositionend and paste)', () => {
    expect(keyToAction(press('n', { isComposing: true }))).toBeUndefined();
    expect(keyToAction(press('Enter', { isComposing: true }))).toBeUndefined();
    expect(keyToAction(press('v', { ctrlKey: true }))).toBeUndefined();
    expect(keyToAction(press('V', { metaKey: true, shiftKey: true }))).toBeUndefined();
    expect(keyToAction(press('c', { ctrlKey: true }))).toEqual({ action: 'key', keys: ['ctrl', 'c'] });
  });

  it('every action it produces is one the contract accepts', () => {
    const presses = [press('x'), press('Enter', { ctrlKey: true }), press('PageDown'), press('x', { metaKey: true }), press('Backspace')];
    for (const p of presses) expect(ComputerActionSchema.safeParse(keyToAction(p)).success, p.key).toBe(true);
  });

  it('a slower screen.latest answer never replaces a newer live frame', () => {
    const frame = { format: 'jpeg' as const, width: 2, height: 2, data: 'new', seq: 7 };
    const latest = { ...frame, data: 'old', seq: -1 };
    expect(newerImage(frame, latest)).toBe(frame);
    expect(newerImage(latest, frame)).toBe(frame);
    expect(newerImage(undefined, latest)).toBe(latest);
  });
});

describe('tools by tier', () => {
  it('lists every tier in router order, tools sorted by name within', () => {
    const tool = (name: string, tier: 'api' | 'mcp' | 'browser' | 'gui') => ({ name, tier }) as Parameters<typeof toolsByTier>[0][number];
    const grouped = toolsByTier([tool('fs.write', 'api'), tool('computer', 'gui'), tool('fs.delete', 'api')]);
    expect(grouped.map(([tier, list]) => [tier, list.map((t) => t.name)])).toEqual([
      ['api', ['fs.delete', 'fs.write']],
      ['mcp', []],
      ['browser', []],
      ['gui', ['computer']],
    ]);
  });
});

describe('contract values restated in the renderer (kept out of the bundle with zod)', () => {
  it('equal the contract’s own constants', () => {
    expect(ENDED_STATES).toEqual(TERMINAL_STATES);
    expect(TIERS).toEqual(TIER_ORDER);
  });
});
