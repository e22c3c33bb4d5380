import { describe, expect, it } from 'vitest';
import { onThisScreen } from '../../../../electron/capabilities/gui/recordedClick.js';
import { ComputerToolInputSchema } from '../../../../electron/contract/index.js';

const WXGA = { width: 1280, height: 800 };
const FWXGA = { width: 1366, height: 768 };
const click = (args: Record<string, unknown>) => ComputerToolInputSchema.parse({ action: 'click', ...args });

describe('a recorded click on the screen it replays on', () => {
  it('with a target, the element alone is looked for: the recorded coordinate is dropped at any size', () => {
    const recorded = click({ x: 640, y: 212, target: { role: 'push button', name: 'Save note' }, recordedSpace: WXGA });
    for (const model of [WXGA, FWXGA]) {
      const args = onThisScreen(recorded, model);
      expect(args).toMatchObject({ action: 'click', target: { role: 'push button', name: 'Save note' } });
      expect(args).not.toHaveProperty('x');
      expect(args).not.toHaveProperty('y');
    }
  });

  it('a bare coordinate is clicked in the space it was recorded in', () => {
    const recorded = click({ x: 640, y: 212, recordedSpace: WXGA });
    expect(onThisScreen(recorded, WXGA)).toEqual(recorded);
  });

  it('a bare coordinate at another size is target_missed, naming both sizes, never a click elsewhere', () => {
    const recorded = click({ x: 640, y: 212, recordedSpace: WXGA });
    expect(() => onThisScreen(recorded, FWXGA)).toThrow(
      expect.objectContaining({ code: 'target_missed', message: expect.stringMatching(/1280×800.*1366×768/) }),
    );
  });

  it("a model's own click (nothing recorded) is left as given", () => {
    const given = click({ x: 5, y: 6, target: { text: '保存' } });
    expect(onThisScreen(given, FWXGA)).toBe(given);
  });
});
