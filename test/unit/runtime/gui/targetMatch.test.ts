import { describe, expect, it } from 'vitest';
import type { A11yNode, OcrLine } from '../../../../electron/contract/index.js';
import { contradictedByTree, editDistance, matchText, matchTree } from '../../../../electron/runtime/gui/targetMatch.js';

const SCREEN = { width: 1280, height: 800 };
let next = 0;
const node = (role: string, name: string, x: number, y: number, extra: Partial<A11yNode> = {}): A11yNode => ({
  id: `:1.1/n${next++}`,
  app: 'Chromium',
  role,
  name,
  states: ['enabled', 'sensitive', 'showing', 'visible'],
  bounds: { x, y, width: 80, height: 24 },
  ...extra,
});
const line = (words: [string, number][], y = 100): OcrLine => ({
  text: words.map(([t]) => t).join(' '),
  box: { x: 0, y, width: 400, height: 20 },
  words: words.map(([text, x]) => ({ text, confidence: 95, box: { x, y, width: 10 * [...text].length, height: 20 } })),
});

describe('matching a target against the accessibility tree', () => {
  it('role and name match exactly, case and spacing folded; "push button" is a button', () => {
    const save = node('push button', 'Save  Note', 10, 10);
    const found = matchTree([save, node('button', 'Save', 100, 10)], { role: 'button', name: 'save note' }, SCREEN);
    expect(found.matches).toEqual([save]);
  });

  it('a near miss is named, never matched', () => {
    const found = matchTree([node('button', 'Save note', 10, 10)], { role: 'button', name: 'Save' }, SCREEN);
    expect(found.matches).toEqual([]);
    expect(found.near.map((n) => n.name)).toEqual(['Save note']);
  });

  it('two identical buttons are two matches', () => {
    const found = matchTree([node('button', 'Delete', 10, 10), node('button', 'Delete', 200, 10)], { role: 'button', name: 'Delete' }, SCREEN);
    expect(found.matches).toHaveLength(2);
  });

  it('text inside a link of the same name is the link, once', () => {
    const link = node('link', 'Pricing', 10, 10);
    const inner = node('static', 'Pricing', 12, 12, { parent: link.id });
    expect(matchTree([link, inner], { text: 'Pricing' }, SCREEN).matches).toEqual([link]);
  });

  it('a target without a role never means a window or a document', () => {
    expect(matchTree([node('frame', 'Notes', 0, 0), node('document web', 'Notes', 0, 0)], { text: 'Notes' }, SCREEN).matches).toEqual([]);
  });

  it('objects off the screen are not candidates', () => {
    expect(matchTree([node('button', 'Save', 2000, 10)], { role: 'button', name: 'Save' }, SCREEN).matches).toEqual([]);
  });
});

describe('matching a target against OCR lines', () => {
  it('a Latin phrase spans words and boxes their union', () => {
    const found = matchText([line([['Export', 20], ['report', 90], ['now', 160]])], { text: 'Export report' });
    expect(found.matches).toEqual([{ box: { x: 20, y: 100, width: 130, height: 20 }, text: 'Export report', line: 'Export report now' }]);
  });

  it('a Latin word does not match inside a longer one', () => {
    expect(matchText([line([['Saved', 20]])], { text: 'Save' }).matches).toEqual([]);
  });

  it('中文 matches inside a word Tesseract read as one, boxed on its own characters', () => {
    const found = matchText([line([['保存草稿', 20]])], { text: '保存' });
    expect(found.matches.map((m) => m.box)).toEqual([{ x: 20, y: 100, width: 20, height: 20 }]);
  });

  it('中文 split into single characters still matches', () => {
    expect(matchText([line([['保', 20], ['存', 32]])], { text: '保存' }).matches).toHaveLength(1);
  });

  it('a misread is a miss naming the line it resembles', () => {
    const found = matchText([line([['Sane', 20], ['note', 70]])], { text: 'Save note' });
    expect(found.matches).toEqual([]);
    expect(found.near).toEqual(['Sane note']);
  });

  it('text the tree knows as part of another control is not a match of its own', () => {
    const hits = matchText([line([['Save', 20], ['note', 70]], 12)], { text: 'Save' }).matches;
    const button = node('button', 'Save note', 10, 10, { bounds: { x: 10, y: 5, width: 120, height: 30 } });
    expect(contradictedByTree(hits, [button], { text: 'Save' })).toEqual({ kept: [], owners: [button] });
  });
});

describe('edit distance', () => {
  it('counts code points', () => {
    expect(editDistance('保存', '保全')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});
