/** Encodes a value for a TEXT column holding JSON. */
export const toJson = (value: unknown): string => JSON.stringify(value ?? null);

/** Decodes a JSON TEXT column; NULL stays undefined. */
export function fromJson<T>(text: string | null | undefined): T | undefined {
  return text === null || text === undefined ? undefined : (JSON.parse(text) as T);
}
