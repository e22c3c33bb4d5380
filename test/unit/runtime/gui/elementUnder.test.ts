import { describe, expect, it } from 'vitest';
import type { A11yNode } from '../../../../electron/contract/index.js';
import { elementUnder } from '../../../../electron/runtime/gui/elementUnder.js';

const SCREEN = { width: 1280, height: 800 };
let next = 0;
const node = (role: string, name: string, x: number, y: number, width = 80, height = 24, parent?: string): A11yNode => ({
  id: `:1.1/n${next++}`,
  ...(parent !== undefined && { parent }),
  app: 'Chromium',
  role,
  name,
  states: ['enabled', 'sensitive', 'showing', 'visible'],
  bounds: { x, y, width, height },
});

describe('the element a bare click is on', () => {
  it('the smallest named control under the point, not the frame or document around it', () => {
    const frame = node('frame', 'Notes', 0, 0, 1280, 800);
    const doc = node('document web', 'Notes', 0, 0, 1280, 800, frame.id);
    const save = node('push button', 'Save note', 100, 100, 120, 40, doc.id);
    expect(elementUnder([frame, doc, save], { x: 150, y: 120 }, SCREEN)).toEqual(save);
  });

  it('nothing when the point is on no named control', () => {
    const frame = node('frame', 'Notes', 0, 0, 1280, 800);
    expect(elementUnder([frame, node('push button', 'Save note', 100, 100)], { x: 600, y: 600 }, SCREEN)).toBeUndefined();
  });

  it('nothing when the control under it shares its role and name with another (a target would be ambiguous)', () => {
    const nodes = [node('push button', 'Delete', 10, 10), node('push button', 'Delete', 200, 10)];
    expect(elementUnder(nodes, { x: 20, y: 20 }, SCREEN)).toBeUndefined();
  });

  it('text inside a link of the same name is the link', () => {
    const link = node('link', 'Docs', 10, 10, 100, 30);
    const text = node('link', 'Docs', 12, 12, 60, 20, link.id);
    expect(elementUnder([link, text], { x: 20, y: 20 }, SCREEN)).toEqual(link);
  });
});
