import { describe, expect, it } from 'vitest';
import { thrown } from '../../../../support/errors.js';
import { findReferences, resolveTemplates, type TemplateScope } from '../../../../../electron/runtime/planning/playbook/template.js';

const scope: TemplateScope = {
  inputs: { city: 'Oslo', count: 3 },
  steps: { fetch: { output: { status: 200, items: [{ name: 'a' }, { name: 'b' }], meta: { page: 1 } } } },
  services: { api: { url: 'http://127.0.0.1:4100' } },
  workspace: '/tmp/ws',
  task: { id: 'T1' },
};

describe('resolveTemplates', () => {
  it('a string that is exactly one reference keeps the value type', () => {
    expect(resolveTemplates('${inputs.count}', scope)).toBe(3);
    expect(resolveTemplates('${steps.fetch.output.meta}', scope)).toEqual({ page: 1 });
    expect(resolveTemplates('${steps.fetch.output.items[1].name}', scope)).toBe('b');
  });

  it('interpolates references inside text, objects as JSON', () => {
    expect(resolveTemplates('${services.api.url}/weather?city=${inputs.city}', scope)).toBe('http://127.0.0.1:4100/weather?city=Oslo');
    expect(resolveTemplates('meta=${steps.fetch.output.meta} n=${inputs.count}', scope)).toBe('meta={"page":1} n=3');
    expect(resolveTemplates('${workspace}/out-${task.id}.csv', scope)).toBe('/tmp/ws/out-T1.csv');
  });

  it('walks objects and arrays and leaves other values alone', () => {
    const args = { path: '${workspace}/a.txt', list: ['${inputs.count}', 7, true, null], nested: { n: '${inputs.count}' } };
    expect(resolveTemplates(args, scope)).toEqual({ path: '/tmp/ws/a.txt', list: [3, 7, true, null], nested: { n: 3 } });
  });

  it('$${ escapes a literal ${', () => {
    expect(resolveTemplates('cost: $${inputs.city} and ${inputs.city}', scope)).toBe('cost: ${inputs.city} and Oslo');
    expect(resolveTemplates('$${inputs.count}', scope)).toBe('${inputs.count}');
  });

  it('copies referenced objects so changing the args cannot change a recorded output', () => {
    const meta = resolveTemplates('${steps.fetch.output.meta}', scope) as { page: number };
    meta.page = 99;
    expect(scope.steps.fetch?.output).toMatchObject({ meta: { page: 1 } });
  });

  it('an unresolvable reference throws invalid_params naming it', () => {
    const error = thrown(() => resolveTemplates({ url: 'x/${steps.fetch.output.nope}' }, scope));
    expect(error.code).toBe('invalid_params');
    expect(error.message).toBe('unresolved reference ${steps.fetch.output.nope}');
    expect(error.details).toMatchObject({ reference: '${steps.fetch.output.nope}', at: 'url' });
  });

  it('does not resolve inherited properties, out-of-range indexes or unknown roots', () => {
    expect(() => resolveTemplates('${inputs.constructor}', scope)).toThrow(/unresolved reference/);
    expect(() => resolveTemplates('${steps.fetch.output.items[5]}', scope)).toThrow(/unresolved reference/);
    expect(thrown(() => resolveTemplates('${env.HOME}', scope)).details).toMatchObject({
      reason: 'unknown reference root "env"',
    });
  });
});

describe('findReferences', () => {
  it('lists references with root, id, path and location', () => {
    const refs = findReferences({ url: '${services.api.url}/x', rows: ['${steps.fetch.output.items[0].name}'] });
    expect(refs).toEqual([
      { root: 'services', id: 'api', path: ['url'], raw: '${services.api.url}', at: ['url'] },
      {
        root: 'steps',
        id: 'fetch',
        path: ['output', 'items', 0, 'name'],
        raw: '${steps.fetch.output.items[0].name}',
        at: ['rows', 0],
      },
    ]);
  });

  it('ignores escaped references and flags malformed ones', () => {
    expect(findReferences('$${inputs.x}')).toEqual([]);
    expect(findReferences('${inputs..x}')[0]?.error).toBeDefined();
    expect(findReferences('open ${inputs.x')[0]?.error).toBe('missing closing }');
    expect(findReferences('${workspace}')[0]).toMatchObject({ root: 'workspace', path: [] });
  });
});
