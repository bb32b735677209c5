import { PROCESS_CONTRACTS, type EventType } from '@hoptrack/proto';
import { memoryLogger, testNamespace } from '@hoptrack/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectBus, deleteStreams, ensureStreams } from '../src/bus/connection';
import { startConsumer, type EventHandlers } from '../src/bus/consumer';
import { createMetrics } from '../src/http/metrics';
import { createServer } from '../src/http/server';
import { assembleService, checkSubscriptions } from '../src/service/assemble';
import { defineService } from '../src/service/define';

/**
 * Issue 37, item 5: a service is one definition, and what its consumers read
 * is held to its process contract in proto when it starts. The definitions
 * here borrow the name of the places service, whose contract reads the
 * audience's events and the erasure and export requests.
 */
const { logger } = memoryLogger('definition-test', 'warn');
const configSchema = z.object({ PORT: z.coerce.number().default(0), HOST: z.string().default('127.0.0.1'), LOG_LEVEL: z.enum(['warn']).default('warn'), SHUTDOWN_TIMEOUT_MS: z.coerce.number().default(1000), SHUTDOWN_DRAIN_MS: z.coerce.number().default(0) });
const noop = async () => undefined;

function definitionReading(consumers: Record<string, { stream: 'USERS' | 'SOCIAL'; types: EventType[] }>, order: string[] = []) {
  return defineService({
    name: 'places',
    configSchema,
    async connect() {
      const bus = await connectBus({ url: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', name: 'definition-test', namespace: testNamespace('definition'), logger });
      await ensureStreams(bus, ['USERS', 'SOCIAL']);
      return {
        bus,
        readiness: { store: async () => undefined },
        async close() {
          order.push('connections');
          await deleteStreams(bus);
          await bus.close();
        },
      };
    },
    build: ({ logger: log, metrics }) => ({ app: createServer({ logger: log, metrics }) }),
    workers: () => [{ name: 'worker', close: async () => void order.push('worker') }],
    consumers: Object.fromEntries(
      Object.entries(consumers).map(([name, { stream, types }]) => [
        name,
        ({ connections }) => {
          const handlers: EventHandlers = Object.fromEntries(types.map((type) => [type, noop]));
          return startConsumer({ bus: connections.bus, stream, durable: name, logger, handlers }).then((running) => ({
            stop: async () => {
              order.push(`consumer ${name}`);
              await running.stop();
            },
          }));
        },
      ]),
    ),
  });
}

const assemble = (definition: ReturnType<typeof definitionReading>, consumers?: 'all' | readonly string[]) =>
  assembleService(definition, { config: configSchema.parse({}), logger, metrics: createMetrics('places'), ...(consumers ? { consumers } : {}) });

async function closeAll(assembled: Awaited<ReturnType<typeof assemble>>) {
  await assembled.context.parts.app.close();
  for (const closer of assembled.closers) await closer.close();
}

describe('a service definition', () => {
  const everything = {
    people: { stream: 'USERS' as const, types: PROCESS_CONTRACTS.places.consumes.filter((t) => t.startsWith('user.')) },
    graph: { stream: 'SOCIAL' as const, types: PROCESS_CONTRACTS.places.consumes.filter((t) => t.startsWith('social.')) },
  };

  it('starts when its consumers read exactly what its contract declares, and stops workers, consumers, then connections', async () => {
    const order: string[] = [];
    const assembled = await assemble(definitionReading(everything, order));
    const running = await assembled.start();
    expect(running).toHaveLength(2);
    await closeAll(assembled);
    expect(order).toEqual(['worker', 'consumer people', 'consumer graph', 'connections']);
  });

  it('refuses to start a consumer reading a type its contract does not declare', async () => {
    const assembled = await assemble(definitionReading({ ...everything, extra: { stream: 'USERS', types: ['user.export.ready.v1'] } }));
    await expect(assembled.start()).rejects.toThrow(/places reads what its contract in proto \(PROCESS_CONTRACTS\.places\.consumes\) does not declare: user\.export\.ready\.v1 \(read by extra\)/);
    await closeAll(assembled);
  });

  it('refuses to start, with every consumer started, when a declared type is read by none', async () => {
    const assembled = await assemble(definitionReading({ graph: everything.graph }));
    await expect(assembled.start()).rejects.toThrow(/places declares what none of its consumers reads: user\.registered\.v1, user\.updated\.v1, user\.deleted\.v1/);
    await closeAll(assembled);
  });

  it('derives /readyz from what it connected to: the bus as nats, and the checks its connections name', async () => {
    const assembled = await assemble(definitionReading(everything), []);
    const ready = await assembled.context.parts.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.json()).toEqual({ status: 'ready', checks: { store: 'ok', nats: 'ok' } });
    await closeAll(assembled);
  });

  it('lets a test start some of its consumers by name, and no name it lacks', async () => {
    const partial = await assemble(definitionReading(everything), ['graph']);
    expect(await partial.start()).toHaveLength(1);
    await closeAll(partial);
    await expect(assemble(definitionReading(everything), ['nope'])).rejects.toThrow('places has no consumers named nope');
  });
});

describe('checkSubscriptions', () => {
  it('counts a consumer of a shared handler map only for its own stream', () => {
    // The fan-out worker gives one handler map to its SESSIONS and SOCIAL consumers; each reads its stream's part.
    expect(() => checkSubscriptions('sessions-fanout', new Map(PROCESS_CONTRACTS['sessions-fanout'].consumes.map((t) => [t, ['fanout']])), true)).not.toThrow();
    expect(() => checkSubscriptions('sessions-fanout', new Map([['session.liked.v1', ['fanout']]]), false)).toThrow(/session\.liked\.v1 \(read by fanout\)/);
  });
});
