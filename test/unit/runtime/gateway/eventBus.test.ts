import { describe, expect, it } from 'vitest';
import type { EventFrame } from '../../../../electron/contract/index.js';
import { createConnectionSubscriptions, createEventBus } from '../../../../electron/runtime/gateway/index.js';
import { aTask, anApproval } from './gatewayFixtures.js';

describe('event bus', () => {
  it('delivers an event as a wire frame to a listener without filter', () => {
    const bus = createEventBus();
    const frames: EventFrame[] = [];
    bus.on({}, (frame) => frames.push(frame));
    bus.emit('task.updated', aTask());
    expect(frames).toEqual([{ event: 'task.updated', data: aTask() }]);
  });

  it("news of another process reaches only listeners that asked for it, and a connection's subscriptions", () => {
    const bus = createEventBus();
    const runtime: EventFrame[] = [];
    const view: EventFrame[] = [];
    const sent: EventFrame[] = [];
    bus.on({}, (frame) => runtime.push(frame));
    bus.on({}, (frame) => view.push(frame), { elsewhere: true });
    createConnectionSubscriptions(bus, (frame) => sent.push(frame)).subscribe({});
    bus.emit('task.updated', aTask({ id: 'here' }));
    bus.emit('task.updated', aTask({ id: 'there' }), 'elsewhere');
    expect(runtime.map((f) => (f.data as { id: string }).id)).toEqual(['here']);
    expect(view.map((f) => (f.data as { id: string }).id)).toEqual(['here', 'there']);
    expect(sent.map((f) => (f.data as { id: string }).id)).toEqual(['here', 'there']);
  });

  it('filters by event name', () => {
    const bus = createEventBus();
    const names: string[] = [];
    bus.on({ events: ['approval.requested'] }, (frame) => names.push(frame.event));
    bus.emit('task.updated', aTask());
    bus.emit('approval.requested', anApproval());
    expect(names).toEqual(['approval.requested']);
  });

  it('filters by task: a task.updated matches on its id, other events on taskId', () => {
    const bus = createEventBus();
    const seen: string[] = [];
    bus.on({ taskId: 't1' }, (frame) => seen.push(frame.event));
    bus.emit('task.updated', aTask({ id: 't1' }));
    bus.emit('task.updated', aTask({ id: 't2' }));
    bus.emit('approval.requested', anApproval({ taskId: 't1' }));
    bus.emit('approval.resolved', anApproval({ taskId: 't2' }));
    expect(seen).toEqual(['task.updated', 'approval.requested']);
  });

  it('a throwing listener does not keep the others from their event, and is reported', () => {
    const errors: unknown[] = [];
    const bus = createEventBus({ onListenerError: (error) => errors.push(error) });
    let delivered = 0;
    bus.on({}, () => {
      throw new Error('listener bug');
    });
    bus.on({}, () => void delivered++);
    expect(() => bus.emit('task.updated', aTask())).not.toThrow();
    expect(delivered).toBe(1);
    expect(errors).toHaveLength(1);
  });

  it('unsubscribing stops delivery, also from inside a listener', () => {
    const bus = createEventBus();
    let count = 0;
    const off = bus.on({}, () => {
      count++;
      off();
    });
    bus.emit('task.updated', aTask());
    bus.emit('task.updated', aTask());
    expect(count).toBe(1);
  });
});

describe('connection subscriptions', () => {
  it('an event matching two filters of one connection is sent once', () => {
    const bus = createEventBus();
    const sent: EventFrame[] = [];
    const subs = createConnectionSubscriptions(bus, (frame) => sent.push(frame));
    subs.subscribe({ taskId: 't1' });
    subs.subscribe({ events: ['task.updated'] });
    bus.emit('task.updated', aTask({ id: 't1' }));
    bus.emit('task.updated', aTask({ id: 't9' }));
    bus.emit('approval.requested', anApproval({ taskId: 't9' }));
    expect(sent.map((f) => [f.event, (f.data as { id: string }).id])).toEqual([
      ['task.updated', 't1'],
      ['task.updated', 't9'],
    ]);
  });

  it('nothing is sent before a subscribe or after close', () => {
    const bus = createEventBus();
    const sent: EventFrame[] = [];
    const subs = createConnectionSubscriptions(bus, (frame) => sent.push(frame));
    bus.emit('task.updated', aTask());
    subs.subscribe({});
    subs.close();
    subs.subscribe({});
    bus.emit('task.updated', aTask());
    expect(sent).toEqual([]);
  });
});
