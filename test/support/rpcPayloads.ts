/** Generators of malformed RPC payloads, shared by the transport and runtime fuzz tests. */
import fc from 'fast-check';
import { Methods, RpcRequestSchema, type MethodName } from '../../electron/contract/index.js';

const METHOD_NAMES = Object.keys(Methods) as MethodName[];
const anyId = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.object());
const anyMethod = fc.oneof(fc.constantFrom(...METHOD_NAMES), fc.string(), fc.integer(), fc.constant(null));

/** Payloads as they go on the wire: text that may or may not be JSON, of frames that are mostly wrong. */
export const payloadArb: fc.Arbitrary<string> = fc.oneof(
  // arbitrary text, usually not JSON at all
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  // any JSON value (undefined encodes as no value, so send its text)
  fc.anything().map((v) => JSON.stringify(v) ?? 'undefined'),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  // frames with fields of the wrong type, or missing
  fc
    .record(
      { id: anyId, method: anyMethod, params: fc.anything(), idempotencyKey: fc.oneof(fc.string(), fc.integer()) },
      { requiredKeys: [] },
    )
    .map((frame) => JSON.stringify(frame)),
  // well-formed frames calling unknown methods
  fc
    .record({ id: fc.oneof(fc.string({ maxLength: 30 }), fc.integer()), method: fc.string({ minLength: 1 }) })
    .map((f) => JSON.stringify(f)),
  // valid methods with random params
  fc
    .record(
      {
        id: fc.oneof(fc.string({ maxLength: 30 }), fc.integer()),
        method: fc.constantFrom(...METHOD_NAMES),
        params: fc.oneof(fc.anything(), fc.jsonValue(), fc.record({ taskId: fc.anything() }), fc.constant(undefined)),
        idempotencyKey: fc.string({ minLength: 1, maxLength: 10 }),
      },
      { requiredKeys: ['id', 'method'] },
    )
    .map((frame) => JSON.stringify(frame)),
);

/** The id the server must echo: the frame's own when it is a string or number, else null. */
export function expectedId(text: string): string | number | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const id = (parsed as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** True when the frame is a valid call of a method the harness handles, with valid params. */
export function couldSucceed(text: string, handled: readonly string[]): boolean {
  try {
    const request = RpcRequestSchema.safeParse(JSON.parse(text));
    if (!request.success || !handled.includes(request.data.method)) return false;
    return Methods[request.data.method as MethodName].params.safeParse(request.data.params).success;
  } catch {
    return false;
  }
}
