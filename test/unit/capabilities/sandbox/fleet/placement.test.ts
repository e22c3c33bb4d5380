import { describe, expect, it } from 'vitest';
import { place, type PlacementView } from '../../../../../electron/capabilities/sandbox/fleet/placement.js';

const host = (name: string, o: Partial<PlacementView> = {}): PlacementView => ({ name, up: true, hasImage: true, room: 2, warm: 0, ...o });

describe('desktop placement', () => {
  it('prefers a host with a warm desktop, else the most room', () => {
    expect(place([host('a', { room: 1 }), host('b', { room: 5 })])).toEqual({ kind: 'host', name: 'b' });
    expect(place([host('a', { room: 1, warm: 1 }), host('b', { room: 5 })])).toEqual({ kind: 'host', name: 'a' });
  });

  it('skips hosts that are down or lack the image', () => {
    expect(place([host('a', { up: false, room: 9 }), host('b', { hasImage: false, room: 9 }), host('c', { room: 1 })])).toEqual({
      kind: 'host',
      name: 'c',
    });
  });

  it('waits when every usable host is full', () => {
    expect(place([host('a', { room: 0 }), host('b', { up: false })])).toEqual({ kind: 'wait' });
  });

  it('says per host why none can take a desktop', () => {
    const none = place([host('a', { up: false }), host('b', { hasImage: false })]);
    expect(none.kind).toBe('none');
    expect(none.kind === 'none' && none.reason).toBe('a: the engine does not answer; b: no desktop image (agent-desk sandbox build --host b)');
  });
});
