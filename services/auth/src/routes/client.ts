import type { SignInClient } from '../domain/devices';

/** Who signs in, as the request shows it: its browser and its address (through the gateway, TRUST_PROXY). */
export const clientOf = (request: { headers: { 'user-agent'?: string | undefined }; ip: string }): SignInClient => ({
  userAgent: request.headers['user-agent'] ?? '',
  ip: request.ip,
});
