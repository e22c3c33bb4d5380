import { describe, expect, it } from 'vitest';
import type { DesktopObservation } from '../../../../electron/contract/index.js';
import { changesBetween, isDisabled } from '../../../../electron/runtime/gui/actionEffect.js';

const button = { id: ':1.2/b', app: 'yad', role: 'button', name: 'OK', states: ['enabled', 'sensitive'], bounds: { x: 1, y: 1, width: 9, height: 9 } };
const seen = (o: Partial<DesktopObservation> = {}): DesktopObservation => ({
  window: { id: '1', title: 'Notes' },
  focus: [],
  node: button,
  regionDigest: 'r',
  screenDigest: 's',
  ...o,
});

describe('what an action changed', () => {
  it('nothing: the same observation twice', () => {
    expect(changesBetween(seen(), seen())).toEqual([]);
  });

  it('each signal on its own', () => {
    expect(changesBetween(seen(), seen({ focus: [button] }))).toEqual(['focus']);
    expect(changesBetween(seen(), seen({ window: { id: '1', title: 'Saved' } }))).toEqual(['window']);
    expect(changesBetween(seen(), seen({ node: { ...button, states: ['enabled', 'sensitive', 'checked'] } }))).toEqual(['element']);
    expect(changesBetween(seen(), seen({ node: null }))).toEqual(['element']);
    expect(changesBetween(seen(), seen({ regionDigest: 'r2' }))).toEqual(['pixels']);
    expect(changesBetween(seen(), seen({ screenDigest: 's2' }))).toEqual(['screen']);
  });

  it('a control without "enabled" and "sensitive" is disabled', () => {
    expect(isDisabled(['showing', 'visible'])).toBe(true);
    expect(isDisabled(['enabled', 'sensitive'])).toBe(false);
    expect(isDisabled(undefined)).toBe(false);
  });
});
