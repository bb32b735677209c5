import { freePort, startProcess, type RunningProcess } from './processes';

export interface GatewayOptions {
  /** Defaults to a free port. */
  port?: number;
  /** The operator port (metrics); defaults to a free port. */
  metricsPort?: number;
  /**
   * Added to the gateway's environment, e.g. AUTH_SERVICE_URL,
   * WEB_DIST_DIR, GATEWAY_RATE_LIMIT_MAX, GATEWAY_RATE_LIMIT_PREFIX.
   */
  env?: Record<string, string | undefined>;
  /** Echo its log lines with a [gateway] prefix (the dev stack). */
  echo?: boolean;
  /** Polled until 200; /readyz by default, so Redis (the rate limiter) is connected before the first request. */
  readyPath?: string;
}

/**
 * Starts the real gateway (express-gateway with gateway/config) as a child
 * process, for tests, the e2e stack and `make dev`. It listens on
 * 127.0.0.1 unless env.HOST says otherwise; config hot reload is off.
 */
export async function startGateway(options: GatewayOptions = {}): Promise<RunningProcess> {
  // Metrics on an operator port of their own, never the public one (issue 39): `metricsUrl`.
  const metricsPort = options.metricsPort ?? (await freePort());
  return startProcess({
    name: 'gateway',
    entry: 'gateway/src/server.ts',
    port: options.port ?? (await freePort()),
    metricsPort,
    env: { HOST: '127.0.0.1', EG_DISABLE_CONFIG_WATCH: 'true', GATEWAY_METRICS_PORT: String(metricsPort), ...options.env },
    readyPath: options.readyPath ?? '/readyz',
    echo: options.echo,
  });
}
