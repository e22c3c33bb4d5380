import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import { schemaFileName, type ConfigFileKind } from '../../electron/runtime/configFiles/jsonSchemas.js';
import { REPO_ROOT } from './cliSandbox.js';

// ajv-formats is CommonJS: its plugin is the module itself or its `default`, depending on the loader.
const loadedFormats = addFormatsModule as unknown as FormatsPlugin | { default: FormatsPlugin };
const addFormats: FormatsPlugin = 'default' in loadedFormats ? loadedFormats.default : loadedFormats;

/** The checked-in `schema/<kind>.schema.json`, as an editor would load it. */
export const shippedSchema = (kind: ConfigFileKind): Record<string, unknown> =>
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'schema', schemaFileName(kind)), 'utf8')) as Record<string, unknown>;

/**
 * A real JSON Schema validator (ajv, strict mode: an unknown keyword in the schema itself is an
 * error) over the shipped schema file; returns `instancePath: message` per problem, empty = valid.
 */
export function shippedSchemaValidator(kind: ConfigFileKind): (data: unknown) => string[] {
  const cached = validators.get(kind);
  if (cached) return cached;
  const made = compile(kind);
  validators.set(kind, made);
  return made;
}

const validators = new Map<ConfigFileKind, (data: unknown) => string[]>();

function compile(kind: ConfigFileKind): (data: unknown) => string[] {
  const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  const validate: ValidateFunction = ajv.compile(shippedSchema(kind));
  return (data) => {
    if (validate(data)) return [];
    return (validate.errors ?? []).map((e) => {
      const extra =
        e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : '';
      return `${e.instancePath || '(root)'}: ${e.message ?? e.keyword}${extra}`;
    });
  };
}
