import { describe, expect, it } from 'vitest';
import { ComputerToolInputSchema } from '../../../../../electron/contract/index.js';
import { recordedComputerArgs } from '../../../../../electron/runtime/planning/record/desktopStep.js';

const SHOT = { format: 'png', mediaType: 'image/png', width: 1280, height: 800, data: 'iVBOR' };
const box = { x: 590, y: 190, width: 120, height: 44 };

describe('a desktop click as a recording keeps it', () => {
  it('a bare click keeps its coordinate, the element the tree had under it, and the screenshot size', () => {
    const args = recordedComputerArgs(
      { action: 'click', x: 650, y: 212, button: 'left', count: 1 },
      {
        action: 'click',
        cursor: { x: 650, y: 212 },
        screenshot: SHOT,
        target: { resolver: 'coordinate', box, point: { x: 650, y: 212 }, role: 'push button', name: 'Save note' },
      },
    );
    expect(args).toEqual({
      action: 'click',
      x: 650,
      y: 212,
      button: 'left',
      count: 1,
      target: { role: 'push button', name: 'Save note' },
      recordedSpace: { width: 1280, height: 800 },
    });
    expect(ComputerToolInputSchema.safeParse(args).success).toBe(true);
  });

  it("a target-only click gets the point it hit (from the cursor), and the tree's own role and name replace the model's words", () => {
    const args = recordedComputerArgs(
      { action: 'click', target: { name: 'save note' }, button: 'left', count: 1 },
      {
        action: 'click',
        cursor: { x: 650, y: 212 },
        screenshot: SHOT,
        target: { resolver: 'accessibility', box, point: { x: 650, y: 212 }, role: 'push button', name: 'Save note' },
      },
    );
    expect(args).toMatchObject({ x: 650, y: 212, target: { role: 'push button', name: 'Save note' } });
  });

  it('OCR text is recorded as a text target; a mark (one screenshot’s number) is never recorded', () => {
    const args = recordedComputerArgs(
      { action: 'click', mark: 7, button: 'left', count: 1 },
      {
        action: 'click',
        cursor: { x: 40, y: 60 },
        screenshot: SHOT,
        target: { resolver: 'ocr', box, point: { x: 40, y: 60 }, text: '保存' },
      },
    );
    expect(args).toEqual({
      action: 'click',
      x: 40,
      y: 60,
      button: 'left',
      count: 1,
      target: { text: '保存' },
      recordedSpace: { width: 1280, height: 800 },
    });
  });

  it("a click the coordinate resolved (the model's target missed) keeps no target that would miss again", () => {
    const args = recordedComputerArgs(
      { action: 'click', x: 5, y: 5, target: { name: 'Nope' }, button: 'left', count: 1 },
      { action: 'click', cursor: { x: 5, y: 5 }, screenshot: SHOT, target: { resolver: 'coordinate', box, point: { x: 5, y: 5 } } },
    );
    expect(args).not.toHaveProperty('target');
    expect(args).toMatchObject({ x: 5, y: 5, recordedSpace: { width: 1280, height: 800 } });
  });

  it('other actions are kept as they ran', () => {
    expect(recordedComputerArgs({ action: 'type', text: 'hi' }, { action: 'type' })).toEqual({ action: 'type', text: 'hi' });
  });
});
