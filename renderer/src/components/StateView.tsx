import type { ReactNode } from 'react';

/** Props of StateView: what to show instead of content while loading, failed or empty. */
export interface StateViewProps {
  kind: 'loading' | 'error' | 'empty';
  message: string;
  action?: { label: string; onClick: () => void };
  children?: ReactNode;
}

/** The empty / loading / error placeholder every view uses. */
export function StateView({ kind, message, action, children }: StateViewProps) {
  return (
    <div className={`state state-${kind}`} role={kind === 'error' ? 'alert' : 'status'} data-testid={`state-${kind}`}>
      <p>{message}</p>
      {action && (
        <button type="button" onClick={action.onClick}>
          {action.label}
        </button>
      )}
      {children}
    </div>
  );
}
