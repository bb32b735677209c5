import { CHALLENGE_KIND_NAMES, type Challenge } from '@hoptrack/proto';
import { createMetrics } from '@hoptrack/runtime';
import { registerQueueMetrics } from '@hoptrack/runtime/queues';
import { eventually, memoryLogger, ok } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dateIn, dayWindow } from '../src/domain/days';
import { createGeneratorQueue, generatorQueueSettings, scheduleGenerator, startGeneratorWorker } from '../src/generator/queue';
import { kindsFor } from '../src/generator/generator';
import { sessionFacts, startTestChallenges, type TestChallenges } from './support';

/**
 * The daily generator and "today" across time zones. At 23:30 UTC on 15 June
 * it is already the 16th in Tokyo and still the 15th in Los Angeles.
 */
let service: TestChallenges;
const LATE = new Date('2026-06-15T23:30:00Z');

beforeAll(async () => {
  service = await startTestChallenges({ now: LATE, overrides: { CHALLENGES_PER_DAY: '3' } });
});
afterAll(() => service?.close());

describe('the daily generator', () => {
  it('publishes yesterday, today and tomorrow (UTC) once, however often it runs, and retires ended dates', async () => {
    await service.generator.ensureAround(new Date('2026-06-13T10:00:00Z'));
    await Promise.all([service.generator.ensureAround(LATE), service.generator.ensureAround(LATE)]);
    await service.generator.ensureAround(LATE);
    const rows = await service.prisma.dailyChallenge.findMany({ orderBy: [{ date: 'asc' }] });
    const byDate = new Map<string, typeof rows>();
    for (const row of rows) {
      const date = row.date.toISOString().slice(0, 10);
      byDate.set(date, [...(byDate.get(date) ?? []), row]);
    }
    expect([...byDate.keys()]).toEqual(['2026-06-12', '2026-06-13', '2026-06-14', '2026-06-15', '2026-06-16']);
    for (const [date, day] of byDate) {
      expect(day.map((r) => r.challengeType).sort()).toEqual([...kindsFor(date, 3)].sort());
      expect(day.every((r) => r.isActive)).toBe(date >= '2026-06-14');
    }
  });

  it('runs as one BullMQ job scheduler however many copies upsert it, and its job publishes the real today', async () => {
    const settings = generatorQueueSettings(service.config);
    const queue = createGeneratorQueue(settings);
    try {
      await Promise.all([scheduleGenerator(queue, 60 * 60 * 1000), scheduleGenerator(queue, 60 * 60 * 1000)]);
      expect(await queue.getJobSchedulers()).toHaveLength(1);
      const today = dateIn(new Date(), 'UTC');
      const worker = startGeneratorWorker(settings, (at) => service.generator.ensureAround(at), memoryLogger('generator').logger);
      try {
        await eventually(async () => (await service.prisma.dailyChallenge.count({ where: { date: new Date(`${today}T00:00:00Z`) } })) === 3, 'today published by the job');
        // Its next run waits as one delayed job: /metrics counts it as scheduled, not as a delayed backlog.
        const metrics = createMetrics('generator-test');
        registerQueueMetrics(metrics.registry, [queue]);
        const states = async () => Object.fromEntries(((await metrics.registry.getSingleMetric('bullmq_jobs')?.get())?.values ?? []).map((v) => [v.labels.state, v.value]));
        await expect.poll(states).toMatchObject({ scheduled: 1, delayed: 0, waiting: 0, active: 0 });
      } finally {
        await worker.close();
      }
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });

  it('varies the kinds from day to day, the same for every copy', () => {
    const days = ['2026-06-14', '2026-06-15', '2026-06-16', '2026-06-17'].map((d) => kindsFor(d, 3).join());
    expect(new Set(days).size).toBeGreaterThan(1);
    expect(kindsFor('2026-06-15', 3)).toEqual(kindsFor('2026-06-15', 3));
    expect(new Set(kindsFor('2026-06-15', CHALLENGE_KIND_NAMES.length))).toEqual(new Set(CHALLENGE_KIND_NAMES));
  });

  it('"today" is the date in the person\'s zone, and the day window follows the zone', async () => {
    const person = await service.user();
    const tokyo = ok<Challenge[]>(await person.get('/api/challenges?timeZone=Asia/Tokyo'));
    const la = ok<Challenge[]>(await person.get('/api/challenges?timeZone=America/Los_Angeles'));
    expect(new Set(tokyo.map((c) => c.date))).toEqual(new Set(['2026-06-16']));
    expect(new Set(la.map((c) => c.date))).toEqual(new Set(['2026-06-15']));
    expect(tokyo[0]!.endsAt).toBe('2026-06-16T15:00:00.000Z');
    expect(la[0]!.endsAt).toBe('2026-06-16T07:00:00.000Z');

    // Joined in Los Angeles, a session at 23:40 UTC (16:40 there) counts for the 15th.
    const slow = la.find((c) => c.challengeType === 'slow_pace') ?? la[0]!;
    const joined = ok<Challenge>(await person.post(`/api/challenges/${slow.id}/join`, { timeZone: 'America/Los_Angeles' }));
    expect(joined.endsAt).toBe('2026-06-16T07:00:00.000Z');
  });

  it('day windows are 23 and 25 hours across daylight-saving changes', () => {
    const spring = dayWindow('2026-03-29', 'Europe/Berlin');
    expect([spring.start.toISOString(), spring.end.toISOString()]).toEqual(['2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z']);
    const autumn = dayWindow('2026-10-25', 'Europe/Berlin');
    expect(autumn.end.getTime() - autumn.start.getTime()).toBe(25 * 3_600_000);
    expect(dayWindow('2026-06-15', 'Asia/Kolkata').start.toISOString()).toBe('2026-06-14T18:30:00.000Z');
  });

  it('a session counts for the day of the zone the person joined in', async () => {
    const person = await service.user();
    const tokyoDay = ok<Challenge[]>(await person.get('/api/challenges?timeZone=Asia/Tokyo'));
    const challenge = tokyoDay[0]!;
    ok(await person.post(`/api/challenges/${challenge.id}/join`, { timeZone: 'Asia/Tokyo' }));
    // 14:59 UTC on the 16th is 23:59 in Tokyo: still the 16th there.
    await service.publish('session.created.v1', sessionFacts(person.id, new Date('2026-06-16T14:59:00Z'), { beerTypes: ['Altbier'], location: 'Somewhere new', hasMusic: true, beerCount: 1, duration: 60 }));
    await service.publish('place.review.created.v1', { reviewId: crypto.randomUUID(), barId: crypto.randomUUID(), userId: person.id, createdAt: '2026-06-16T14:59:00Z' });
    await service.publish('media.photo.stored.v1', { photoId: crypto.randomUUID(), userId: person.id, albumId: crypto.randomUUID(), key: 'k' }, new Date('2026-06-16T14:59:00Z'));
    expect(ok<Challenge>(await person.get(`/api/challenges/${challenge.id}`)).progress).toBeGreaterThan(0);
    // And 15:01 UTC is the 17th in Tokyo: nothing for this challenge.
    const other = await service.user();
    ok(await other.post(`/api/challenges/${challenge.id}/join`, { timeZone: 'Asia/Tokyo' }));
    await service.publish('session.created.v1', sessionFacts(other.id, new Date('2026-06-16T15:01:00Z'), { beerTypes: ['Altbier'], location: 'Somewhere new', hasMusic: true, beerCount: 1, duration: 60 }));
    await service.publish('place.review.created.v1', { reviewId: crypto.randomUUID(), barId: crypto.randomUUID(), userId: other.id, createdAt: '2026-06-16T15:01:00Z' });
    await service.publish('media.photo.stored.v1', { photoId: crypto.randomUUID(), userId: other.id, albumId: crypto.randomUUID(), key: 'k' }, new Date('2026-06-16T15:01:00Z'));
    expect(ok<Challenge>(await other.get(`/api/challenges/${challenge.id}`)).progress).toBe(0);
  });
});
