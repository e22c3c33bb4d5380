import type { ModelsConfig, Task } from '../../contract/index.js';
import type { RuntimeCore } from '../core/runtimeCore.js';
import { MeteredProvider } from '../models/meteredProvider.js';
import { resolveModelRef } from '../models/modelRef.js';
import { createProvider } from '../models/providerFactory.js';
import type { ModelProvider } from '../models/types.js';
import { RedactingProvider } from '../secrets/redactingProvider.js';
import { TracedProvider } from '../trace/telemetry/tracedProvider.js';

/** What a task's model provider is built from. */
type TaskModelCore = Pick<RuntimeCore, 'clock' | 'redactor' | 'secrets' | 'engine' | 'trace' | 'telemetry'>;

/**
 * The provider a task's model calls go through (goal planning, playbook healing): `ref` resolved
 * against the `models` section with its key from the secret store, each call a `model.call`
 * trace event priced from `models.prices`, every request redacted (no known secret reaches the model).
 */
export function taskModelProvider(rt: TaskModelCore, task: Task, ref: string, models: ModelsConfig): ModelProvider {
  const clock = rt.clock;
  const spec = resolveModelRef(ref, models, (name) => {
    const value = rt.secrets?.get(name);
    // Another process may have stored it: make sure this one redacts it too (never traced in clear).
    if (value !== undefined && value.length >= 4) rt.redactor.add(name, value);
    return value;
  });
  return meteredTaskProvider(rt, task, createProvider(spec, clock), models);
}

/** `model` as a task's calls go through it: each call a priced `model.call` trace event, every request redacted. */
export function meteredTaskProvider(rt: TaskModelCore, task: Task, model: ModelProvider, models: ModelsConfig): ModelProvider {
  const metered = new MeteredProvider(model, {
    clock: rt.clock,
    prices: models.prices,
    // With the step the call leads to, in one commit (at most the run's lazy-write delay late).
    onCall: (call) => rt.engine.writeWithRun(task.id, (tx) => rt.trace.append(task.id, 'model.call', { ...call }, undefined, tx.trace)),
  });
  // With telemetry on, each call is a `chat` span under the task's span (it sees the redacted request).
  const traced = rt.telemetry ? new TracedProvider(metered, rt.telemetry, task.id, rt.redactor, rt.clock) : metered;
  // Whatever the model is shown (tool results, goal, project context) passes the redactor.
  return new RedactingProvider(traced, rt.redactor);
}
