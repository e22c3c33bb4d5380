import * as semconv from '@opentelemetry/semantic-conventions/incubating';
import { describe, expect, it } from 'vitest';
import { GEN_AI, GEN_AI_OPERATION } from '../../../../../electron/runtime/trace/telemetry/genAiAttributes.js';

/** `usageInputTokens` → `ATTR_GEN_AI_USAGE_INPUT_TOKENS`. */
const constantName = (key: string): string => `ATTR_GEN_AI_${key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;

describe('GenAI attribute names', () => {
  it('each name the runtime spells is the semantic conventions’ own', () => {
    const spelled = Object.entries(GEN_AI).map(([key, name]) => [key, name, (semconv as Record<string, unknown>)[constantName(key)]]);
    expect(spelled.filter(([, name, official]) => name !== official)).toEqual([]);
  });

  it('operation names are the conventions’ values', () => {
    expect(GEN_AI_OPERATION).toEqual({
      invokeAgent: semconv.GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
      chat: semconv.GEN_AI_OPERATION_NAME_VALUE_CHAT,
      executeTool: semconv.GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
    });
  });
});
