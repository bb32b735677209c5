import { challengesLivePushes } from './challenges';
import type { DeclaredPush } from './live';
import { messagingLivePushes } from './messaging';
import { notificationsLivePushes } from './notifications';
import { sessionsLivePushes } from './sessions';
import { socialLivePushes } from './social';

/** Every declared live push, from every feature that has one: what the live hub relays. */
export const LIVE_PUSHES: readonly DeclaredPush[] = [...messagingLivePushes, ...notificationsLivePushes, ...challengesLivePushes, ...socialLivePushes, ...sessionsLivePushes];
