import { socialGraphApi } from '@hoptrack/proto';
import {
  audienceAuth,
  createServer,
  mountRoutes,
  tokenVerifierFor,
  Outbox,
  OutboxRelay,
  ReadModelBarrier,
  type Bus,
  type Logger,
  type ServiceApp,
  type ServiceMetrics,
  type TransactionalSqlClient,
} from '@hoptrack/runtime';
import type { SocialConfig } from './config';
import type { PrismaClient } from './db';
import { SocialGraph } from './domain/social-graph';
import { usersRepository } from './repositories/users.repository';
import { socialGraphHandlers } from './routes/handlers';

export interface SocialDeps {
  config: SocialConfig;
  logger: Logger;
  metrics: ServiceMetrics;
  prisma: PrismaClient;
  /** Plain SQL over Prisma's pool: the outbox relay. */
  sql: TransactionalSqlClient;
  bus: Bus;
  clock?: () => Date;
}

export interface SocialApp {
  app: ServiceApp;
  graph: SocialGraph;
  relay: OutboxRelay;
}

export async function buildSocialApp(deps: SocialDeps): Promise<SocialApp> {
  const { config, logger, prisma, bus } = deps;
  const clock = deps.clock ?? (() => new Date());
  const relay = new OutboxRelay({ db: deps.sql, bus, logger: logger.child({ component: 'outbox-relay' }), pollMs: config.OUTBOX_POLL_MS });
  const barrier = new ReadModelBarrier({ db: prisma, bus, relay, logger: logger.child({ component: 'barrier' }), timeoutMs: config.READ_MODEL_BARRIER_MS });
  const graph = new SocialGraph({
    prisma,
    outbox: new Outbox(config.BUS_NAMESPACE, clock),
    onEventsCommitted: () => relay.poke(),
    clock,
    settle: config.READ_MODEL_BARRIER_MS > 0 ? (eventIds) => barrier.await(eventIds, 'SOCIAL') : undefined,
  });
  const authenticate = audienceAuth(tokenVerifierFor(config, clock), prisma);

  const app = createServer({
    logger,
    metrics: deps.metrics,
    trustProxy: config.TRUST_PROXY,
  });
  mountRoutes(app, socialGraphApi, socialGraphHandlers(graph), { authenticate, db: prisma, clock });
  return { app, graph, relay };
}
