import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBus, createLogger, deleteStreams, ensureStreams, startConsumer, type Bus } from '@hoptrack/runtime';
import { eventually, publishEvent, testNamespace, testUserSnapshot } from '@hoptrack/testing';
import { repoRoot } from '@hoptrack/testing/processes';

/**
 * Issue 19, item 7, the runbook step: an operator lists the dead letters with
 * infra/ops/dead-letters.ts, replays one after fixing the cause, and the
 * consumer that could not handle it applies it.
 */
const run = promisify(execFile);
const namespace = testNamespace('dlq');
let bus: Bus;
beforeAll(async () => {
  bus = await connectBus({ url: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', name: 'dlq-test', namespace, logger: createLogger('dlq-test', 'silent') });
  await ensureStreams(bus, ['USERS']);
});
afterAll(async () => {
  await deleteStreams(bus);
  await bus.close();
});

const cli = (...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'infra/ops/dead-letters.ts', ...args], { cwd: repoRoot, env: { ...process.env, BUS_NAMESPACE: namespace } });

describe('the dead-letter runbook', () => {
  it('lists a parked event, replays it once the cause is fixed, and the list is empty again', async () => {
    let fixed = false;
    const applied: string[] = [];
    const user = testUserSnapshot(randomUUID());
    const durable = `dlq-${randomUUID().slice(0, 8)}`;
    const consumer = await startConsumer({
      bus,
      stream: 'USERS',
      durable,
      logger: createLogger('dlq-consumer', 'silent'),
      maxDeliver: 1,
      handlers: {
        'user.registered.v1': async (event) => {
          if (!fixed) throw new Error('the read model has no column for this yet');
          applied.push(event.data.id);
        },
      },
    });
    try {
      await publishEvent(bus, 'user.registered.v1', user);
      let listed = '';
      await eventually(async () => {
        listed = (await cli('list')).stdout;
        return listed.includes(`consumer=${durable}`);
      }, 'the event among the dead letters');
      expect(listed).toContain('error="the read model has no column for this yet"');
      expect(listed).toContain(user.id);
      const seq = /#(\d+)/.exec(listed)?.[1] ?? '';

      fixed = true;
      expect((await cli('replay', seq)).stdout).toContain(`replayed #${seq}`);
      await eventually(() => applied.includes(user.id), 'the replayed event applied');
      expect((await cli('list')).stdout).toContain('0 dead letter(s)');
      expect(await cli('replay', seq).catch((err: { stderr: string }) => err.stderr)).toContain(`no dead letter ${seq}`);
    } finally {
      await consumer.stop();
    }
  });
});
