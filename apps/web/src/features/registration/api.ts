import { type RegistrationRequest, registrationSchema } from '@strm/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiRequestError, apiRequest } from '../../lib/api.ts';

const registrationKey = (wallet: string | null) => ['registration', wallet];

/** The wallet's registration (select on beta_registrations), or null when it has none. */
export function useMyRegistration(wallet: string | null) {
  return useQuery({
    queryKey: registrationKey(wallet),
    queryFn: async () => {
      try {
        return await apiRequest('/registrations/me', registrationSchema);
      } catch (err) {
        if (err instanceof ApiRequestError && err.status === 404) return null;
        throw err;
      }
    },
    enabled: wallet !== null,
    retry: 1,
  });
}

export function useSubmitRegistration(wallet: string | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (form: RegistrationRequest) =>
      apiRequest('/registrations', registrationSchema, { method: 'POST', body: form }),
    onSuccess: (registration) => {
      client.setQueryData(registrationKey(wallet), registration);
      // Registered: read beta access again (docs/product.md#beta-access).
      void client.invalidateQueries({ queryKey: ['beta-access', wallet] });
    },
  });
}
