import { describe, expect, it } from 'vitest';
import {
  place,
  taskRoom,
  warmRoom,
  type EngineLoad,
  type PlacementView,
} from '../../../../../electron/capabilities/sandbox/fleet/placement.js';

const load = (o: Partial<EngineLoad> = {}): EngineLoad => ({ capacity: 2, inUse: 0, pending: 0, warmStarting: 0, ...o });

/** Places `n` desktops one after another on engines of these capacities (no warm pools): how many each got, and what the next one does. */
function fill(capacities: Record<string, number>, n: number) {
  const inUse: Record<string, number> = Object.fromEntries(Object.keys(capacities).map((k) => [k, 0]));
  const views = (): PlacementView[] =>
    Object.entries(capacities).map(([name, capacity]) => ({
      name,
      up: true,
      hasImage: true,
      warm: 0,
      room: taskRoom(load({ capacity, inUse: inUse[name] })),
    }));
  for (let i = 0; i < n; i++) {
    const placed = place(views());
    if (placed.kind !== 'host') throw new Error(`desktop ${i}: ${placed.kind}`);
    inUse[placed.name]!++;
  }
  return { inUse, next: place(views()) };
}

describe('per-engine capacity', () => {
  it('an engine at its capacity has no room for a task desktop nor a warm one', () => {
    expect(taskRoom(load({ inUse: 2 }))).toBe(0);
    expect(warmRoom(load({ inUse: 2 }))).toBe(0);
    expect(taskRoom(load({ inUse: 1, pending: 1 }))).toBe(0);
  });

  it('a warm desktop still starting holds room; a ready one is the next task’s room', () => {
    expect(taskRoom(load({ inUse: 1, warmStarting: 1 }))).toBe(0);
    expect(taskRoom(load({ inUse: 1 }))).toBe(1);
  });

  it('the warm pool gets only what the task desktops leave', () => {
    expect(warmRoom(load({ capacity: 3, inUse: 1 }))).toBe(2);
    expect(warmRoom(load({ capacity: 3, inUse: 1, pending: 2 }))).toBe(0);
  });

  it('two engines of capacity 2 take four desktops, two each, and the fifth waits', () => {
    const { inUse, next } = fill({ a: 2, b: 2 }, 4);
    expect(inUse).toEqual({ a: 2, b: 2 });
    expect(next).toEqual({ kind: 'wait' });
  });

  it('engines of unequal capacity fill to their own limits', () => {
    const { inUse, next } = fill({ a: 1, b: 3 }, 4);
    expect(inUse).toEqual({ a: 1, b: 3 });
    expect(next).toEqual({ kind: 'wait' });
  });
});
