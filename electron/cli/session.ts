import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** A person's sign-in kept by `agent-desk login` in `<home>/session.json` (mode 0600). */
export const SessionFileSchema = z.object({
  /** The gateway's HTTP address, e.g. `http://127.0.0.1:7717`. */
  gateway: z.string().url(),
  /** Its RPC address (`ws://…/rpc`). */
  rpc: z.string().url(),
  token: z.string().min(1),
  subject: z.string(),
  name: z.string(),
  roles: z.array(z.string()),
});
/** A kept sign-in. */
export type SessionFile = z.infer<typeof SessionFileSchema>;

const sessionPath = (home: string): string => path.join(home, 'session.json');

/** The kept sign-in, or undefined when there is none (or it does not parse: sign in again). */
export function readSession(home: string): SessionFile | undefined {
  try {
    const parsed = SessionFileSchema.safeParse(JSON.parse(readFileSync(sessionPath(home), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps a sign-in readable by its owner only. */
export function writeSession(home: string, session: SessionFile): void {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  writeFileSync(sessionPath(home), JSON.stringify(session, null, 2), { mode: 0o600 });
  chmodSync(sessionPath(home), 0o600);
}

/** Forgets the sign-in; true when there was one. */
export function removeSession(home: string): boolean {
  const had = readSession(home) !== undefined;
  rmSync(sessionPath(home), { force: true });
  return had;
}
