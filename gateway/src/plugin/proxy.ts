import http, { type ClientRequest, type ServerResponse } from 'node:http';
import https from 'node:https';
import httpProxy from 'http-proxy';
import { sendJsonError } from './errors';
import { logger } from './logger';
import { requestIdOf } from './request-id';
import type { GatewayConfig, GatewayRequest, PolicyDefinition } from './types';

interface ProxyParams {
  serviceEndpoint: string;
  connectTimeoutMs: number;
  timeoutMs: number;
}

/** Our own codes for the two timeouts, so logs and the status mapping can tell them apart. */
const CONNECT_TIMEOUT = 'EGW_CONNECT_TIMEOUT';
const RESPONSE_TIMEOUT = 'EGW_RESPONSE_TIMEOUT';

/**
 * No connection could be made: refused, no such host, no route to it, or no
 * TCP handshake within connectTimeoutMs (a host that drops packets). That is
 * "service unavailable" (503); anything that breaks after connecting is a
 * bad gateway (502).
 */
const UNAVAILABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', CONNECT_TIMEOUT]);

/** Reused connections to the services: no TCP handshake per API call. */
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
};

class ProxyTimeout extends Error {
  constructor(
    readonly code: string,
    ms: number,
  ) {
    super(`${code === CONNECT_TIMEOUT ? 'no connection' : 'no answer'} within ${ms} ms`);
  }
}

function errorCode(err: Error): string {
  return 'code' in err && typeof err.code === 'string' ? err.code : 'UNKNOWN';
}

/** Round-robin over an endpoint's `url` or `urls`. */
function targetsOf(name: string, config: GatewayConfig): () => string {
  const endpoint = config.gatewayConfig.serviceEndpoints?.[name];
  const urls = endpoint?.urls ?? (endpoint?.url ? [endpoint.url] : []);
  if (urls.length === 0) throw new Error(`service-proxy: serviceEndpoint "${name}" is not defined in gateway.config.yml`);
  let next = 0;
  return () => urls[next++ % urls.length] as string;
}

/**
 * Arms both timeouts on the request to the service. The connect timer only
 * runs for a fresh socket (a reused keep-alive socket is already connected);
 * the response timeout is an idle timeout once connected.
 */
function armTimeouts(proxyReq: ClientRequest, { connectTimeoutMs, timeoutMs }: ProxyParams): void {
  const socket = proxyReq.socket;
  if (socket?.connecting && connectTimeoutMs > 0) {
    const timer = setTimeout(() => proxyReq.destroy(new ProxyTimeout(CONNECT_TIMEOUT, connectTimeoutMs)), connectTimeoutMs);
    socket.once('connect', () => clearTimeout(timer));
    proxyReq.once('close', () => clearTimeout(timer));
  }
  if (timeoutMs > 0) {
    proxyReq.setTimeout(timeoutMs, () => proxyReq.destroy(new ProxyTimeout(RESPONSE_TIMEOUT, timeoutMs)));
  }
}

/**
 * Ends the request to the service when the client's side closes first. The
 * client leaving a live stream (GET /api/messages/events) closes only the
 * response: its request was complete, so http-proxy's 'aborted' listener never
 * fires, and without this the socket to the service (and the subscriber the
 * service keeps for it) would stay open for good, one per tab ever opened,
 * until the agent's sockets ran out. A response that finished normally is
 * left alone: its socket goes back to the keep-alive pool.
 */
function endWhenClientLeaves(proxyReq: ClientRequest, res: ServerResponse): void {
  const clientLeft = () => {
    if (!res.writableFinished) proxyReq.destroy();
  };
  // The socket may come from the agent's queue after the client already left.
  if (res.closed) clientLeft();
  else res.once('close', clientLeft);
}

function answerProxyError(err: Error, req: GatewayRequest, res: ServerResponse, service: string): void {
  const code = errorCode(err);
  const unavailable = UNAVAILABLE.has(code);
  const reqId = requestIdOf(req);
  logger.warn({ reqId, upstream: service, code, err: err.message }, unavailable ? 'service unavailable' : 'proxying failed');
  if (res.headersSent) {
    // Part of the service's answer is already out: cut the connection so
    // the client sees a broken response, not a complete-looking one.
    res.destroy();
    return;
  }
  const message = unavailable
    ? `The ${service} service is unavailable`
    : code === RESPONSE_TIMEOUT
      ? `The ${service} service did not answer in time`
      : `The ${service} service failed to answer`;
  sendJsonError(res, unavailable ? 503 : 502, message, reqId);
}

/**
 * Streams the request to the service as it came (path, query, body) and its
 * answer back, with X-Forwarded-For/Proto/Host so the service sees the
 * client. Failures become the uniform JSON 502/503 at once, never a hang.
 */
export const serviceProxyPolicy: PolicyDefinition<ProxyParams> = {
  name: 'service-proxy',
  schema: {
    $id: 'https://hoptrack.dev/schemas/gateway/policies/service-proxy.json',
    type: 'object',
    properties: {
      serviceEndpoint: { type: 'string', description: 'A serviceEndpoints key; also the name in error messages' },
      connectTimeoutMs: { type: 'integer', minimum: 0, default: 800, description: '0 waits for the OS' },
      timeoutMs: { type: 'integer', minimum: 0, default: 30000, description: 'Idle time allowed for the answer; 0 = none' },
    },
    required: ['serviceEndpoint'],
  },
  policy: (params, config) => {
    const service = params.serviceEndpoint;
    const nextTarget = targetsOf(service, config);
    const proxy = httpProxy.createProxyServer({ xfwd: true });
    proxy.on('proxyReq', (proxyReq, _req, res) => {
      armTimeouts(proxyReq, params);
      endWhenClientLeaves(proxyReq, res);
    });
    // Errors arrive through the per-request callback below; this listener
    // only keeps a stray one from crashing the process.
    proxy.on('error', (err) => logger.error({ err, upstream: service }, 'proxy error outside a request'));

    return (req, res) => {
      const target = nextTarget();
      proxy.web(req, res, { target, agent: target.startsWith('https:') ? agents.https : agents.http }, (err) =>
        answerProxyError(err, req, res, service),
      );
    };
  },
};
