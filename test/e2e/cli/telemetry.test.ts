import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CliSandbox, examplePlaybook, explain, REPO_ROOT, useLocalModel } from '../../support/cliSandbox.js';
import { ModelServer, type ReceivedRequest } from '../../support/modelServer.js';
import { OtlpReceiver, type ReceivedSpan } from '../../support/otlpReceiver.js';
import { pollUntil } from '../../support/poll.js';
import { RecordingServer } from '../../support/recordingServer.js';
import { startServe, waitForTaskState } from '../../support/serveProcess.js';

const MODEL_KEY = 'sk-otel-5d7f9b1c3e5a7c9e1b3d';
const TOKEN = 'tok_otel_4Hq8Wz2Lm6Rt0Yp3Vc7';
/** Words only the goal holds: they reach the receiver only when content capture is on. */
const PROMPT_WORDS = 'ultramarine-heron-417';

let models: ModelServer;
let api: RecordingServer;
let receiver: OtlpReceiver;
let otlpUrl: string;
let cli: CliSandbox;
const printed: string[] = [];

beforeAll(async () => {
  models = await new ModelServer().start();
  // The API answers with the header it got: the tool's result holds the secret value.
  api = new RecordingServer((req) => ({ login: 'octo', echoed: req.headers.authorization }));
  await api.start();
  receiver = new OtlpReceiver();
  otlpUrl = await receiver.start();
});
afterAll(async () => Promise.all([models.close(), api.close(), receiver.close()]));
beforeEach(async () => {
  cli = new CliSandbox();
  printed.length = 0;
  models.requests.length = 0;
  receiver.requests.length = 0;
  await useLocalModel(cli, models.url, MODEL_KEY);
});
afterEach(async () => cli.cleanup());

async function agentDesk(args: string[], env: NodeJS.ProcessEnv = {}, stdin?: string) {
  const child = cli.spawn(args, env);
  if (stdin !== undefined) child.write(stdin);
  child.child.stdin?.end();
  const result = await child.finished(60_000);
  printed.push(result.stdout, result.stderr);
  return result;
}

function writeConfig(extra: Record<string, unknown>): void {
  writeFileSync(
    path.join(cli.home, 'config.json'),
    JSON.stringify({
      models: {
        providers: { local: { kind: 'openai-chat', baseUrl: models.url, apiKeySecret: 'local-key' } },
        defaultModel: 'local:gpt-test',
      },
      policy: { networkAllow: ['127.0.0.1:*'] },
      ...extra,
    }),
  );
}

/** The text of the request's first user message (the goal). */
function goalOf(request: ReceivedRequest): string {
  const messages = request.body.messages as { role: string; content: unknown }[];
  return JSON.stringify(messages.find((m) => m.role === 'user')?.content ?? '');
}

/** A model that reads the URL in its goal and calls it with the secret reference, then finishes. */
function scriptFetchThenFinish(): void {
  models.script(
    'chat',
    (request) => {
      const url = /http:\/\/127\.0\.0\.1:\d+\/user/.exec(goalOf(request))?.[0];
      if (!url) return { text: 'I found no URL in the goal.' };
      return {
        toolCalls: [{ name: 'http_request', arguments: { url, headers: { authorization: 'token ${secret:gh}' } } }],
        usage: { input: 700, output: 40 },
      };
    },
    { text: 'You are octo.', usage: { input: 900, output: 12 } },
  );
}

async function runGoal(env: NodeJS.ProcessEnv, moreGoal = '') {
  const host = `127.0.0.1:${api.port}`;
  const set = await agentDesk(['secrets', 'set', 'gh', '--host', host], {}, TOKEN);
  expect(set.code, explain(set)).toBe(0);
  scriptFetchThenFinish();
  const checks = path.join(cli.home, 'checks.json');
  writeFileSync(checks, JSON.stringify([{ type: 'file_exists', name: 'no stray file', path: 'nothing.txt', exists: false }]));
  const goal = `Who am I on http://${host}/user ? Use \${secret:gh}. Codeword ${PROMPT_WORDS}.${moreGoal}`;
  const run = await agentDesk(['run', '--goal', goal, '--checks', checks, '--json'], env);
  expect(run.code, explain(run)).toBe(0);
  return JSON.parse(run.stdout) as { task: { id: string } };
}

const byOperation = (spans: ReceivedSpan[], op: string) => spans.filter((s) => s.attributes['gen_ai.operation.name'] === op);

describe('OpenTelemetry export (OTLP/HTTP JSON to a local receiver)', () => {
  it('a goal run is one trace: invoke_agent with chat and execute_tool children, GenAI attributes, traceparent at the model; no prompt text, no secret', async () => {
    writeConfig({});
    const { task } = await runGoal({ OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl });
    const spans = receiver.spans();

    const [agent, ...otherAgents] = byOperation(spans, 'invoke_agent');
    expect(otherAgents).toEqual([]);
    expect(agent!.name).toBe('invoke_agent agent-desk');
    expect(agent!.parentSpanId).toBeUndefined();
    expect(agent!.attributes).toMatchObject({
      'gen_ai.agent.name': 'agent-desk',
      'gen_ai.conversation.id': task.id,
      'agent_desk.task.kind': 'goal',
      'agent_desk.task.state': 'succeeded',
      'agent_desk.task.resumed': false,
      'gen_ai.usage.input_tokens': 1600,
      'gen_ai.usage.output_tokens': 52,
    });
    expect(agent!.status.code).toBe(1); // OK
    expect(agent!.events.filter((e) => e.name === 'agent_desk.check.result').map((e) => e.attributes)).toEqual([
      expect.objectContaining({ 'agent_desk.check.index': 0, 'agent_desk.check.type': 'file_exists', 'agent_desk.check.passed': true }),
    ]);
    expect(agent!.resource['service.name']).toBe('agent-desk');
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([agent!.traceId]));

    const chats = byOperation(spans, 'chat');
    expect(chats.map((c) => c.name)).toEqual(['chat gpt-test', 'chat gpt-test']);
    for (const chat of chats) {
      expect(chat.parentSpanId).toBe(agent!.spanId);
      expect(chat.kind).toBe(3); // CLIENT
      expect(chat.attributes).toMatchObject({
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-test',
        'gen_ai.response.model': 'gpt-test',
      });
      expect(chat.start >= agent!.start && chat.end <= agent!.end).toBe(true);
    }
    expect(chats.map((c) => [c.attributes['gen_ai.usage.input_tokens'], c.attributes['gen_ai.usage.output_tokens']])).toEqual([
      [700, 40],
      [900, 12],
    ]);

    const [tool, ...otherTools] = byOperation(spans, 'execute_tool');
    expect(otherTools).toEqual([]);
    expect(tool!.name).toBe('execute_tool http.request');
    expect(tool!.parentSpanId).toBe(agent!.spanId);
    expect(tool!.attributes).toMatchObject({
      'gen_ai.tool.name': 'http.request',
      'agent_desk.tool.tier': 'api',
      'agent_desk.policy.effect': 'allow',
      'agent_desk.step.status': 'completed',
    });
    expect(typeof tool!.attributes['gen_ai.tool.call.id']).toBe('string');
    expect(tool!.start >= chats[0]!.end && tool!.end <= chats[1]!.start).toBe(true);

    // Each model request carried the traceparent of its chat span.
    const sent = models.received('chat').map((r) => r.headers.traceparent);
    expect(sent).toEqual(chats.map((c) => `00-${c.traceId}-${c.spanId}-01`));

    const everything = receiver.everything();
    expect(everything).not.toContain('no stray file'); // check names are content
    expect(everything).not.toContain(PROMPT_WORDS);
    expect(everything).not.toContain(TOKEN);
    expect(everything).not.toContain(MODEL_KEY);
    expect(everything).not.toContain('gen_ai.input.messages');
    expect(everything).not.toContain('gen_ai.tool.call.result');
  });

  it('with captureContent the prompt, messages and tool result are exported, the secret still only as [secret:gh]', async () => {
    writeConfig({ telemetry: { otlp: { endpoint: otlpUrl, captureContent: true } } });
    // The user even pastes the raw value into the goal: it is known, so it is redacted there too.
    await runGoal({}, ` My token is ${TOKEN}.`);
    const spans = receiver.spans();
    const [agent] = byOperation(spans, 'invoke_agent');
    expect(String(agent!.attributes['gen_ai.input.messages'])).toContain(PROMPT_WORDS);
    expect(String(agent!.attributes['gen_ai.input.messages'])).toContain('My token is [secret:gh].');
    expect(String(agent!.attributes['gen_ai.output.messages'])).toContain('You are octo.');
    const chats = byOperation(spans, 'chat');
    expect(String(chats[0]!.attributes['gen_ai.input.messages'])).toContain(PROMPT_WORDS);
    // The second request holds the tool's result: the echoed header, redacted.
    expect(String(chats[1]!.attributes['gen_ai.input.messages'])).toContain('token [secret:gh]');
    const [tool] = byOperation(spans, 'execute_tool');
    expect(String(tool!.attributes['gen_ai.tool.call.arguments'])).toContain('${secret:gh}');
    expect(String(tool!.attributes['gen_ai.tool.call.result'])).toContain('[secret:gh]');
    const everything = receiver.everything();
    expect(everything).toContain(PROMPT_WORDS);
    expect(everything).not.toContain(TOKEN);
    expect(everything).not.toContain(MODEL_KEY);
    expect(printed.join('\n')).not.toContain(TOKEN);
  });

  it('content off holds even when the model quotes its goal in its own words (give_up reason): only the kind of failure is exported', async () => {
    writeConfig({});
    // An obedient model: it gives up and repeats the goal it read as its reason.
    models.script('chat', (request) => ({ toolCalls: [{ name: 'give_up', arguments: { reason: `I was asked: ${goalOf(request)}` } }] }));
    const checks = path.join(cli.home, 'checks.json');
    writeFileSync(checks, JSON.stringify([{ type: 'file_exists', path: 'nothing.txt', exists: false }]));
    const run = await agentDesk(['run', '--goal', `Say ${PROMPT_WORDS} back.`, '--checks', checks, '--json'], {
      OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
    });
    expect(run.code, explain(run)).toBe(1);
    expect(run.stdout).toContain(PROMPT_WORDS); // the user is told the whole reason
    const [agent] = byOperation(receiver.spans(), 'invoke_agent');
    expect(agent!.attributes['agent_desk.task.state_reason']).toBe('planner gave up');
    expect(agent!.status).toEqual({ code: 2, message: 'planner gave up' });
    expect(receiver.everything()).not.toContain(PROMPT_WORDS);
  });

  it('a model call the provider rejects is a chat span in error with the SDK error’s kind; its quoted text stays out', async () => {
    writeConfig({});
    models.script('chat', {
      status: 400,
      body: { error: { message: `Unsupported words: ${PROMPT_WORDS}`, type: 'invalid_request_error' } },
    });
    const checks = path.join(cli.home, 'checks.json');
    writeFileSync(checks, JSON.stringify([{ type: 'file_exists', path: 'nothing.txt', exists: false }]));
    const run = await agentDesk(['run', '--goal', 'Do something', '--checks', checks, '--json'], { OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl });
    expect(run.code, explain(run)).toBe(1);
    const [chat] = byOperation(receiver.spans(), 'chat');
    expect(chat!.attributes).toMatchObject({ 'error.type': 'bad_request', 'gen_ai.request.model': 'gpt-test' });
    expect(chat!.status.code).toBe(2);
    const [agent] = byOperation(receiver.spans(), 'invoke_agent');
    expect(chat!.parentSpanId).toBe(agent!.spanId);
    expect(agent!.attributes['agent_desk.task.state']).toBe('failed');
    expect(receiver.everything()).not.toContain(PROMPT_WORDS);
  });

  it('an approval across two processes: the resumed run is a new trace with the same conversation id, requested and approved as step events', async () => {
    writeConfig({});
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl };
    const first = await agentDesk(['run', examplePlaybook('cleanup-old-logs.yaml'), '--json'], env);
    expect(first.code, explain(first)).toBe(3);
    const taskId = (JSON.parse(first.stdout) as { task: { id: string } }).task.id;
    const pending = await agentDesk(['approvals', 'list', '--json']);
    const approvalId = (JSON.parse(pending.stdout) as { approvals: { id: string }[] }).approvals[0]!.id;
    const approve = await agentDesk(['approvals', 'approve', approvalId]);
    expect(approve.code, explain(approve)).toBe(0);
    const resumed = await agentDesk(['run', '--resume', taskId, '--json'], env);
    expect(resumed.code, explain(resumed)).toBe(0);

    const agents = byOperation(receiver.spans(), 'invoke_agent');
    expect(
      agents.map((a) => [
        a.attributes['gen_ai.conversation.id'],
        a.attributes['agent_desk.task.state'],
        a.attributes['agent_desk.task.resumed'],
      ]),
    ).toEqual([
      [taskId, 'waiting_approval', false],
      [taskId, 'succeeded', true],
    ]);
    expect(agents[0]!.traceId).not.toBe(agents[1]!.traceId);
    const deletes = byOperation(receiver.spans(), 'execute_tool').filter((s) => s.attributes['gen_ai.tool.name'] === 'fs.delete');
    expect(deletes.map((d) => [d.traceId, d.attributes['agent_desk.policy.effect'], d.events.map((e) => e.name)])).toEqual([
      [agents[0]!.traceId, 'ask', ['agent_desk.approval.requested']],
      [agents[1]!.traceId, 'ask', ['agent_desk.approval.approved']],
    ]);
    expect(deletes[1]!.attributes['agent_desk.step.status']).toBe('completed');
    expect(agents[1]!.events.filter((e) => e.name === 'agent_desk.check.result')).toHaveLength(2);
  });

  it('serve: a task approved over RPC is exported when it ends; one still waiting when serve stops is exported then, saying so', async () => {
    writeConfig({ telemetry: { otlp: { endpoint: otlpUrl } } });
    const serve = await startServe(cli);
    const client = await serve.connect();
    const playbook = {
      source: readFileSync(examplePlaybook('cleanup-old-logs.yaml'), 'utf8'),
      baseDir: path.join(REPO_ROOT, 'examples', 'playbooks'),
    };
    try {
      const approved = await client.call('tasks.create', { playbook });
      await waitForTaskState(client, approved.id, ['waiting_approval']);
      const [approval] = (await client.call('approvals.list', { status: 'pending', taskId: approved.id })).approvals;
      await client.call('approvals.decide', { approvalId: approval!.id, decision: 'approve', reason: 'old logs may go' });
      await waitForTaskState(client, approved.id, ['succeeded']);
      const ended = await pollUntil('the approved task’s span at the receiver', () =>
        byOperation(receiver.spans(), 'invoke_agent').find((a) => a.attributes['gen_ai.conversation.id'] === approved.id),
      );
      expect(ended.attributes['agent_desk.task.state']).toBe('succeeded');
      const del = byOperation(receiver.spans(), 'execute_tool').find(
        (s) => s.traceId === ended.traceId && s.attributes['gen_ai.tool.name'] === 'fs.delete',
      );
      expect(del!.events.map((e) => [e.name, e.attributes['agent_desk.approval.decided_by'] !== undefined])).toEqual([
        ['agent_desk.approval.requested', false],
        ['agent_desk.approval.approved', true],
      ]);
      expect(receiver.everything()).not.toContain('old logs may go'); // a person's words are content

      const waiting = await client.call('tasks.create', { playbook });
      await waitForTaskState(client, waiting.id, ['waiting_approval']);
    } finally {
      await client.close();
    }
    const stopped = await serve.child.kill('SIGTERM');
    expect(stopped.code, serve.child.describe()).toBe(0);
    const agents = byOperation(receiver.spans(), 'invoke_agent').map((a) => a.attributes['agent_desk.task.state']);
    expect(agents).toEqual(['succeeded', 'waiting_approval']);
  });

  it('a collector key kept in the secret store: config names ${secret:otel}, the receiver gets the value as a header and nowhere else', async () => {
    const OTEL_KEY = 'otel-key-7Hd2Kq9Vx4Lp1Zm6';
    writeConfig({ telemetry: { otlp: { endpoint: otlpUrl, headers: { authorization: 'Bearer ${secret:otel}' } } } });
    const missing = await agentDesk(['run', examplePlaybook('inventory-report.yaml'), '--json']);
    expect(missing.code, explain(missing)).toBe(0);
    expect(missing.stderr).toContain(
      'telemetry: off: telemetry.otlp.headers.authorization names the secret "otel", which is not stored (agent-desk secrets set otel)',
    );
    expect(receiver.requests).toEqual([]);

    const set = await agentDesk(['secrets', 'set', 'otel'], {}, OTEL_KEY);
    expect(set.code, explain(set)).toBe(0);
    const run = await agentDesk(['run', examplePlaybook('inventory-report.yaml'), '--json']);
    expect(run.code, explain(run)).toBe(0);
    expect(receiver.requests.length).toBeGreaterThan(0);
    for (const request of receiver.requests) expect(request.headers.authorization).toBe(`Bearer ${OTEL_KEY}`);
    expect(receiver.requests.map((r) => r.body).join('\n')).not.toContain(OTEL_KEY);
    expect(printed.join('\n')).not.toContain(OTEL_KEY);
  });

  it('an unreachable collector fails nothing: the task succeeds and one line says the spans could not be sent', async () => {
    writeConfig({});
    const closed = new RecordingServer({});
    await closed.start();
    const deadUrl = `http://127.0.0.1:${closed.port}`;
    await closed.close(); // nothing listens there now
    const run = await agentDesk(['run', examplePlaybook('inventory-report.yaml'), '--json'], { OTEL_EXPORTER_OTLP_ENDPOINT: deadUrl });
    expect(run.code, explain(run)).toBe(0);
    const warnings = run.stderr.split('\n').filter((l) => l.startsWith('telemetry:'));
    expect(warnings).toEqual([expect.stringContaining(`spans could not be sent to ${deadUrl}/v1/traces`)]);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  for (const [route, kind, provider] of [
    ['messages', 'anthropic', 'anthropic'],
    ['responses', 'openai-responses', 'openai'],
  ] as const) {
    it(`${kind}: each request carries the traceparent of its chat span`, async () => {
      const baseUrl = route === 'messages' ? models.origin : models.url;
      writeConfig({ models: { providers: { local: { kind, baseUrl, apiKeySecret: 'local-key' } }, defaultModel: 'local:test-model' } });
      models.script(
        route,
        { toolCalls: [{ name: 'fs_write', arguments: { path: 'hello.txt', content: 'hello' } }] },
        { text: 'Wrote it.' },
      );
      const checks = path.join(cli.home, 'checks.json');
      writeFileSync(checks, JSON.stringify([{ type: 'file_contains', path: 'hello.txt', text: 'hello' }]));
      const run = await agentDesk(['run', '--goal', 'Write hello into hello.txt', '--checks', checks, '--json'], {
        OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
      });
      expect(run.code, explain(run)).toBe(0);
      const chats = byOperation(receiver.spans(), 'chat');
      expect(chats.map((c) => c.attributes['gen_ai.provider.name'])).toEqual([provider, provider]);
      expect(models.received(route).map((r) => r.headers.traceparent)).toEqual(chats.map((c) => `00-${c.traceId}-${c.spanId}-01`));
    });
  }

  it('is off by default: no receiver configured, no traceparent sent to the model', async () => {
    writeConfig({});
    await runGoal({});
    expect(receiver.requests).toEqual([]);
    expect(models.received('chat').map((r) => r.headers.traceparent)).toEqual([undefined, undefined]);
  });
});
