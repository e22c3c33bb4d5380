import { describe, expect, it } from 'vitest';
import {
  CoordinateSpace,
  chooseModelSpace,
  modelToScreen,
  resolveModelSpace,
  screenToModel,
  type ModelSpaceSpec,
  type Size,
} from '../../../../electron/runtime/gui/coordinates.js';
import { AgentDeskError } from '../../../../electron/runtime/errors.js';

const SCREENS: Size[] = [
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
  { width: 1280, height: 720 },
  { width: 1366, height: 768 },
  { width: 1440, height: 900 },
  { width: 1600, height: 1200 },
  { width: 1680, height: 1050 },
  { width: 1920, height: 1080 },
  { width: 1920, height: 1200 },
  { width: 2048, height: 1536 },
  { width: 2560, height: 1440 },
  { width: 2560, height: 1600 },
  { width: 3840, height: 2160 },
  { width: 800, height: 600 },
];
const SPACES: ModelSpaceSpec[] = ['auto', 'screen', 'normalized1000'];

/** Independent reference: the exact rational centre of the model pixel, floored, in BigInt. */
function reference(v: number, from: number, to: number): number {
  const exact = (BigInt(2 * v + 1) * BigInt(to)) / BigInt(2 * from); // BigInt division floors
  return Math.min(to - 1, Number(exact));
}

describe('coordinate conversion', () => {
  const table = SCREENS.flatMap((screen) => SPACES.map((spec) => ({ screen, spec })));

  it(`covers at least 12 screen sizes × ${SPACES.length} model spaces`, () => {
    expect(SCREENS.length).toBeGreaterThanOrEqual(12);
    expect(table.length).toBeGreaterThanOrEqual(36);
  });

  it.each(table)('$screen.width×$screen.height in $spec: every model pixel lands exactly and round-trips', ({ screen, spec }) => {
    const space = new CoordinateSpace(screen, spec);
    const { model } = space;
    let off = 0;
    for (let x = 0; x < model.width; x++) {
      const sx = space.toScreen({ x, y: 0 }).x;
      off += Math.abs(sx - reference(x, model.width, screen.width));
      if (model.width <= screen.width) off += Math.abs(space.toModel({ x: sx, y: 0 }).x - x);
    }
    for (let y = 0; y < model.height; y++) {
      const sy = space.toScreen({ x: 0, y }).y;
      off += Math.abs(sy - reference(y, model.height, screen.height));
      if (model.height <= screen.height) off += Math.abs(space.toModel({ x: 0, y: sy }).y - y);
    }
    expect(off).toBe(0);
    expect(space.toScreen({ x: 0, y: 0 })).toEqual({
      x: Math.floor(screen.width / (2 * model.width)),
      y: Math.floor(screen.height / (2 * model.height)),
    });
  });

  it("auto picks the scaling target with the screen's aspect (XGA, WXGA, FWXGA)", () => {
    expect(chooseModelSpace({ width: 2048, height: 1536 })).toEqual({ width: 1024, height: 768 });
    expect(chooseModelSpace({ width: 2560, height: 1600 })).toEqual({ width: 1280, height: 800 });
    expect(chooseModelSpace({ width: 1920, height: 1080 })).toEqual({ width: 1366, height: 768 });
    expect(chooseModelSpace({ width: 1280, height: 800 })).toEqual({ width: 1280, height: 800 });
  });

  it('auto keeps the aspect and the pixel limit for screens no target fits', () => {
    const m = chooseModelSpace({ width: 3440, height: 1440 });
    expect(Math.abs(m.width / m.height - 3440 / 1440)).toBeLessThan(0.01);
    expect(m.width * m.height).toBeLessThanOrEqual(1_150_000);
  });

  it('a target with another aspect is refused with a typed error', () => {
    expect(() => resolveModelSpace('XGA', { width: 1920, height: 1080 })).toThrow(AgentDeskError);
    try {
      resolveModelSpace('WXGA', { width: 1024, height: 768 });
    } catch (error) {
      expect((error as AgentDeskError).code).toBe('invalid_params');
      expect((error as AgentDeskError).message).toContain('aspect');
    }
  });

  it('points outside the model space are refused, not clamped silently', () => {
    const model = { width: 1024, height: 768 };
    const screen = { width: 2048, height: 1536 };
    expect(() => modelToScreen({ x: 1024, y: 0 }, model, screen)).toThrow(/outside 0..1023/);
    expect(() => modelToScreen({ x: -1, y: 0 }, model, screen)).toThrow(AgentDeskError);
    expect(() => screenToModel({ x: 10.5, y: 0 }, model, screen)).toThrow(AgentDeskError);
  });
});
