import { describe, expect, it } from 'vitest';
import { movesToRunning, plannedMoves } from '../../../../electron/runtime/engine/stateMoves.js';

describe('the state changes a run records', () => {
  it('a queued task starts through planning to running; a resumed one goes straight to running; an approval wait stays', () => {
    expect(movesToRunning('queued').map(([to]) => to)).toEqual(['planning', 'running']);
    expect(movesToRunning('planning').map(([to]) => to)).toEqual(['running']);
    expect(movesToRunning('paused').map(([to]) => to)).toEqual(['running']);
    expect(movesToRunning('waiting_approval')).toEqual([]);
    expect(movesToRunning('succeeded')).toEqual([]);
  });

  it('checks every change against the state machine, each from the one before it', () => {
    const moves = plannedMoves('queued', movesToRunning('queued'));
    expect(moves.map(({ from, to }) => [from, to])).toEqual([
      ['queued', 'planning'],
      ['planning', 'running'],
    ]);
    expect(() => plannedMoves('succeeded', [['running', 'resumed']])).toThrow();
  });
});
