/** A coloured pill for a task or step status; `label` is already translated. */
export function StatusBadge({ status, label }: { status: string; label: string }) {
  return (
    <span className={`badge badge-${status}`} data-status={status}>
      {label}
    </span>
  );
}
