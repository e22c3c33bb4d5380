import type { TestModule } from 'vitest/node';

/** One test file's time in a run: from its worker taking it to its last test's end. */
export interface FileTime {
  file: string;
  project: string;
  ms: number;
  tests: number;
}

/** A project's share of a run: wall time from its first file's start to its last file's end. */
export interface ProjectTime {
  project: string;
  files: number;
  tests: number;
  wallMs: number;
  /** The files' times added up: above the wall time when files ran side by side. */
  fileMs: number;
}

/** Start and end of each file, as the reporter saw them (ms since the epoch). */
export type Spans = ReadonlyMap<string, { start: number; end: number }>;

export function fileTimes(modules: ReadonlyArray<TestModule>, spans: Spans, root: string): FileTime[] {
  return modules.map((m) => {
    const span = spans.get(m.moduleId);
    return {
      file: m.moduleId.startsWith(root) ? m.moduleId.slice(root.length + 1) : m.moduleId,
      project: m.project.name || 'default',
      ms: span ? span.end - span.start : m.diagnostic().duration,
      tests: [...m.children.allTests()].length,
    };
  });
}

export function projectTimes(modules: ReadonlyArray<TestModule>, spans: Spans, files: readonly FileTime[]): ProjectTime[] {
  const byProject = new Map<string, ProjectTime & { start: number; end: number }>();
  modules.forEach((m, i) => {
    const f = files[i]!;
    const span = spans.get(m.moduleId) ?? { start: 0, end: f.ms };
    const p = byProject.get(f.project) ?? { project: f.project, files: 0, tests: 0, wallMs: 0, fileMs: 0, start: Infinity, end: 0 };
    p.files++;
    p.tests += f.tests;
    p.fileMs += f.ms;
    p.start = Math.min(p.start, span.start);
    p.end = Math.max(p.end, span.end);
    byProject.set(f.project, p);
  });
  return [...byProject.values()].map(({ start, end, ...p }) => ({ ...p, wallMs: end - start }));
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The lines printed after a run: each project's time, then the slowest files. */
export function timeLines(projects: readonly ProjectTime[], files: readonly FileTime[], slowest = 20): string[] {
  const lines = ['Time per project (wall; files added up):'];
  for (const p of projects)
    lines.push(
      `  ${p.project.padEnd(12)} ${seconds(p.wallMs).padStart(9)}  ${seconds(p.fileMs).padStart(9)}  ${p.files} files, ${p.tests} tests`,
    );
  lines.push(`Slowest ${Math.min(slowest, files.length)} files:`);
  for (const f of [...files].sort((a, b) => b.ms - a.ms).slice(0, slowest))
    lines.push(`  ${seconds(f.ms).padStart(9)}  ${f.project.padEnd(12)} ${f.file} (${f.tests})`);
  return lines;
}
