import { DEFAULT_APPROVAL_RULE, type Approval, type MethodResult, type Remember } from '../../../electron/contract/index.js';
import type { AppState } from './store.js';
import type { LoadStatus, SliceGet, SliceSet } from './types.js';

/** Approvals: the inbox and the decision on one. */
export interface ApprovalsSlice {
  approvals: Record<string, Approval>;
  approvalsStatus: LoadStatus;
  /** The approval whose modal is open. */
  openApprovalId: string | undefined;
  /** Who this connection acts as (a signed-in person, or the local operator). */
  me: Me | undefined;
  loadApprovals(): Promise<void>;
  loadMe(): Promise<void>;
  decide(approvalId: string, decision: 'approve' | 'deny', reason?: string, remember?: Remember): Promise<void>;
  applyApproval(approval: Approval): void;
  openApproval(approvalId: string | undefined): void;
}

/** `people.me`: who the connection acts as. */
export type Me = MethodResult<'people.me'>;

/** What `me` may do with an approval: decide at all, approve (not their own task under four eyes, not twice). */
export function approvalRights(approval: Approval, me: Me | undefined): { decide: boolean; approve: 'yes' | 'ownTask' | 'agreed' } {
  if (!me) return { decide: true, approve: 'yes' };
  const rule = approval.rule ?? DEFAULT_APPROVAL_RULE;
  const decide = me.roles.some((r) => rule.roles.includes(r)) && (!rule.groups || me.groups.some((g) => rule.groups!.includes(g)));
  if (rule.notOwner && approval.owner?.subject === me.subject) return { decide, approve: 'ownTask' };
  if (approval.votes?.some((v) => v.by.subject === me.subject)) return { decide, approve: 'agreed' };
  return { decide, approve: 'yes' };
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
    me: undefined,
    async loadMe() {
      const client = get().client;
      if (!client) return;
      // Without it the dialog offers every action and the server refuses what the person may not do.
      set({ me: await client.call('people.me', {}).catch(() => undefined) });
    },
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
