import { describe, expect, it } from 'vitest';
import type { Step } from '../../../electron/contract/index.js';
import { stepImage } from '../../../renderer/src/features/task-detail/stepImage.js';

const PNG = 'iVBORw0KGgo'.padEnd(200, 'A');
const step = (tool: string, args: unknown, output: unknown): Step => ({
  id: 's',
  taskId: 't',
  index: 0,
  attempt: 1,
  tool,
  args,
  output,
  status: 'completed',
  idempotencyKey: 'k',
  readOnly: false,
  idempotent: false,
  tokens: 0,
  costUsd: 0,
  startedAt: 'now',
});

describe('step screenshots', () => {
  it('a desktop click shows its screenshot with the click marked where it landed (model space → percent)', () => {
    const image = stepImage(
      step(
        'computer',
        { action: 'click', x: 320, y: 100 },
        { action: 'click', screenshot: { data: PNG, format: 'png', width: 1280, height: 800 } },
      ),
    );
    expect(image).toEqual({ src: `data:image/png;base64,${PNG}`, mark: { xPct: 25, yPct: 12.5 } });
  });

  it('a browser screenshot has no mark; a step without an image shows none', () => {
    expect(stepImage(step('browser.screenshot', {}, { data: PNG, format: 'jpeg' }))).toEqual({ src: `data:image/jpeg;base64,${PNG}` });
    expect(stepImage(step('fs.write', { path: 'a' }, { bytes: 3 }))).toBeUndefined();
    expect(stepImage(step('computer', {}, { screenshot: { data: 'short' } }))).toBeUndefined();
  });

  it('a desktop step that resolved an element shows its box over the screenshot, in percent of the screen (1920×1080 seen as 1366×768)', () => {
    const image = stepImage(
      step(
        'computer',
        { action: 'click', mark: 7 },
        {
          action: 'click',
          screen: { width: 1920, height: 1080 },
          target: {
            resolver: 'accessibility',
            box: { x: 480, y: 270, width: 192, height: 54 },
            point: { x: 576, y: 297 },
            role: 'button',
            name: 'Save note',
          },
          screenshot: { data: PNG, format: 'png', width: 1366, height: 768 },
        },
      ),
    );
    expect(image).toEqual({
      src: `data:image/png;base64,${PNG}`,
      element: { box: { xPct: 25, yPct: 25, wPct: 10, hPct: 5 }, resolver: 'accessibility', what: "button 'Save note'" },
    });
  });

  it('text OCR read is named by its text; a box past the edge is cut to the image; no screen size, no box', () => {
    const output = (extra: object) => ({
      target: { resolver: 'ocr', box: { x: 1200, y: 700, width: 200, height: 200 }, point: { x: 1250, y: 750 }, text: '保存' },
      screenshot: { data: PNG, format: 'png', width: 1280, height: 800 },
      ...extra,
    });
    const image = stepImage(
      step('computer', { action: 'click', target: { text: '保存' } }, output({ screen: { width: 1280, height: 800 } })),
    );
    expect(image?.element).toEqual({ box: { xPct: 93.75, yPct: 87.5, wPct: 6.25, hPct: 12.5 }, resolver: 'ocr', what: "'保存'" });
    expect(stepImage(step('computer', { action: 'click', target: { text: '保存' } }, output({})))?.element).toBeUndefined();
  });
});
