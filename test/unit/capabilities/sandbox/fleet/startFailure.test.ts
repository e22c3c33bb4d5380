import { describe, expect, it } from 'vitest';
import { startFailure } from '../../../../../electron/capabilities/sandbox/fleet/desktopFleet.js';
import { AgentDeskError } from '../../../../../electron/runtime/errors.js';
import { ToolError } from '../../../../../electron/runtime/tools/types.js';

/** A dockerode error as the engine answers it. */
const engineError = (statusCode: number, message: string) => Object.assign(new Error(message), { statusCode });

describe('a desktop that did not start on an engine that still answers', () => {
  it('is retryable when the engine failed on its side (a 5xx, as while it shuts down): nothing ran in it', () => {
    const error = startFailure('b', engineError(500, '(HTTP code 500) server error - grpc: the client connection is closing'));
    expect(error).toBeInstanceOf(ToolError);
    expect(error).toMatchObject({ retryable: true, code: 'desktop_unavailable' });
    expect((error as Error).message).toMatch(/^no desktop could start on host b: .*client connection is closing/);
  });

  it('is retryable when it was slow to come up', () => {
    expect(startFailure('a', new AgentDeskError('unavailable', 'did not become ready'))).toMatchObject({ retryable: true });
  });

  it('stays what it was when the engine refused it (bad options, an unknown runtime)', () => {
    const refused = engineError(400, 'invalid option');
    expect(startFailure('a', refused)).toBe(refused);
    const runtime = new AgentDeskError('invalid_request', 'the engine has no runtime runsc');
    expect(startFailure('a', runtime)).toBe(runtime);
  });
});
