import type { ReactNode } from 'react';

/** A dialog over the page; keyboard handling belongs to the caller. */
export function Modal({ title, children, labelledBy }: { title: string; children: ReactNode; labelledBy: string }) {
  return (
    <div className="modal-backdrop">
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby={labelledBy}>
        <h2 id={labelledBy}>{title}</h2>
        {children}
      </div>
    </div>
  );
}
