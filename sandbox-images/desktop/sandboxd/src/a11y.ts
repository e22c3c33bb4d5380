import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { A11yTreeSchema, type A11yTree } from '../../../../electron/contract/sandboxProtocol.js';

// The reader is Python (GObject introspection speaks D-Bus and knows AT-SPI's role and state
// names); one process lives as long as sandboxd, so a tree costs its D-Bus round trips only.
const HERE = path.dirname(fileURLToPath(import.meta.url));
const SCRIPT = process.env.SANDBOXD_ATSPI ?? path.resolve(HERE, '../../../../../atspi/tree.py');
const CALL_MS = 15_000;

interface Pending {
  resolve: (tree: A11yTree) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

let reader: ChildProcessWithoutNullStreams | undefined;
let nextId = 1;
const pending = new Map<number, Pending>();

function failAll(error: Error): void {
  for (const [id, p] of pending) {
    clearTimeout(p.timer);
    p.reject(error);
    pending.delete(id);
  }
}

function start(): ChildProcessWithoutNullStreams {
  if (reader && reader.exitCode === null) return reader;
  const child = spawn('python3', [SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString('utf8')).slice(-2_000)));
  child.on('error', (error) => failAll(new Error(`the accessibility reader did not start: ${error.message}`)));
  child.on('exit', (code) => {
    if (reader === child) reader = undefined;
    failAll(new Error(`the accessibility reader exited (${code}): ${stderr.trim()}`));
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    const reply = JSON.parse(line) as { id: number; result?: unknown; error?: string };
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    clearTimeout(p.timer);
    if (reply.error !== undefined) p.reject(new Error(`accessibility tree: ${reply.error}`));
    else p.resolve(A11yTreeSchema.parse(reply.result));
  });
  reader = child;
  return child;
}

/** a11y.tree: every application's showing accessible objects with their screen bounds. */
export function readTree(p: { values: boolean }): Promise<A11yTree> {
  const child = start();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error(`the accessibility tree took longer than ${CALL_MS} ms`));
    }, CALL_MS);
    pending.set(id, { resolve, reject, timer });
    child.stdin.write(JSON.stringify({ id, values: p.values }) + '\n');
  });
}
