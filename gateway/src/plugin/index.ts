import { bodyLimitPolicy } from './body-limit';
import { closeConnectionsWhileDraining } from './draining';
import { healthRoutes } from './health';
import { apiNotFoundPolicy } from './not-found';
import { DEFAULT_METRICS_PORT, noMetricsOnPublicPort, observeRequests, startOperatorServer } from './observe';
import { serviceProxyPolicy } from './proxy';
import { rateLimitPolicy } from './rate-limit';
import { requestIdPolicy } from './request-id';
import type { GatewayApp, Middleware, PluginContext } from './types';
import { isApiPath, webAppRoute } from './web';
import { API_SECURITY_HEADERS, HSTS } from '@hoptrack/runtime/security-headers';

/**
 * Hoptrack's express-gateway plugin (registered in system.config.yml).
 * Policies are the steps gateway.config.yml composes into /api pipelines;
 * gateway routes are what the gateway answers itself. express-gateway mounts
 * gateway routes before the pipelines, in the order registered here.
 */

/** express-gateway's plugin engine version this plugin was written against. */
export const version = '1.2.0';

interface Settings {
  webDistDir: string | null;
  trustProxy: boolean | number | string;
}

/** The plugin's entry in system.config.yml, already checked against `schema` by express-gateway. */
function readSettings({ webDistDir, trustProxy }: Record<string, unknown>): Settings {
  return {
    webDistDir: typeof webDistDir === 'string' && webDistDir !== '' ? webDistDir : null,
    trustProxy: typeof trustProxy === 'boolean' || typeof trustProxy === 'number' || typeof trustProxy === 'string' ? trustProxy : false,
  };
}

export const schema = {
  $id: 'https://hoptrack.dev/schemas/gateway/plugin.json',
  type: 'object',
  properties: {
    package: { type: 'string' },
    webDistDir: { type: ['string', 'null'], description: 'Built web app; empty or null = not served' },
    trustProxy: { type: ['boolean', 'number', 'string'], default: false, description: 'Express "trust proxy"' },
  },
};

const FORWARDED_HEADERS = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port'];

/**
 * Services trust the left-most X-Forwarded-For entry (runtime TRUST_PROXY),
 * so the gateway makes that entry the real client. Without a trusted proxy
 * in front, X-Forwarded-* from the client is a claim anyone can make: drop
 * it (the proxy then sends the connecting address). Behind a trusted proxy,
 * replace the chain with the address Express resolved from it.
 */
function normaliseForwarding(trustProxy: Settings['trustProxy']): Middleware {
  return (req, _res, next) => {
    if (!trustProxy) for (const name of FORWARDED_HEADERS) delete req.headers[name];
    else if (req.ip) req.headers['x-forwarded-for'] = req.ip;
    next();
  };
}

/**
 * The services' security headers on every /api answer, including the ones the
 * gateway makes itself (404, 413, 429, 502); HSTS on every answer served over
 * TLS (as the trusted proxy in front says).
 */
const apiSecurityHeaders: Middleware = (req, res, next) => {
  if (isApiPath(req.path)) for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) res.setHeader(name, value);
  if (req.secure) res.setHeader('strict-transport-security', HSTS);
  next();
};

export function init(context: PluginContext): void {
  const settings = readSettings(context.settings);

  context.registerPolicy(requestIdPolicy);
  context.registerPolicy(rateLimitPolicy);
  context.registerPolicy(serviceProxyPolicy);
  context.registerPolicy(apiNotFoundPolicy);
  context.registerPolicy(bodyLimitPolicy);

  context.registerGatewayRoute((app: GatewayApp) => {
    app.set('trust proxy', settings.trustProxy);
    app.use(closeConnectionsWhileDraining);
    app.use(normaliseForwarding(settings.trustProxy));
    app.use(apiSecurityHeaders);
    observeRequests(app);
    healthRoutes(app);
    noMetricsOnPublicPort(app);
    webAppRoute(app, settings.webDistDir);
  });
  // Metrics on the operator port only (issue 39), bound where the public port is.
  startOperatorServer(Number(process.env.GATEWAY_METRICS_PORT ?? DEFAULT_METRICS_PORT), process.env.HOST ?? '0.0.0.0');
}
