import { describe, expect, it } from 'vitest';
import type { A11yNode, OcrLine, ScreenBox } from '../../../../electron/contract/index.js';
import { CoordinateSpace } from '../../../../electron/runtime/gui/coordinates.js';
import {
  collectMarks,
  legendText,
  MARK_LIMITS,
  markElement,
  markShapes,
  marksSvg,
  modelBox,
} from '../../../../electron/runtime/gui/screenMarks.js';

const SCREEN = { width: 1920, height: 1080 };
let next = 0;
const node = (role: string, name: string, bounds: ScreenBox, extra: Partial<A11yNode> = {}): A11yNode => ({
  id: `:1.1/n${next++}`,
  app: 'Chromium',
  role,
  name,
  states: ['enabled', 'sensitive', 'showing', 'visible'],
  bounds,
  ...extra,
});
const line = (text: string, box: ScreenBox, confidence = 92): OcrLine => ({
  text,
  box,
  words: text.split(' ').map((w) => ({ text: w, confidence, box })),
});
const box = (x: number, y: number, width = 120, height = 30): ScreenBox => ({ x, y, width, height });

describe('marks of a screen', () => {
  it('numbers the tree controls and the OCR lines the tree lacks, in reading order, with a legend of role and name', () => {
    const nodes = [
      node('frame', 'Notes — Chromium', box(0, 0, 1920, 1080)),
      node('push button', 'Save note', box(40, 200)),
      node('link', 'Help', box(600, 40)),
      node('entry', 'Title', box(40, 120, 400)),
      node('static', 'Welcome back', box(40, 80)),
      node('button', '', box(900, 900)), // nameless: nothing finds it again
      node('button', 'Off screen', box(2000, 100)),
    ];
    const lines = [
      line('Export report', box(40, 500, 200)), // a canvas: the tree has nothing here
      line('Save note', box(44, 204, 100)), // the button's own label
      line('Welcome back', box(40, 80)), // the tree names it already
      line('保存草稿', box(40, 600, 140)),
      line('Save note | Cancel', box(30, 195, 260, 40)), // read across controls the tree names
      line('Notes', box(30, 180, 40, 20)), // a label beside the button, mostly outside it
      line('|', box(10, 10, 4)),
      line('smudge', box(300, 700), 20),
    ];
    const set = collectMarks(nodes, lines, SCREEN);
    expect(set.omitted).toBe(0);
    expect(set.marks.map((m) => [m.n, m.source, m.role ?? m.text, m.name])).toEqual([
      [1, 'accessibility', 'link', 'Help'],
      [2, 'accessibility', 'entry', 'Title'],
      [3, 'ocr', 'Notes', undefined],
      [4, 'accessibility', 'push button', 'Save note'],
      [5, 'ocr', 'Export report', undefined],
      [6, 'ocr', '保存草稿', undefined],
    ]);
    expect(legendText(set).split('\n')).toEqual([
      'Marks 1–6 on this screenshot; click one with {"action":"click","mark":N}:',
      "1: link 'Help'",
      "2: entry 'Title'",
      "3: text 'Notes'",
      "4: push button 'Save note'",
      "5: text 'Export report'",
      "6: text '保存草稿'",
    ]);
    expect(markElement(set.marks[3]!)).toEqual({ role: 'push button', name: 'Save note' });
    expect(markElement(set.marks[5]!)).toEqual({ text: '保存草稿' });
  });

  it('a control nested in one of the same name is marked once (the outer); a disabled one says so', () => {
    const set = collectMarks(
      [node('link', 'Buy now', box(100, 100, 200, 40)), node('button', 'Buy now', box(110, 105, 100, 30), { states: ['showing'] })],
      [],
      SCREEN,
    );
    expect(set.marks).toHaveLength(1);
    expect(set.marks[0]!.role).toBe('link');
    const disabled = collectMarks([node('button', 'Pay', box(10, 10), { states: ['showing', 'visible'] })], [], SCREEN);
    expect(legendText(disabled)).toContain("1: button 'Pay' (disabled)");
  });

  it('the cap keeps tree controls before OCR lines, says how many were left out, and long names are cut in the legend only', () => {
    const long = `Accept the terms ${'and conditions '.repeat(10)}`.trim();
    const nodes = Array.from({ length: MARK_LIMITS.marks + 5 }, (_, i) =>
      node('button', i === 0 ? long : `Item ${i}`, box(10, 10 + 20 * i, 100, 18)),
    );
    const set = collectMarks(nodes, [line('Footer text', box(10, 1050, 200, 20))], SCREEN);
    expect(set.marks).toHaveLength(MARK_LIMITS.marks);
    expect(set.marks.every((m) => m.source === 'accessibility')).toBe(true);
    expect(set.omitted).toBe(6);
    const legend = legendText(set);
    expect(legend).toContain(`(6 more elements not marked: limit ${MARK_LIMITS.marks}; zoom or give x/y for them)`);
    expect(legend.split('\n')[1]).toBe(`1: button '${long.slice(0, MARK_LIMITS.label - 1)}…'`);
    expect(set.marks[0]!.name).toBe(long); // the full name finds it again
    // The whole legend stays inside a small context budget (about a thousand tokens).
    expect(legend.length).toBeLessThan(MARK_LIMITS.marks * (MARK_LIMITS.label + 30));
  });

  it("with the model space, each line says where the mark's centre is on the screenshot, a point that clicks inside the element", () => {
    const space = new CoordinateSpace(SCREEN);
    const set = collectMarks([node('button', 'Save note', box(960, 540, 192, 108))], [], SCREEN);
    expect(legendText(set, space).split('\n')[1]).toBe("1: button 'Save note' at (751, 422)");
    const back = space.toScreen({ x: 751, y: 422 });
    expect(back.x >= 960 && back.x < 1152 && back.y >= 540 && back.y < 648).toBe(true);
  });

  it('an empty screen says so instead of an empty legend', () => {
    expect(legendText(collectMarks([], [], SCREEN))).toBe('No element to mark on this screen: give x/y instead.');
  });
});

describe('drawing marks in model space', () => {
  const spaces = [
    new CoordinateSpace({ width: 1920, height: 1080 }),
    new CoordinateSpace({ width: 1280, height: 800 }),
    // A HiDPI desktop (sandbox.screen.scale 2): the tree, OCR and the screen count device pixels.
    new CoordinateSpace({ width: 2560, height: 1600 }, 'auto', 2),
  ];

  it('a mark drawn in model space holds, at its centre, a model point the click conversion puts back inside the element', () => {
    for (const space of spaces) {
      const { width, height } = space.screen;
      const boxes = [box(0, 0, 7, 5), box(width - 33, height - 21, 33, 21), box(517, 301, 141, 37), box(1, 1, 2, 2)];
      for (const b of boxes) {
        // Boxes of 2 px and more: a model pixel covers up to 1.5 screen pixels when shown smaller.
        const m = modelBox(b, space);
        const centre = space.toScreen({ x: m.x + Math.floor((m.width - 1) / 2), y: m.y + Math.floor((m.height - 1) / 2) });
        expect(centre.x).toBeGreaterThanOrEqual(b.x);
        expect(centre.x).toBeLessThan(b.x + b.width);
        expect(centre.y).toBeGreaterThanOrEqual(b.y);
        expect(centre.y).toBeLessThan(b.y + b.height);
        expect(m.x + m.width).toBeLessThanOrEqual(space.model.width);
        expect(m.y + m.height).toBeLessThanOrEqual(space.model.height);
      }
    }
  });

  it('1920×1080 shown as 1366×768: a box maps by the exact conversion, and a box past the edge is cut to the screen', () => {
    const space = spaces[0]!;
    expect(space.model).toEqual({ width: 1366, height: 768 });
    expect(modelBox(box(960, 540, 192, 108), space)).toEqual({ x: 683, y: 384, width: 137, height: 77 });
    expect(modelBox(box(1800, 1000, 400, 400), space)).toEqual({ x: 1280, y: 711, width: 86, height: 57 });
  });

  it('number tags sit above their box, or inside it at the top edge, and never leave the image', () => {
    const space = spaces[0]!;
    const set = collectMarks(
      [
        node('button', 'Top left', box(0, 0, 60, 20)),
        node('button', 'Far right', box(1900, 500, 20, 20)),
        node('button', 'Middle', box(900, 500)),
      ],
      [],
      SCREEN,
    );
    const shapes = markShapes(set.marks, space);
    for (const s of shapes) {
      expect(s.tag.x).toBeGreaterThanOrEqual(0);
      expect(s.tag.y).toBeGreaterThanOrEqual(0);
      expect(s.tag.x + s.tag.width).toBeLessThanOrEqual(space.model.width);
      expect(s.tag.y + s.tag.height).toBeLessThanOrEqual(space.model.height);
    }
    const middle = shapes.find((s) => s.n === set.marks.find((m) => m.name === 'Middle')!.n)!;
    expect(middle.tag.y + middle.tag.height).toBe(middle.box.y);
    const topLeft = shapes.find((s) => s.n === 1)!;
    expect(topLeft.tag.y).toBe(0);
    const svg = marksSvg(shapes, space.model);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="1366" height="768">/);
    expect(svg.match(/<text /g)).toHaveLength(3);
  });
});
