import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/**
 * Accepts a WebSocket upgrade and hands every text or binary message the client sends to
 * `onMessage` — a test service's own record of what a page pushed over a socket. Only what a
 * recorder needs of RFC 6455: the handshake and unmasking client frames (no extensions).
 */
export function acceptWebSocket(req: IncomingMessage, socket: Duplex, onMessage: (text: string) => void): void {
  const key = req.headers['sec-websocket-key'];
  if (typeof key !== 'string') return void socket.destroy();
  const accept = createHash('sha1')
    .update(key + GUID)
    .digest('base64');
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
  let pending = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      const frame = readFrame(pending);
      if (!frame) break;
      pending = pending.subarray(frame.length);
      if (frame.opcode === 0x8) return void socket.end();
      if (frame.opcode <= 0x2) onMessage(frame.payload.toString('utf8'));
    }
  });
  socket.on('error', () => undefined);
}

function readFrame(buf: Buffer): { opcode: number; payload: Buffer; length: number } | undefined {
  if (buf.length < 2) return undefined;
  const opcode = buf[0]! & 0x0f;
  const masked = (buf[1]! & 0x80) !== 0;
  let size = buf[1]! & 0x7f;
  let offset = 2;
  if (size === 126) {
    if (buf.length < 4) return undefined;
    size = buf.readUInt16BE(2);
    offset = 4;
  } else if (size === 127) {
    if (buf.length < 10) return undefined;
    size = Number(buf.readBigUInt64BE(2));
    offset = 10;
  }
  const maskBytes = masked ? 4 : 0;
  if (buf.length < offset + maskBytes + size) return undefined;
  const mask = buf.subarray(offset, offset + maskBytes);
  const payload = Buffer.from(buf.subarray(offset + maskBytes, offset + maskBytes + size));
  if (masked) for (let i = 0; i < payload.length; i++) payload[i] = payload[i]! ^ mask[i % 4]!;
  return { opcode, payload, length: offset + maskBytes + size };
}
