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
});
