import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CoordinateSpace,
  chooseModelSpace,
  devicePixels,
  modelToScreen,
  resolveModelSpace,
  screenToModel,
  type ModelSpaceSpec,
  type Size,
} from '../../../../electron/runtime/gui/coordinates.js';
import { SandboxConfigSchema } from '../../../../electron/contract/index.js';
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

/** A screen in points and a scale factor (multiples of 0.25, 1–3) that give whole device pixels. */
const scaledScreen = fc
  .record({
    width: fc.integer({ min: 320, max: 3840 }),
    height: fc.integer({ min: 240, max: 2160 }),
    quarters: fc.integer({ min: 4, max: 12 }),
  })
  .map(({ width, height, quarters }) => ({ points: { width, height }, scale: quarters / 4 }))
  .filter(({ points, scale }) => Number.isInteger(points.width * scale) && Number.isInteger(points.height * scale));

describe('screens with a scale factor (sandbox.screen.scale)', () => {
  it('device pixels are the points times the scale; a scale that splits a pixel is refused with a typed error', () => {
    expect(devicePixels({ width: 1280, height: 800 }, 2)).toEqual({ width: 2560, height: 1600 });
    expect(devicePixels({ width: 1280, height: 800 }, 1.5)).toEqual({ width: 1920, height: 1200 });
    expect(devicePixels({ width: 1280, height: 800 })).toEqual({ width: 1280, height: 800 });
    expect(() => devicePixels({ width: 1366, height: 768 }, 1.25)).toThrow(/1366×768 screen at scale 1.25 is not whole device pixels/);
    expect(() => devicePixels({ width: 1280, height: 800 }, 0.5)).toThrow(AgentDeskError);
  });

  it('the config refuses a scale that splits a pixel, naming screen.scale', () => {
    const ok = SandboxConfigSchema.safeParse({ screen: { width: 1280, height: 800, scale: 2 } });
    expect(ok.success && ok.data.screen).toEqual({ width: 1280, height: 800, scale: 2 });
    const bad = SandboxConfigSchema.safeParse({ screen: { width: 1366, height: 768, scale: 1.25 } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ['screen', 'scale'], message: expect.stringContaining('whole pixels') });
  });

  it('the model space is the one the screen in points gets, at any scale', () => {
    fc.assert(
      fc.property(scaledScreen, ({ points, scale }) => {
        const space = new CoordinateSpace(devicePixels(points, scale), 'auto', scale);
        expect(space.model).toEqual(chooseModelSpace(points));
      }),
    );
  });

  it('every model pixel lands on the device pixel under its centre, exactly, and comes back', () => {
    fc.assert(
      fc.property(
        scaledScreen,
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (s, fx, fy) => {
          const screen = devicePixels(s.points, s.scale);
          const space = new CoordinateSpace(screen, 'auto', s.scale);
          const p = { x: Math.floor(fx * space.model.width), y: Math.floor(fy * space.model.height) };
          const at = space.toScreen(p);
          expect(at).toEqual({ x: reference(p.x, space.model.width, screen.width), y: reference(p.y, space.model.height, screen.height) });
          expect(space.toModel(at)).toEqual(p);
        },
      ),
    );
  });

  it('at a whole scale a model point lands in the block of device pixels of the point it hits at scale 1', () => {
    fc.assert(
      fc.property(
        scaledScreen,
        fc.integer({ min: 2, max: 3 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (s, scale, f) => {
          const one = new CoordinateSpace(s.points, 'auto', 1);
          const many = new CoordinateSpace(devicePixels(s.points, scale), 'auto', scale);
          const p = { x: Math.floor(f * one.model.width), y: Math.floor(f * one.model.height) };
          const [a, b] = [one.toScreen(p), many.toScreen(p)];
          expect({ x: Math.floor(b.x / scale), y: Math.floor(b.y / scale) }).toEqual(a);
        },
      ),
    );
  });
});
