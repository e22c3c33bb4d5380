import type { Approval, Remember } from '../../../electron/contract/index.js';
import type { AppState } from './store.js';
import type { LoadStatus, SliceGet, SliceSet } from './types.js';

/** Approvals: the inbox and the decision on one. */
export interface ApprovalsSlice {
  approvals: Record<string, Approval>;
  approvalsStatus: LoadStatus;
  /** The approval whose modal is open. */
  openApprovalId: string | undefined;
  loadApprovals(): Promise<void>;
  decide(approvalId: string, decision: 'approve' | 'deny', reason?: string, remember?: Remember): Promise<void>;
  applyApproval(approval: Approval): void;
  openApproval(approvalId: string | undefined): void;
}

/** Pending approvals, oldest first (the order they block tasks in). */
export function pendingApprovals(approvals: Record<string, Approval>): Approval[] {
  return Object.values(approvals)
    .filter((a) => a.status === 'pending')
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/** The approvals slice creator. */
export function createApprovalsSlice(set: SliceSet<AppState>, get: SliceGet<AppState>): ApprovalsSlice {
  return {
    approvals: {},
    approvalsStatus: 'idle',
    openApprovalId: undefined,
    async loadApprovals() {
      const client = get().client;
      if (!client) return;
      set({ approvalsStatus: 'loading' });
      try {
        const { approvals } = await client.call('approvals.list', {});
        set((s) => ({ approvalsStatus: 'ready', approvals: { ...s.approvals, ...Object.fromEntries(approvals.map((a) => [a.id, a])) } }));
      } catch {
        set({ approvalsStatus: 'error' });
      }
    },
    async decide(approvalId, decision, reason, remember) {
      const client = get().client;
      if (!client) throw new Error('not connected');
      const decided = await client.call('approvals.decide', {
        approvalId,
        decision,
        ...(reason ? { reason } : {}),
        ...(decision === 'approve' && remember ? { remember } : {}),
      });
      get().applyApproval(decided);
      if (get().openApprovalId === approvalId) set({ openApprovalId: undefined });
    },
    applyApproval(approval) {
      set((s) => ({
        approvals: { ...s.approvals, [approval.id]: approval },
        openApprovalId: s.openApprovalId === approval.id && approval.status !== 'pending' ? undefined : s.openApprovalId,
      }));
    },
    openApproval(approvalId) {
      set({ openApprovalId: approvalId });
    },
  };
}
