import { describe, expect, it } from 'vitest';
import { findChromium } from '../../../../electron/capabilities/browser/chromium.js';

describe('Chromium discovery', () => {
  it('AGENT_DESK_CHROMIUM wins when the file exists', () => {
    expect(findChromium({ AGENT_DESK_CHROMIUM: '/opt/x/chrome' }, (p) => p === '/opt/x/chrome' || p === '/usr/bin/chromium')).toBe(
      '/opt/x/chrome',
    );
  });

  it('a missing AGENT_DESK_CHROMIUM is an error naming the path, not a silent fallback', () => {
    expect(() => findChromium({ AGENT_DESK_CHROMIUM: '/nope/chrome' }, () => false)).toThrow(/AGENT_DESK_CHROMIUM is \/nope\/chrome/);
  });

  it('falls back to /usr/bin/chromium, then installed Chrome channels', () => {
    expect(findChromium({}, (p) => p === '/usr/bin/chromium')).toBe('/usr/bin/chromium');
    expect(findChromium({}, (p) => p === '/opt/google/chrome/chrome')).toBe('/opt/google/chrome/chrome');
  });

  it('with none installed, the error says what to install', () => {
    expect(() => findChromium({}, () => false)).toThrow(/apt-get install chromium.*AGENT_DESK_CHROMIUM/s);
  });
});
