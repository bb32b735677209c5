import { promises as dns } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { Gauge } from 'prom-client';
import { logger } from './logger';
import { registry } from './observe';

/**
 * The instances of one service and which of them may take requests. Each
 * instance's /readyz is polled; an instance that answers anything but 200
 * (it is draining before a restart, or lost its database) or cannot be
 * reached leaves the rotation until a poll finds it ready again. A failed
 * connection takes it out at once, without waiting for the next poll.
 *
 * An address given by name (`http://auth:4001` in compose, a headless
 * Service in Kubernetes) stands for every instance the name resolves to:
 * each poll looks the name up again, so replicas that come and go join and
 * leave the rotation on their own.
 *
 * Several gateways poll independently; none needs to agree with another.
 */
export interface Upstream {
  url: string;
  ready: boolean;
}

export interface UpstreamPoolOptions {
  /** How often each instance's readiness is asked; the drain time of a service must exceed it. */
  intervalMs: number;
  /** A readiness answer slower than this counts as not ready. */
  timeoutMs: number;
}

export class UpstreamPool {
  upstreams: Upstream[];
  private next = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly sources: URL[];
  /** The last addresses each configured URL resolved to. */
  private readonly resolved = new Map<string, string[]>();

  constructor(
    readonly service: string,
    urls: readonly string[],
    private readonly options: UpstreamPoolOptions,
  ) {
    this.sources = urls.map((url) => new URL(url));
    // Ready until shown otherwise: a gateway starting beside running services
    // serves at once, and the first poll follows immediately.
    this.upstreams = this.sources.map((url) => ({ url: origin(url), ready: true }));
  }

  /**
   * The next ready instance, round-robin, skipping `except` (the one a retry
   * just failed on). With none ready, any instance: a wrong readiness answer
   * must not turn into an outage, and the service will answer for itself.
   */
  pick(except?: Upstream): Upstream {
    const candidates = this.upstreams.filter((u) => u !== except);
    const ready = candidates.filter((u) => u.ready);
    const from = ready.length > 0 ? ready : candidates.length > 0 ? candidates : this.upstreams;
    return from[this.next++ % from.length] as Upstream;
  }

  /** A connection to it failed: out of the rotation until a poll says otherwise. */
  markDown(upstream: Upstream, reason: string): void {
    if (!upstream.ready) return;
    upstream.ready = false;
    logger.warn({ upstream: this.service, instance: upstream.url, reason }, 'instance out of rotation');
  }

  start(): void {
    if (this.timer || this.upstreams.length === 0) return;
    const poll = () => void this.resolve().then(() => Promise.all(this.upstreams.map((u) => this.check(u))));
    poll();
    this.timer = setInterval(poll, this.options.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Names to addresses: the instances behind each configured URL, now. */
  private async resolve(): Promise<void> {
    const lists = await Promise.all(
      this.sources.map(async (source) => {
        const host = source.hostname.replace(/^\[|\]$/g, '');
        if (isIP(host) !== 0 || host === 'localhost') return [origin(source)];
        try {
          const found = (await dns.resolve4(host)).map((address) => origin(source, address));
          this.resolved.set(source.href, found);
          return found;
        } catch {
          // No answer (a name only /etc/hosts knows, DNS away): what was known, else the name itself.
          return this.resolved.get(source.href) ?? [origin(source)];
        }
      }),
    );
    const urls = [...new Set(lists.flat())];
    if (urls.length === 0) return;
    const known = new Map(this.upstreams.map((u) => [u.url, u]));
    // An instance seen for the first time waits for its readiness answer (the check right after).
    this.upstreams = urls.map((url) => known.get(url) ?? { url, ready: false });
  }

  private async check(upstream: Upstream): Promise<void> {
    const ready = await readinessOf(upstream.url, this.options.timeoutMs);
    if (ready !== upstream.ready) {
      logger.info({ upstream: this.service, instance: upstream.url, ready }, ready ? 'instance back in rotation' : 'instance out of rotation');
    }
    upstream.ready = ready;
  }
}

/** One pool per service endpoint, shared by every pipeline that proxies to it. */
const pools = new Map<string, UpstreamPool>();

/** Which instances take requests, as this gateway sees them: 1 in rotation, 0 out. */
new Gauge({
  name: 'gateway_upstream_ready',
  help: 'Whether an instance of a service is in this gateway’s rotation (1) or out of it (0)',
  labelNames: ['upstream', 'instance'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const pool of pools.values()) for (const u of pool.upstreams) this.set({ upstream: pool.service, instance: u.url }, u.ready ? 1 : 0);
  },
});

export function poolFor(service: string, urls: readonly string[], options: UpstreamPoolOptions): UpstreamPool {
  let pool = pools.get(service);
  if (!pool) {
    pool = new UpstreamPool(service, urls, options);
    pools.set(service, pool);
    pool.start();
  }
  return pool;
}

export function stopPools(): void {
  for (const pool of pools.values()) pool.stop();
}

/** `http://auth:4001/` → `http://auth:4001`, or with the host replaced by one of its addresses. */
function origin(url: URL, address?: string): string {
  return `${url.protocol}//${address ?? url.hostname}${url.port ? `:${url.port}` : ''}`;
}

/**
 * GET <instance>/readyz over one kept-alive connection per instance: a poll
 * every 500 ms to every instance over a new TCP connection each time was
 * 5.6 % of an idle gateway's CPU (issue 41). One socket per instance idles
 * between polls (`maxFreeSockets: 1`); a service closing (draining, a
 * restart) closes it, and the next poll opens another. No cap on sockets in
 * use: a hanging instance must not queue the next polls behind its timeout.
 */
const readinessAgents = { http: new http.Agent({ keepAlive: true, maxFreeSockets: 1 }), https: new https.Agent({ keepAlive: true, maxFreeSockets: 1 }) };

function readinessOf(base: string, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const secure = base.startsWith('https:');
    const client = secure ? https : http;
    const agent = secure ? readinessAgents.https : readinessAgents.http;
    const req = client.get(`${base}/readyz`, { agent, timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.once('timeout', () => req.destroy(new Error('readiness timeout')));
    req.once('error', () => resolve(false));
  });
}
