import type { Command } from 'commander';
import { FileSecretStore } from '../../capabilities/secrets/fileSecretStore.js';
import { loadConfig, resolveHome } from '../../runtime/config.js';
import { openSqlDatabase, redactedUrl, storeTarget, type StoreTarget } from '../../runtime/store/sql/openSqlDatabase.js';
import { Redactor } from '../../runtime/trace/redactor.js';
import { printJson, reportError } from '../output.js';

/** Where the store is, as printed: the file, or the URL without its password. */
const whereOf = (target: StoreTarget) => (target.kind === 'sqlite' ? target.file : redactedUrl(target.url));

/** `agent-desk db migrate`: brings the configured store's database (SQLite or PostgreSQL) to this build's schema. */
export function registerDb(program: Command): void {
  const db = program.command('db').description("the store's database (config.json `store`, or AGENT_DESK_DATABASE_URL)");
  db.command('migrate')
    .description('create or upgrade the schema of the configured database (SQLite file or PostgreSQL); safe to repeat')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      try {
        const home = resolveHome();
        const target = storeTarget(home, loadConfig(home).store, new FileSecretStore(home));
        const { db: opened, migration } = await openSqlDatabase(target, new Redactor());
        await opened.close();
        const report = { store: { kind: target.kind, where: whereOf(target) }, ...migration };
        if (opts.json) return printJson(report);
        const applied = migration.applied.length ? `applied ${migration.applied.map((v) => `v${v}`).join(', ')}` : 'already up to date';
        console.log(`${target.kind} store at ${report.store.where}: schema v${migration.schema} (${applied})`);
      } catch (error) {
        process.exitCode = reportError(error, Boolean(opts.json));
      }
    });
}
