/**
 * Copies what the process writes to stdout and stderr while a case runs (still writing it
 * through), so the leak search covers the console as well as the files.
 */
export class OutputTap {
  private chunks: string[] = [];
  private restore: (() => void) | undefined;

  start(): void {
    if (this.restore) return;
    const out = process.stdout.write.bind(process.stdout);
    const err = process.stderr.write.bind(process.stderr);
    const tee =
      (write: typeof out) =>
      (chunk: unknown, ...rest: unknown[]): boolean => {
        this.chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
        return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
      };
    process.stdout.write = tee(out) as typeof process.stdout.write;
    process.stderr.write = tee(err) as typeof process.stderr.write;
    this.restore = () => {
      process.stdout.write = out;
      process.stderr.write = err;
    };
  }

  stop(): void {
    this.restore?.();
    this.restore = undefined;
  }

  /** A position to read from later. */
  mark(): number {
    return this.chunks.length;
  }

  /** What was written since `mark` (cases running at once share the tap, so it may hold theirs too). */
  since(mark: number): string {
    return this.chunks.slice(mark).join('');
  }
}
