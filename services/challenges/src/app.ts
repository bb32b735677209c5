import { challengesApi } from '@hoptrack/proto';
import { audienceAuth, createServer, mountRoutes, Outbox, OutboxRelay, tokenVerifierFor, type Logger, type ServiceApp, type ServiceMetrics } from '@hoptrack/runtime';
import type { ChallengesConfig } from './config';
import type { ChallengesConnections } from './connections';
import { Challenges } from './domain/challenges';
import { systemClock, type Clock } from './domain/clock';
import { Invitations } from './domain/invitations';
import { Progress } from './domain/progress';
import { ChallengeGenerator } from './generator/generator';
import { challengesHandlers } from './routes/handlers';

export interface ChallengesDepsIn extends ChallengesConnections {
  config: ChallengesConfig;
  logger: Logger;
  metrics: ServiceMetrics;
  /** The tests' fixed time, to cross midnights and time zones. */
  clock?: Clock;
}

export interface ChallengesApp {
  app: ServiceApp;
  relay: OutboxRelay;
  progress: Progress;
  generator: ChallengeGenerator;
  challenges: Challenges;
  invitations: Invitations;
}

export function buildChallengesApp(deps: ChallengesDepsIn): ChallengesApp {
  const { config, prisma, bus, logger } = deps;
  const clock = deps.clock ?? systemClock;
  const relay = new OutboxRelay({ db: deps.sql, bus, logger: logger.child({ component: 'outbox-relay' }), pollMs: config.OUTBOX_POLL_MS });
  const outbox = new Outbox(config.BUS_NAMESPACE, clock);
  const onEventsCommitted = () => relay.poke();
  const progress = new Progress(outbox);
  const generator = new ChallengeGenerator({ prisma, perDay: config.CHALLENGES_PER_DAY, logger: logger.child({ component: 'generator' }) });
  const challenges = new Challenges({ prisma, progress, generator, clock, onEventsCommitted });
  const invitations = new Invitations({ prisma, challenges, outbox, clock, onEventsCommitted });
  const app = createServer({
    logger,
    metrics: deps.metrics,
    trustProxy: config.TRUST_PROXY,
  });
  mountRoutes(app, challengesApi, challengesHandlers(challenges, invitations), { authenticate: audienceAuth(tokenVerifierFor(config), prisma), db: prisma, clock });
  return { app, relay, progress, generator, challenges, invitations };
}
