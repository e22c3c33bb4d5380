import type { GatewayClient } from '../../../electron/capabilities/transports/wsClient.js';
import type { Approval, Task } from '../../../electron/contract/index.js';
import { pollUntil } from '../../support/poll.js';
import { waitForTaskState } from '../../support/serveProcess.js';

/** A playbook that writes `file`, then deletes it (the delete asks); `checked`: it succeeds only when the file is really gone. */
export function writeThenDelete(name: string, file: string, options: { title?: string; checked?: boolean } = {}): string {
  const title = options.title ? `    title: ${options.title}\n` : '';
  const acceptance = options.checked ? `acceptance:\n  - { type: file_exists, path: ${file}, exists: false }\n` : '';
  return `name: ${name}
steps:
  - id: write
    tool: fs.write
    args: { path: ${file}, content: stale }
  - id: remove
${title}    tool: fs.delete
    args: { path: ${file} }
${acceptance}`;
}

/** The order form of the test pages (`fixtures/pages`): fill the address, then Place order, which asks as a payment. */
export const orderPlaybook = (origin: string, name = 'phone-order') => `name: ${name}
steps:
  - tool: browser.navigate
    args: { url: "${origin}/order-form.html" }
  - tool: browser.fill
    args: { role: textbox, name: Address, value: "12 Quay Street" }
  - tool: browser.click
    args: { role: button, name: Place order }
`;

/** A write, then a delete that asks. */
export const TIDY = writeThenDelete('tidy-log', 'old.log', { title: 'Remove the old log' });
const TIDY_CHECKED = writeThenDelete('tidy-checked', 'done.log', { checked: true });

const CHECK_FAILS = `name: report-missing
steps:
  - id: write
    tool: fs.write
    args: { path: draft.md, content: draft }
acceptance:
  - { type: file_exists, path: report.md }
`;

const STEP_FAILS = `name: read-missing
steps:
  - id: read
    tool: fs.read
    args: { path: nowhere.txt }
`;

/** The pending approval of a task, once it was requested. */
export function pendingApprovalOf(client: GatewayClient, taskId: string): Promise<Approval> {
  return pollUntil(`an approval of task ${taskId}`, async () => {
    const { approvals } = await client.call('approvals.list', { status: 'pending' });
    return approvals.find((a) => a.taskId === taskId);
  });
}

/** One task in every state a conversation can end or wait in, made the way clients make them. */
export interface TaskStates {
  waiting: Task;
  approval: Approval;
  succeeded: Task;
  failedCheck: Task;
  failedStep: Task;
  cancelled: Task;
  denied: Task;
}

/**
 * Creates and settles them: a delete approved with remember "always" (so Grants lists it), a
 * check that fails, a step that fails, a task cancelled while it waits, a denied delete, and one
 * left waiting.
 */
export async function taskInEveryState(client: GatewayClient, waitingTitle: string): Promise<TaskStates> {
  const start = (source: string, title?: string) => client.call('tasks.create', { ...(title && { title }), playbook: { source } });

  const succeeded = await start(TIDY_CHECKED);
  const always = await pendingApprovalOf(client, succeeded.id);
  await client.call('approvals.decide', { approvalId: always.id, decision: 'approve', remember: 'always' });
  const failedCheck = await start(CHECK_FAILS);
  const failedStep = await start(STEP_FAILS);
  const cancelled = await start(TIDY);
  await pendingApprovalOf(client, cancelled.id);
  await client.call('tasks.cancel', { taskId: cancelled.id });
  const denied = await start(TIDY);
  const deny = await pendingApprovalOf(client, denied.id);
  await client.call('approvals.decide', { approvalId: deny.id, decision: 'deny', remember: 'once', reason: 'keep it' });
  const waiting = await start(TIDY, waitingTitle);
  const approval = await pendingApprovalOf(client, waiting.id);
  return {
    waiting,
    approval,
    succeeded: await waitForTaskState(client, succeeded.id, ['succeeded']),
    failedCheck: await waitForTaskState(client, failedCheck.id, ['failed']),
    failedStep: await waitForTaskState(client, failedStep.id, ['failed']),
    cancelled: await waitForTaskState(client, cancelled.id, ['cancelled']),
    denied: await waitForTaskState(client, denied.id, ['failed']),
  };
}
