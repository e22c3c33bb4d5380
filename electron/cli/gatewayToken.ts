import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** What `serve` announces in `<home>/gateway.json` (mode 0600). */
export interface GatewayFile {
  url?: string;
  httpUrl?: string;
  token: string;
  pid?: number;
}

/** The gateway file of a data folder. */
export const gatewayFilePath = (home: string): string => path.join(home, 'gateway.json');

/** gateway.json as written last, or undefined when it is missing or unreadable. */
export function readGatewayFile(home: string): GatewayFile | undefined {
  try {
    const parsed = JSON.parse(readFileSync(gatewayFilePath(home), 'utf8')) as Partial<GatewayFile>;
    return typeof parsed.token === 'string' && parsed.token.length > 0 ? (parsed as GatewayFile) : undefined;
  } catch {
    return undefined;
  }
}

/** Writes gateway.json readable by its owner only. */
export function writeGatewayFile(home: string, info: GatewayFile): void {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const file = gatewayFilePath(home);
  writeFileSync(file, JSON.stringify(info, null, 2), { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** A fresh random bearer token. */
export const newGatewayToken = (): string => randomBytes(24).toString('base64url');

/**
 * The token `serve` listens with: the one given, else AGENT_DESK_TOKEN, else the one kept in
 * gateway.json, so an open web UI and saved links keep working across restarts until
 * `agent-desk tokens rotate`.
 */
export function gatewayTokenFor(home: string, given: string | undefined): string {
  return given ?? process.env.AGENT_DESK_TOKEN ?? readGatewayFile(home)?.token ?? newGatewayToken();
}
