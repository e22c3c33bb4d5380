import { describe, expect, it } from 'vitest';
import { AcceptanceCheckSchema } from '../../../electron/contract/index.js';
import { CHECK_FIELDS, CHECK_TYPES, DraftError, fromCheck, newDraft, toCheck } from '../../../renderer/src/features/tasks/checkDrafts.js';

describe('acceptance-check drafts (new task editor)', () => {
  it('offers every check type of the contract, each field a real field of that type', () => {
    const contractTypes = AcceptanceCheckSchema.options.map((o) => o.shape.type.value).sort();
    expect([...CHECK_TYPES].sort()).toEqual(contractTypes);
  });

  it('filled drafts of every type become checks the contract accepts', () => {
    const filled: Record<string, Record<string, string>> = {
      file_exists: { path: 'out/report.csv', exists: 'false' },
      file_sha256: { path: 'a.bin', sha256: 'a'.repeat(64) },
      file_contains: { path: 'log.txt', text: 'started', pattern: '' },
      http_status: { url: 'http://127.0.0.1:8080/health', status: '204' },
      json_path: { url: '', file: 'data.json', path: '$.count', equals: '3' },
      command_exit: { command: 'test\n-s\n  hello.txt  \n', exitCode: '0' },
    };
    for (const type of CHECK_TYPES) {
      const draft = { ...newDraft(type), name: type === 'file_exists' ? ' report written ' : '', values: filled[type] ?? {} };
      const check = toCheck(draft);
      expect(AcceptanceCheckSchema.safeParse(check).success, type).toBe(true);
    }
    expect(toCheck({ ...newDraft('file_exists'), name: ' report written ', values: filled.file_exists ?? {} })).toEqual({
      type: 'file_exists',
      name: 'report written',
      path: 'out/report.csv',
      exists: false,
    });
    expect(toCheck({ ...newDraft('command_exit'), values: filled.command_exit ?? {} })).toEqual({
      type: 'command_exit',
      command: ['test', '-s', 'hello.txt'],
      exitCode: 0,
    });
    expect(toCheck({ ...newDraft('json_path'), values: filled.json_path ?? {} })).toMatchObject({ file: 'data.json', equals: 3 });
  });

  it('a new file_exists draft means "exists"; empty optional fields are left to the runtime defaults', () => {
    expect(newDraft('file_exists').values).toEqual({ path: '', exists: 'true' });
    expect(toCheck({ ...newDraft('http_status'), values: { url: 'http://x', status: '' } })).toEqual({
      type: 'http_status',
      url: 'http://x',
    });
    expect(CHECK_FIELDS.file_contains.map((f) => f.key)).toEqual(['path', 'text', 'pattern']);
  });

  it('bad drafts name the field and the reason', () => {
    const cases: [ReturnType<typeof newDraft>, string, string][] = [
      [newDraft('file_exists'), 'path', 'required'],
      [{ ...newDraft('http_status'), values: { url: 'http://x', status: 'two hundred' } }, 'status', 'number'],
      [{ ...newDraft('json_path'), values: { file: 'a.json', path: '$.a', equals: '{oops' } }, 'equals', 'json'],
    ];
    for (const [draft, field, reason] of cases) {
      expect(() => toCheck(draft)).toThrow(DraftError);
      expect(() => toCheck(draft)).toThrow(expect.objectContaining({ field, reason }));
    }
  });
});

describe('reviewing a proposal', () => {
  it('a proposed check opens as a draft and comes back unchanged, hidden fields included', () => {
    const proposed = [
      { type: 'http_status', name: 'health', url: 'http://127.0.0.1:9/health', method: 'HEAD', status: [200, 204], timeoutMs: 5000 },
      { type: 'command_exit', command: ['test', '-s', 'out.txt'], cwd: 'sub', exitCode: 0, timeoutMs: 30000, sandbox: true },
      { type: 'json_path', file: 'data.json', path: '$.items.length', equals: { n: 2 }, timeoutMs: 10000 },
      { type: 'file_exists', path: 'gone.txt', exists: false },
    ].map((c) => AcceptanceCheckSchema.parse(c));
    for (const check of proposed) expect(toCheck(fromCheck(check))).toEqual(check);
  });
});
