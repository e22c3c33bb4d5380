import { afterEach, describe, expect, it, vi } from 'vitest';
import { ALL_SCOPES } from '../../../../electron/contract/index.js';
import { openTestRuntime, type TestRuntime } from '../../../support/runtime.js';

const SECRET = 'sk-log-3e5g7i9k1m3o5q7s';

let h: TestRuntime;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.cleanup();
});

describe('the server log', () => {
  it('an unexpected handler error that quotes a known secret is logged redacted and answered generically', async () => {
    h = openTestRuntime({
      modules: () => [
        {
          name: 'failing',
          handlers: {
            'tasks.list': () => {
              throw new Error(`upstream refused Authorization: Bearer ${SECRET}`);
            },
          },
        },
      ],
    });
    h.rt.redactor.add('api-key', SECRET);
    const logged: unknown[][] = [];
    vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => void logged.push(parts));
    const response = await h.rt.dispatcher.dispatch(
      { id: 1, method: 'tasks.list', params: {} },
      { scopes: [...ALL_SCOPES], clientId: 't' },
    );
    expect(response).toMatchObject({ error: { code: 'internal' } });
    const text = JSON.stringify(logged);
    expect(text).toContain('upstream refused Authorization: Bearer [secret:api-key]');
    expect(text).not.toContain(SECRET);
  });
});
