/** One entry per line (blank lines dropped): how lists are edited in a textarea. */
export function linesOf(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}
