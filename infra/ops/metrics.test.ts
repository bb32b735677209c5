import { eventually } from '@hoptrack/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, expectApi, logSessionViaApi, makeFriends, registerUser, waitForMessagingUser } from '@hoptrack/testing/api';
import { startStack, type Stack } from '@hoptrack/testing/stack';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { loadAlerts, loadDashboards, metricNamesOf } from './promql';
import { PROMETHEUS_DIR, prometheusInstalled, startPrometheus, type RunningPrometheus } from './prometheus';

/**
 * The operators' view, end to end: Debian's Prometheus with
 * infra/prometheus/prometheus.yml (targets moved to the local ports) scrapes
 * the stack started as `make dev` starts it; after some traffic every key
 * metric the dashboards and alerts use must be there. `make test` installs
 * the package first (infra/scripts/ensure-tools.sh); without it this file
 * fails rather than skips, so the operators' view is never silently untested.
 */
if (!prometheusInstalled()) {
  throw new Error('prometheus is not installed: run `make test` (it installs it) or `apt-get install --no-install-recommends prometheus`');
}

/** Every process the stack runs, as prometheus.yml names its jobs. */
const JOBS = [
  'gateway',
  'auth',
  'social-graph',
  'media',
  'places',
  'sessions',
  'messaging',
  'notifications',
  'challenges',
  'media-worker',
  'sessions-fanout',
  'queue-board',
];

/** The metrics the issue names, by the names our processes give them. */
export const KEY_METRICS = [
  'up',
  // HTTP rate, latency and errors by route (status_code label), every process.
  'http_request_duration_seconds_bucket',
  'http_request_duration_seconds_count',
  // Events published and consumed per type, consumer lag and redeliveries.
  'bus_events_published_total',
  'bus_events_consumed_total',
  'bus_event_handler_duration_seconds_bucket',
  'bus_consumer_pending_events',
  'bus_consumer_ack_pending_events',
  'bus_consumer_redelivered_events',
  'bus_stream_messages',
  'outbox_pending_events',
  // Queues: depth, active, failed; job duration (thumbnails, fan-out batches, mail, the daily challenges); fan-out lag.
  'bullmq_jobs',
  'bullmq_job_duration_seconds_bucket',
  'feed_fanout_lag_seconds_bucket',
  // Live messaging.
  'messaging_live_streams',
  // Node process metrics.
  'process_cpu_seconds_total',
  'process_resident_memory_bytes',
  'nodejs_eventloop_lag_seconds',
  'nodejs_heap_size_used_bytes',
];

describe('metrics of every process, scraped by Prometheus', () => {
  let stack: Stack;
  let prometheus: RunningPrometheus;

  beforeAll(async () => {
    stack = await startStack({ serveWeb: false });
    // The gateway's metrics are on its operator port, never its public one (issue 39).
    const targets: Record<string, string> = { gateway: new URL(stack.gateway.metricsUrl).host };
    for (const [name, proc] of Object.entries(stack.services)) targets[name] = `127.0.0.1:${proc.port}`;
    prometheus = await startPrometheus(targets);
  });
  afterAll(async () => {
    await prometheus?.stop();
    await stack?.stop();
  });

  it('finds every target up', async () => {
    await eventually(async () => {
      const targets = await prometheus.targets();
      return targets.length === JOBS.length && targets.every((t) => t.health === 'up');
    }, 'every target up', 30_000).catch(async (err: unknown) => {
      throw new Error(`${String(err)}: ${JSON.stringify(await prometheus.targets())}`);
    });
    expect((await prometheus.targets()).map((t) => t.job).sort()).toEqual([...JOBS].sort());
  });

  it('holds the key metrics after some traffic', { timeout: 120_000 }, async () => {
    const { baseUrl } = stack;
    const alice = await registerUser(baseUrl, 'opsalice');
    const bob = await registerUser(baseUrl, 'opsbob');
    await makeFriends(baseUrl, alice, bob);
    // A session: its fan-out reaches bob's timeline (feed lag, the fan-out consumer's handler duration).
    await logSessionViaApi(baseUrl, alice, { title: 'Metrics stout' });
    // A photo: the thumbnail worker's job.
    const album = (await expectApi(baseUrl, alice.token, 'POST', '/api/albums', { name: 'Ops' }, 201)) as { id: string };
    const form = new FormData();
    const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#b60' } }).jpeg().toBuffer();
    form.append('photos', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'ops.jpg');
    const upload = await fetch(`${baseUrl}/api/albums/${album.id}/photos`, { method: 'POST', headers: { Authorization: `Bearer ${alice.token}` }, body: form });
    expect(upload.status, await upload.clone().text()).toBe(201);
    // A message, and requests to the other services.
    await waitForMessagingUser(baseUrl, alice, bob);
    await expectApi(baseUrl, alice.token, 'POST', '/api/messages', { toUserId: bob.id, content: 'Metrics, cheers' }, 201);
    await expectApi(baseUrl, alice.token, 'GET', '/api/bars/nearby?lat=45.52&lng=-122.68');
    // The friend request and the message made notifications; bob reads his count.
    await expectApi(baseUrl, bob.token, 'GET', '/api/notifications/unread-count');
    // Alice invites bob to one of today's challenges (challenge.invited.v1); the challenges service
    // learns of their friendship by events, so the invitation is tried until it knows.
    const [challenge] = (await expectApi(baseUrl, alice.token, 'GET', '/api/challenges')) as Array<{ id: string }>;
    if (!challenge) throw new Error('no challenge today');
    await eventually(
      async () => (await callApi(baseUrl, alice.token, 'POST', `/api/challenges/${challenge.id}/invitations`, { friendId: bob.id })).status === 201,
      'alice invites bob to a challenge',
      15_000,
    );
    expect((await callApi(baseUrl, alice.token, 'GET', '/api/no-such-route')).status).toBe(404);

    await eventually(
      async () => {
        const names = new Set(await prometheus.metricNames());
        return KEY_METRICS.every((name) => names.has(name));
      },
      'key metrics scraped',
      60_000,
    ).catch(async (err: unknown) => {
      const names = new Set(await prometheus.metricNames());
      throw new Error(`${String(err)}; missing: ${KEY_METRICS.filter((n) => !names.has(n)).join(', ')}`);
    });

    const jobsWith = async (expr: string) => [...new Set((await prometheus.query(`count by (job) (${expr})`)).map((r) => r.metric.job ?? ''))].sort();
    /** Scrapes come every second: wait for the jobs to show up, then compare. */
    const expectJobs = async (expr: string, jobs: string[], exact = true) => {
      const matches = (seen: string[]) => (exact ? seen.join() === [...jobs].sort().join() : jobs.every((j) => seen.includes(j)));
      await eventually(async () => matches(await jobsWith(expr)), `${expr} from ${jobs.join(', ')}`).catch(() => undefined);
      const seen = await jobsWith(expr);
      if (exact) expect(seen, expr).toEqual([...jobs].sort());
      else expect(seen, expr).toEqual(expect.arrayContaining(jobs));
    };
    // HTTP and process metrics on every process, the gateway included.
    await expectJobs('http_request_duration_seconds_count', JOBS);
    await expectJobs('process_cpu_seconds_total', JOBS);
    // Every consumer process reports what it consumed and its lag.
    const consumers = ['social-graph', 'media', 'places', 'sessions', 'messaging', 'notifications', 'challenges', 'media-worker', 'sessions-fanout'];
    await expectJobs('bus_events_consumed_total', consumers);
    // Auth consumes too since issue 24 (erasure reports, exports), none of which this traffic makes: its lag only.
    await expectJobs('bus_consumer_pending_events', [...consumers, 'auth']);
    // Every publisher reports what it published (places publishes only reviews' events, which this
    // traffic does not write). The media service and
    // its worker share one outbox, and either relay may publish a row first (SKIP LOCKED), so the
    // photo's events are counted by one of the two, not necessarily by both (CI saw media miss out).
    await expectJobs('bus_events_published_total', ['auth', 'social-graph', 'sessions', 'messaging', 'notifications', 'challenges'], false);
    const mediaPublishers = async () => (await jobsWith('bus_events_published_total')).filter((job) => job === 'media' || job === 'media-worker');
    await eventually(async () => (await mediaPublishers()).length > 0, 'the photo events published').catch(() => undefined);
    expect((await mediaPublishers()).length, 'media or media-worker published the photo events').toBeGreaterThan(0);
    // The queues this traffic gives work ran jobs; the fan-out measured its lag (an empty histogram is exported too: wait for a count).
    // Bob alone is alice's audience: one batch, which the fan-out's consumer writes itself (issue 41), so the
    // feed-fanout queue, which runs only a bigger audience's next batches, has none; the consumer's handler timing does.
    const queuesRun = async () => [...new Set((await prometheus.query('count by (queue) (bullmq_job_duration_seconds_count)')).map((r) => r.metric.queue))].sort();
    const fannedOut = async () => Number((await prometheus.query('sum(feed_fanout_lag_seconds_count)'))[0]?.value[1] ?? 0);
    const fanoutHandled = async () =>
      Number((await prometheus.query('sum(bus_event_handler_duration_seconds_count{job="sessions-fanout",type="session.created.v1"})'))[0]?.value[1] ?? 0);
    // The friend request's notification mail (the stack mails to its SMTP catcher, a 1 s window), the photo's
    // thumbnail, and the daily challenges, whose repeatable job runs once as the challenges service starts.
    await eventually(async () => (await queuesRun()).length === 3 && (await fannedOut()) > 0 && (await fanoutHandled()) > 0, 'every queue ran a job', 30_000).catch(() => undefined);
    expect(await queuesRun()).toEqual(['challenges-daily', 'notification-mail', 'thumbnails']);
    expect(await fannedOut()).toBeGreaterThan(0);
    expect(await fanoutHandled()).toBeGreaterThan(0);
    // The gateway labels requests by service route, never by raw path.
    const gatewayRoutes = async () => new Set((await prometheus.query('count by (route) (http_request_duration_seconds_count{job="gateway"})')).map((r) => r.metric.route));
    const wanted = ['auth', 'social-graph', 'sessions', 'media', 'messaging', 'notifications', 'challenges', 'places', 'unknownApi'];
    await eventually(async () => {
      const routes = await gatewayRoutes();
      return wanted.every((r) => routes.has(r));
    }, 'gateway routes scraped', 20_000).catch(() => undefined);
    const routes = await gatewayRoutes();
    for (const route of wanted) expect(routes.has(route), `gateway route ${route}`).toBe(true);
    for (const route of routes) expect(route).not.toMatch(/\//);
  });

  // After the traffic test: every name a dashboard or an alert reads must be one the stack exported.
  it('has every metric the Grafana dashboards and the alert rules query', async () => {
    const exported = new Set(await prometheus.metricNames());
    const missing: string[] = [];
    for (const { file, dashboard } of loadDashboards()) {
      for (const panel of dashboard.panels) {
        for (const target of panel.targets ?? []) {
          for (const name of metricNamesOf(target.expr ?? '')) if (!exported.has(name)) missing.push(`${file} '${panel.title}': ${name}`);
        }
      }
    }
    for (const { alert, expr } of loadAlerts()) {
      for (const name of metricNamesOf(expr)) if (!exported.has(name)) missing.push(`alert ${alert}: ${name}`);
    }
    expect(missing).toEqual([]);
    // And Prometheus itself accepts the rules file.
    execFileSync('promtool', ['check', 'rules', path.join(PROMETHEUS_DIR, 'alerts.yml')], { stdio: 'pipe' });
  });
});
