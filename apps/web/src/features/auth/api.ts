import { authenticateResponseSchema, nonceResponseSchema } from '@strm/shared';
import { apiRequest } from '../../lib/api.ts';

export function fetchNonce(publicKey: string) {
  return apiRequest(`/nonce?publicKey=${encodeURIComponent(publicKey)}`, nonceResponseSchema);
}

export function postAuthenticate(body: { publicKey: string; signedMessage: number[]; nonce: string }) {
  return apiRequest('/authenticate', authenticateResponseSchema, { method: 'POST', body });
}
