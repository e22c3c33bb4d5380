import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedProvider } from '../../../../electron/runtime/models/scriptedProvider.js';
import type { ModelProvider } from '../../../../electron/runtime/models/types.js';
import { openLlmRuntime } from '../../../support/llmRuntime.js';
import { tempDir, type TestRuntime } from '../../../support/runtime.js';

let h: TestRuntime;
afterEach(async () => h?.cleanup());

/** A scripted model that keeps every request it was sent, as JSON. */
function recordingModel(turns: number): { provider: ModelProvider; requests: string[] } {
  const script = new ScriptedProvider(Array.from({ length: turns }, () => ({ text: 'done' })));
  const requests: string[] = [];
  const provider: ModelProvider = {
    kind: 'recording',
    model: 'scripted',
    complete: (request, options) => {
      requests.push(JSON.stringify(request));
      return script.complete(request, options);
    },
  };
  return { provider, requests };
}

describe('memory in the model’s stable prefix', () => {
  it('a note reaches the next task’s prompt through its snapshot (workspace and agent scopes); after forget it no longer does', async () => {
    const { provider, requests } = recordingModel(3);
    h = openLlmRuntime(provider, [], { memory: (task) => h.rt.memory.snapshotFor(task) });
    const workspace = tempDir('agent-desk-ws-');
    const memory = h.rt.memory;
    await h.rt.agents.create({ name: 'ops' });
    const place = await memory.add({ kind: 'workspace', id: workspace }, 'The staging database lives in eu-west-3');
    await memory.add({ kind: 'agent', id: 'ops' }, 'Deploys need a change ticket');
    const goal = (agent?: string) =>
      h.rt.engine.create({ title: 'g', plan: { kind: 'goal', goal: 'check staging' }, inputs: {}, workspace, ...(agent && { agent }) });

    await h.rt.engine.run((await goal('ops')).id);
    expect(requests[0]).toContain('The staging database lives in eu-west-3');
    expect(requests[0]).toContain('Deploys need a change ticket');

    await h.rt.engine.run((await goal()).id); // no agent: only the workspace's notes
    expect(requests[1]).toContain('The staging database lives in eu-west-3');
    expect(requests[1]).not.toContain('Deploys need a change ticket');

    expect(await memory.forget({ kind: 'workspace', id: workspace }, place.id)).toBe(true);
    await h.rt.engine.run((await goal()).id);
    expect(requests[2]).not.toContain('eu-west-3');
  });
});
