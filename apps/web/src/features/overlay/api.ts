// The overlay link, theme, balance opt-in and public card: one query, mutations that update it.
import {
  type OverlayResponse,
  overlayResponseSchema,
  overlaySettingsSchema,
  overlayTokenResponseSchema,
  type OverlayTheme,
  publicCardSettingsSchema,
} from '@strm/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api.ts';

const key = (wallet: string) => ['overlay', wallet] as const;

export function useOverlaySettings(wallet: string) {
  return useQuery({
    queryKey: key(wallet),
    queryFn: () => apiRequest('/streamer/overlay', overlayResponseSchema),
  });
}

function useUpdate(wallet: string) {
  const client = useQueryClient();
  return (change: (old: OverlayResponse) => OverlayResponse) =>
    client.setQueryData(key(wallet), (old: OverlayResponse | undefined) => (old ? change(old) : old));
}

/** A new link (the previous one stops working): its address is answered only now. */
export function useIssueOverlayLink(wallet: string) {
  const update = useUpdate(wallet);
  return useMutation({
    mutationFn: () => apiRequest('/streamer/overlay/token', overlayTokenResponseSchema, { method: 'POST' }),
    onSuccess: ({ overlay }) => update((old) => ({ ...old, overlay })),
  });
}

export function useRevokeOverlayLink(wallet: string) {
  const update = useUpdate(wallet);
  return useMutation({
    mutationFn: () => apiRequest('/streamer/overlay/token', overlaySettingsSchema, { method: 'DELETE' }),
    onSuccess: (overlay) => update((old) => ({ ...old, overlay })),
  });
}

export function useOverlayOptions(wallet: string) {
  const update = useUpdate(wallet);
  return useMutation({
    mutationFn: (body: { theme?: OverlayTheme; showBalance?: boolean }) =>
      apiRequest('/streamer/overlay/settings', overlaySettingsSchema, { method: 'PUT', body }),
    onSuccess: (overlay) => update((old) => ({ ...old, overlay })),
  });
}

export function usePublicCard(wallet: string) {
  const update = useUpdate(wallet);
  return useMutation({
    mutationFn: (enabled: boolean) =>
      apiRequest('/streamer/public-card', publicCardSettingsSchema, { method: 'PUT', body: { enabled } }),
    onSuccess: (card) => update((old) => ({ ...old, card })),
  });
}
