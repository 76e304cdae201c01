// The admin console's data: the admin endpoints through the app's one API client, cached by React Query.
import {
  adminChangeSchema,
  adminListSchema,
  auditListSchema,
  betaAccessChangeSchema,
  maintenanceStatusSchema,
  pendingRewardResponseSchema,
  adjustmentListSchema,
  adjustmentSchema,
  type RegistrationListQuery,
  registrationListResponseSchema,
} from '@strm/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api.ts';

/** The list's query as the console holds it: dates as yyyy-mm-dd, empty strings for "any". */
export interface RegistrationFilters {
  search: string;
  platform: '' | NonNullable<RegistrationListQuery['platform']>;
  access: '' | NonNullable<RegistrationListQuery['access']>;
  from: string;
  to: string;
  sort: RegistrationListQuery['sort'];
  order: RegistrationListQuery['order'];
  page: number;
  pageSize: number;
}

export function registrationsPath(f: RegistrationFilters): string {
  const params = new URLSearchParams();
  if (f.search.trim()) params.set('search', f.search.trim());
  if (f.platform) params.set('platform', f.platform);
  if (f.access) params.set('access', f.access);
  // The "to" day is included whole.
  if (f.from) params.set('from', `${f.from}T00:00:00.000Z`);
  if (f.to) params.set('to', `${f.to}T23:59:59.999Z`);
  params.set('sort', f.sort);
  params.set('order', f.order);
  params.set('page', String(f.page));
  params.set('pageSize', String(f.pageSize));
  return `/admin/registrations?${params}`;
}

const KEYS = {
  registrations: ['admin', 'registrations'] as const,
  admins: ['admin', 'admins'] as const,
  audit: ['admin', 'audit'] as const,
  adjustments: ['admin', 'adjustments'] as const,
};

export function useRegistrations(filters: RegistrationFilters) {
  return useQuery({
    queryKey: [...KEYS.registrations, filters],
    queryFn: () => apiRequest(registrationsPath(filters), registrationListResponseSchema),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** Grants or revokes access for many wallets, one request each; answers how many failed. */
export function useAccessChange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ wallets, grant }: { wallets: string[]; grant: boolean }) => {
      const results = await Promise.allSettled(
        wallets.map((wallet) =>
          apiRequest(`/admin/beta-access/${encodeURIComponent(wallet)}`, betaAccessChangeSchema, {
            method: grant ? 'PUT' : 'DELETE',
          }),
        ),
      );
      return {
        done: results.filter((r) => r.status === 'fulfilled').length,
        failed: results.filter((r) => r.status === 'rejected').length,
      };
    },
    onSettled: () => client.invalidateQueries({ queryKey: ['admin'] }),
  });
}

export function useAdmins() {
  return useQuery({
    queryKey: KEYS.admins,
    queryFn: () => apiRequest('/admin/admins', adminListSchema),
    retry: false,
  });
}

export function useAdminChange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ wallet, promote }: { wallet: string; promote: boolean }) =>
      apiRequest(`/admin/admins/${encodeURIComponent(wallet)}`, adminChangeSchema, {
        method: promote ? 'PUT' : 'DELETE',
      }),
    onSettled: () => client.invalidateQueries({ queryKey: ['admin'] }),
  });
}

export function useAuditLog() {
  return useQuery({
    queryKey: KEYS.audit,
    queryFn: () => apiRequest('/admin/audit?limit=200', auditListSchema),
    retry: false,
  });
}

/** Starts maintenance with its message, or ends it; the app's maintenance status is refreshed. */
export function useMaintenanceChange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ on, message }: { on: boolean; message?: string }) =>
      on
        ? apiRequest('/maintenance/start', maintenanceStatusSchema, {
            method: 'POST',
            body: { start: true, ...(message ? { message } : {}) },
          })
        : apiRequest('/maintenance/stop', maintenanceStatusSchema, { method: 'POST', body: { stop: true } }),
    onSuccess: (status) => client.setQueryData(['maintenance'], status),
    onSettled: () => client.invalidateQueries({ queryKey: KEYS.audit }),
  });
}

export function usePendingRewardChange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { wallet: string; amount: number; reason?: string }) =>
      apiRequest('/streamer/pending-reward', pendingRewardResponseSchema, { method: 'POST', body: input }),
    onSettled: () => client.invalidateQueries({ queryKey: KEYS.adjustments }),
  });
}

/** The latest adjustments, those waiting for a second admin first. */
export function useAdjustments() {
  return useQuery({
    queryKey: KEYS.adjustments,
    queryFn: () => apiRequest('/admin/pending-reward-adjustments', adjustmentListSchema),
    retry: false,
  });
}

/** A second admin approves or rejects a raise waiting for approval. */
export function useAdjustmentDecision() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, approve }: { id: number; approve: boolean }) =>
      apiRequest(
        `/admin/pending-reward-adjustments/${id}/${approve ? 'approve' : 'reject'}`,
        adjustmentSchema,
        {
          method: 'POST',
        },
      ),
    onSettled: () => client.invalidateQueries({ queryKey: ['admin'] }),
  });
}
