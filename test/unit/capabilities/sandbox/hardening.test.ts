import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, hardenedCreateOptions } from '../../../../electron/capabilities/sandbox/hardening.js';

const envOf = (screen: { width: number; height: number; scale?: number }) =>
  hardenedCreateOptions('img', { ...DEFAULT_LIMITS, screen }, {}, 'n').Env ?? [];

describe('the desktop screen a container gets', () => {
  it('at scale 1: the configured size, and no scaling variables', () => {
    const env = envOf({ width: 1280, height: 800 });
    expect(env).toContain('SCREEN=1280x800');
    expect(env.some((e) => e.startsWith('GDK_SCALE='))).toBe(false);
  });

  it('at scale 2: X runs at twice the points, and applications draw at 2', () => {
    const env = envOf({ width: 1280, height: 800, scale: 2 });
    expect(env).toContain('SCREEN=2560x1600');
    expect(env).toEqual(expect.arrayContaining(['GDK_SCALE=2', 'GDK_DPI_SCALE=1', 'QT_SCALE_FACTOR=2']));
  });

  it('at scale 1.5: whole GTK scale 1, the rest through the font DPI', () => {
    const env = envOf({ width: 1280, height: 800, scale: 1.5 });
    expect(env).toContain('SCREEN=1920x1200');
    expect(env).toEqual(expect.arrayContaining(['GDK_SCALE=1', 'GDK_DPI_SCALE=1.5']));
  });
});
