import { describe, expect, it } from 'vitest';
import { RouteSchema } from '../../../../electron/contract/index.js';
import { builtinTools } from '../../../../electron/runtime/tools/builtin/index.js';
import { ToolRegistry } from '../../../../electron/runtime/tools/registry.js';
import { describeRoute, ToolRouter } from '../../../../electron/runtime/tools/router.js';

const writeArgs = { path: 'a.txt', content: 'x' };
const router = () => {
  const registry = new ToolRegistry();
  for (const tool of builtinTools()) registry.register(tool);
  return new ToolRouter(registry);
};

describe('route reasons travel as a code with parameters', () => {
  it('a tool named in the plan: route.namedInPlan next to the English text', async () => {
    const plan = await router().plan({ tool: 'fs.write', args: writeArgs });
    const route = RouteSchema.parse(describeRoute(plan.candidates[0]!, plan.skipped));
    expect(route).toMatchObject({ reason: 'named in plan', reasonText: { code: 'route.namedInPlan', params: {} } });
  });

  it('a capability: route.highestTier with the capability as a parameter', async () => {
    const plan = await router().plan({ capability: 'file.write', args: writeArgs });
    expect(plan.candidates[0]).toMatchObject({
      reason: 'highest available tier for file.write',
      reasonText: { code: 'route.highestTier', params: { capability: 'file.write' } },
    });
  });
});
