import type { ReactNode } from 'react';

/**
 * A `.table` with one heading row; `headings` are already translated (an empty string is an
 * untitled column, e.g. for row buttons). The rows come as children.
 */
export function DataTable({ headings, testId, children }: { headings: readonly string[]; testId?: string; children: ReactNode }) {
  return (
    <table className="table" data-testid={testId}>
      <thead>
        <tr>
          {headings.map((heading, i) => (
            <th key={i}>{heading}</th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
