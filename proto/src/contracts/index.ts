import { authApi } from './auth';
import { challengesApi } from './challenges';
import type { RouteContract, ServiceName } from './define';
import { FILES_PREFIX, mediaApi, UPLOADS_PREFIX } from './media';
import { messagingApi } from './messaging';
import { notificationsApi } from './notifications';
import { placesApi } from './places';
import { sessionsApi } from './sessions';
import { socialGraphApi } from './social';

export * from './define';
export { FILES_PREFIX, UPLOADS_PREFIX };
export { authApi, challengesApi, mediaApi, messagingApi, notificationsApi, placesApi, sessionsApi, socialGraphApi };

/**
 * Every HTTP endpoint of Hoptrack, by service: the table the gateway routes
 * by, the web client calls and the security scans walk. A service mounts its
 * own table (runtime mountRoutes) and nothing else.
 */
export const api = {
  auth: authApi,
  socialGraph: socialGraphApi,
  media: mediaApi,
  places: placesApi,
  sessions: sessionsApi,
  messaging: messagingApi,
  notifications: notificationsApi,
  challenges: challengesApi,
} as const;

/** The table flattened: one entry per endpoint. */
export function allContracts(): RouteContract[] {
  return Object.values(api).flatMap((table) => Object.values(table) as RouteContract[]);
}

/** One service's contracts. */
export function contractsOf(service: ServiceName): RouteContract[] {
  return allContracts().filter((contract) => contract.service === service);
}
