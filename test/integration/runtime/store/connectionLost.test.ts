import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../../../electron/runtime/store/migrate.js';
import { PostgresDatabase } from '../../../../electron/runtime/store/sql/postgresAdapter.js';
import { pollUntil } from '../../../support/poll.js';
import { createTestDatabase, type TestDatabase } from '../../../support/postgres.js';
import { missing } from '../../../support/requirements.js';
import { createPlaybookTask, openTestRuntime, waitForState, type TestRuntime } from '../../../support/runtime.js';
import { testTool } from '../../../support/testTools.js';

/** A TCP hop to PostgreSQL the test can cut (every connection dropped, new ones refused) and mend. */
class Partition {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async mend(): Promise<void> {
    if (this.server?.listening) return;
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  async cut(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server!.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }
}

const PLAYBOOK = `name: look-then-charge
steps:
  - id: look
    tool: look
    args: {}
  - id: charge
    tool: charge
    args: { key: card-1 }
`;

let h: TestRuntime | undefined;
let database: TestDatabase | undefined;
let partition: Partition | undefined;
afterEach(async () => {
  await partition?.mend().catch(() => undefined);
  await h?.cleanup();
  await database?.drop();
  h = database = partition = undefined;
});

describe('PostgreSQL lost mid-task', () => {
  const absent = missing('postgres');
  if (absent) return void it.skipIf(absent !== undefined)(`needs postgres: ${absent}`, () => undefined);

  it('the run stops with nothing half-written, the worker claims nothing meanwhile, and once the store answers the task finishes with its effect once', async () => {
    database = await createTestDatabase();
    const direct = new URL(database.url);
    const migrator = new PostgresDatabase({ url: database.url });
    await migrateDatabase(migrator);
    await migrator.close();
    partition = new Partition({ host: direct.hostname, port: Number(direct.port || 5432) });
    await partition.mend();
    const proxied = new URL(database.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(partition.port);

    let looked!: () => void;
    const looking = new Promise<void>((r) => (looked = r));
    let lookCalls = 0;
    let charges = 0;
    const look = testTool({
      name: 'look',
      risk: 'read',
      readOnly: true,
      idempotent: true,
      run: async () => (lookCalls++, await looking, 'seen'),
    });
    const charge = testTool({ name: 'charge', risk: 'write', run: async () => (charges++, { charged: true }) });
    h = openTestRuntime({ tools: [look, charge], leaseMs: 600, storeTarget: { kind: 'postgres', url: proxied.href } });
    const task = await createPlaybookTask(h.rt, PLAYBOOK);
    const run = h.rt.engine.run(task.id);
    await pollUntil('the look to start', () => (lookCalls === 1 ? true : undefined));

    await partition.cut();
    looked();
    const stopped = await run.then(
      () => 'ended',
      (error: unknown) => (error as Error).message,
    );
    expect(stopped).not.toBe('ended');
    await pollUntil('the heartbeat to fail', () => (h!.rt.lease.healthy() ? undefined : true));
    expect(await h.rt.engine.recoverOrphans()).toEqual([]); // claims nothing while the store is away

    await partition.mend();
    await pollUntil('the heartbeat back', () => (h!.rt.lease.healthy() ? true : undefined), { timeoutMs: 10_000 });
    const before = await h.rt.engine.get(task.id);
    expect(before.state).toBe('running'); // not failed: the loss was the connection's, not the task's
    expect(await h.rt.engine.recoverOrphans()).toEqual([task.id]);
    const done = await waitForState(h.rt, task.id, ['succeeded', 'failed', 'waiting_user', 'paused']);
    expect(done.state).toBe('succeeded');
    expect(charges).toBe(1);
    expect(lookCalls).toBe(2); // the read whose result never landed is read again
    expect((await h.rt.engine.steps(task.id)).map((s) => `${s.tool}:${s.status}`)).toEqual(['look:completed', 'charge:completed']);
  });
});
