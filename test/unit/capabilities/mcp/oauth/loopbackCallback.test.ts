import { afterEach, describe, expect, it } from 'vitest';
import { LoopbackCallback, loopbackAddressOf } from '../../../../../electron/capabilities/mcp/oauth/loopbackCallback.js';

let listener: LoopbackCallback | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

describe('the loopback OAuth redirect listener', () => {
  it('takes the one response carrying the expected state; forged, stateless and replayed ones are refused', async () => {
    listener = await LoopbackCallback.listen(loopbackAddressOf(undefined));
    expect(listener.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    listener.expect('our-state');
    const code = listener.waitForCode(60_000);
    expect((await fetch(`${listener.redirectUrl}?code=theirs&state=forged`)).status).toBe(400);
    expect((await fetch(`${listener.redirectUrl}?code=theirs`)).status).toBe(400);
    expect((await fetch(listener.redirectUrl.replace('/callback', '/other?code=x&state=our-state'))).status).toBe(404);
    const ok = await fetch(`${listener.redirectUrl}?code=ours&state=our-state`);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('Agent Desk is authorized');
    await expect(code).resolves.toBe('ours');
    // The same link again (a replay) finds nothing waiting.
    expect((await fetch(`${listener.redirectUrl}?code=ours&state=our-state`)).status).toBe(400);
  });

  it("an error response ends the wait with the server's reason", async () => {
    listener = await LoopbackCallback.listen(loopbackAddressOf(undefined));
    listener.expect('s1');
    const outcome = listener.waitForCode(60_000).catch((error: Error) => error);
    const refused = await fetch(`${listener.redirectUrl}?error=access_denied&error_description=the%20user%20said%20no&state=s1`);
    expect(refused.status).toBe(400);
    expect(await outcome).toMatchObject({
      code: 'forbidden',
      message: 'the authorization server refused: access_denied (the user said no)',
    });
  });

  it('listens where a configured redirect URI says; a port already taken is a clear error', async () => {
    listener = await LoopbackCallback.listen(loopbackAddressOf(undefined));
    const port = Number(new URL(listener.redirectUrl).port);
    await expect(LoopbackCallback.listen(loopbackAddressOf(`http://localhost:${port}/oauth/back`))).rejects.toThrow(
      `cannot listen for the OAuth redirect on localhost:${port}: EADDRINUSE (another program holds the port of the configured redirectUri)`,
    );
    await listener.close();
    listener = await LoopbackCallback.listen(loopbackAddressOf(`http://localhost:${port}/oauth/back`));
    expect(listener.redirectUrl).toBe(`http://localhost:${port}/oauth/back`);
  });
});
