#!/usr/bin/env node
// Writes schema/<kind>.schema.json from the zod schemas, the one source (`npm run schema`).
// It reads the compiled contract in dist/, so `tsc -b` runs first; a unit test fails when the
// checked-in files differ from what the schemas generate.
import { mkdirSync, writeFileSync } from 'node:fs';

const root = new URL('..', import.meta.url);
const generator = new URL('dist/electron/runtime/configFiles/jsonSchemas.js', root);
const { CONFIG_FILE_KINDS, schemaFileName, schemaFileText } = await import(generator.href);

const folder = new URL('schema/', root);
mkdirSync(folder, { recursive: true });
for (const kind of CONFIG_FILE_KINDS) {
  const file = new URL(schemaFileName(kind), folder);
  writeFileSync(file, schemaFileText(kind));
  console.log(`wrote ${file.pathname}`);
}
