import {
  bearerAuth,
  createServer,
  createTokenService,
  FileSignature,
  FixedWindowLimiter,
  mountRoutes,
  Outbox,
  OutboxRelay,
  ReadModelBarrier,
  UploadTokens,
  type Bus,
  type Logger,
  type ServiceApp,
  type ServiceMetrics,
  type TransactionalSqlClient,
  type TokenService,
} from '@hoptrack/runtime';
import { authApi } from '@hoptrack/proto';
import type { Redis } from 'ioredis';
import type { AuthConfig } from './config';
import type { PrismaClient } from './db';
import { Accounts } from './domain/accounts';
import { UnclaimedSweep } from './domain/unclaimed-sweep';
import { StaffRoles } from './domain/staff-roles';
import { DataExports } from './domain/exports';
import type { ErasureLedger } from './repositories/erasure-ledger.repository';
import { createMailer, type Mailer } from './domain/mailer';
import { ErasureScrubber } from './erasure/erasure-scrubber';
import { MailRelay } from './mail/mail-relay';
import { personLimitKeys } from './domain/limit-keys';
import { mailLimits } from './domain/mail-limits';
import { authHandlers, passwordAttempts } from './routes/auth.handlers';
import { exportHandlers } from './routes/export.handlers';
import { meHandlers } from './routes/me.handlers';
import { staffHandlers } from './routes/staff.handlers';
import { moderationHandlers } from './routes/moderation.handlers';
import { AccountActions } from './domain/account-actions';

export interface AuthDeps {
  config: AuthConfig;
  logger: Logger;
  metrics: ServiceMetrics;
  prisma: PrismaClient;
  /** Plain SQL over Prisma's pool: the outbox relay. */
  sql: TransactionalSqlClient;
  bus: Bus;
  redis: Redis;
  ledger: ErasureLedger;
  /** Injected so tests can move time (token and reset-link expiry). */
  clock?: () => Date;
  mailer?: Mailer;
}

export interface AuthApp {
  app: ServiceApp;
  accounts: Accounts;
  relay: OutboxRelay;
  tokens: TokenService;
  /** Sends queued mail; started with the service's consumers (service.ts), drained by tests. */
  mail: MailRelay;
  /** The last step of account deletions (issue 24); started with the service's consumers. */
  scrubber: ErasureScrubber;
  /** Data exports: auth's own part of each, and media's ready reports (the consumers in service.ts). */
  exports: DataExports;
  /** The staff roles (issue 42): the console's routes and the operator command. */
  staffRoles: StaffRoles;
  /** Erases unclaimed accounts past their 7 days (issue 40, item 14); started with the service's consumers. */
  unclaimedSweep: UnclaimedSweep;
}

/** Wires the auth service from its connections; starts nothing (the definition in service.ts starts its background work). */
export async function buildAuthApp(deps: AuthDeps): Promise<AuthApp> {
  const { config, logger, prisma, bus, redis } = deps;
  const clock = deps.clock ?? (() => new Date());
  const tokens = await createTokenService({ keys: config.JWT_SIGNING_KEYS, expiresIn: config.JWT_EXPIRES_IN, clock });
  const relay = new OutboxRelay({ db: deps.sql, bus, logger: logger.child({ component: 'outbox-relay' }), pollMs: config.OUTBOX_POLL_MS });
  const barrier = new ReadModelBarrier({ db: prisma, bus, relay, logger: logger.child({ component: 'barrier' }), timeoutMs: config.READ_MODEL_BARRIER_MS });
  const mail = new MailRelay({
    prisma,
    mailer: deps.mailer ?? createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, logger, production: config.NODE_ENV === 'production' }),
    logger: logger.child({ component: 'mail-relay' }),
    pollMs: config.MAIL_POLL_MS,
  });
  // Limits live in Redis so every replica counts together; when Redis cannot count, the limited
  // routes answer 503 (fail closed) rather than let guessing through unlimited.
  const limits = {
    loginMax: config.LOGIN_RATE_LIMIT_MAX,
    accountFailuresMax: config.LOGIN_ACCOUNT_FAILURES_MAX,
    forgotMax: config.FORGOT_RATE_LIMIT_MAX,
    registerMax: config.REGISTER_RATE_LIMIT_MAX,
    limiter: new FixedWindowLimiter(redis, { prefix: `${config.BUS_NAMESPACE}:auth-limit:`, windowMs: config.RATE_LIMIT_WINDOW_MS }),
    resend: {
      perMinute: new FixedWindowLimiter(redis, { prefix: `${config.BUS_NAMESPACE}:auth-limit-minute:`, windowMs: 60_000 }),
      perDay: new FixedWindowLimiter(redis, { prefix: `${config.BUS_NAMESPACE}:auth-limit-day:`, windowMs: 24 * 60 * 60_000 }),
      dayMax: 5,
    },
  };
  // With the relay off here (another replica publishes), this process cannot hurry its events out.
  const accountsSettle =
    config.READ_MODEL_BARRIER_MS > 0 && config.OUTBOX_RELAY === 'on' ? (eventIds: string[]) => barrier.await(eventIds, 'USERS') : undefined;
  const accounts = new Accounts({
    passwordAttempts: passwordAttempts(limits),
    mailLimits: mailLimits({ perMinute: limits.resend.perMinute, perDay: limits.resend.perDay, senderDayMax: 5, addressDayMax: 3 }),
    settle: accountsSettle,
    prisma,
    ledger: deps.ledger,
    outbox: new Outbox(config.BUS_NAMESPACE, clock),
    onEventsCommitted: () => relay.poke(),
    tokens,
    onMailQueued: () => mail.poke(),
    clock,
    publicWebUrl: config.PUBLIC_WEB_URL,
    exposeResetToken: config.NODE_ENV !== 'production',
    logger,
  });

  // Staff changes of an account (issue 42: roles, suspensions) answer once every service applied them (domain/account-change.ts).
  const accountChanges = { prisma, outbox: new Outbox(config.BUS_NAMESPACE, clock), onEventsCommitted: () => relay.poke(), settle: accountsSettle, clock };
  const staffRoles = new StaffRoles(accountChanges);

  const app = createServer({
    logger,
    metrics: deps.metrics,
    trustProxy: config.TRUST_PROXY,
  });
  const exports = new DataExports({
    prisma,
    outbox: new Outbox(config.BUS_NAMESPACE, clock),
    onEventsCommitted: () => relay.poke(),
    onMailQueued: () => mail.poke(),
    clock,
    publicWebUrl: config.PUBLIC_WEB_URL,
    // The link is for this download (its expiry rounds up to the hour, as every signed file URL's); the export lasts as long as media keeps its zip.
    files: new FileSignature(config.FILE_URL_SECRET, 10 * 60, clock),
  });
  mountRoutes(
    app,
    authApi,
    {
      ...authHandlers(accounts, limits),
      ...meHandlers(accounts, new UploadTokens(config.FILE_URL_SECRET, clock)),
      ...exportHandlers(exports),
      ...staffHandlers(staffRoles),
      ...moderationHandlers(new AccountActions(accountChanges)),
      // The public keys every other service verifies tokens with (internal: the gateway routes /api only).
      jwks: async (_request, reply) => {
        reply.header('cache-control', 'public, max-age=300');
        return tokens.jwks();
      },
    },
    // Auth checks a token's version against its own users table, not the audience module's copy.
    { authenticate: bearerAuth(tokens, (claims) => accounts.isTokenCurrent(claims)), db: prisma, clock },
  );
  const scrubber = new ErasureScrubber({
    prisma,
    bus,
    forgetLimits: async (userId, email) => {
      const keys = personLimitKeys(userId, email);
      const counts = await Promise.all([limits.limiter, limits.resend.perMinute, limits.resend.perDay].map((limiter) => limiter.forget(keys)));
      return counts.reduce((sum, n) => sum + n, 0);
    },
    logger: logger.child({ component: 'erasure-scrubber' }),
    pollMs: config.ERASURE_POLL_MS,
    outbox: new Outbox(config.BUS_NAMESPACE, clock),
    onEventsCommitted: () => relay.poke(),
    resweepMs: config.ERASURE_RESWEEP_MS,
    clock,
  });
  const unclaimedSweep = new UnclaimedSweep(accounts, logger.child({ component: 'unclaimed-sweep' }));
  return { app, accounts, staffRoles, relay, tokens, mail, scrubber, exports, unclaimedSweep };
}
