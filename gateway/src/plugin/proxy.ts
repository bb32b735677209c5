import http, { type ClientRequest, type ServerResponse } from 'node:http';
import https from 'node:https';
import httpProxy from 'http-proxy';
import { Readable } from 'node:stream';
import { sendJsonError } from './errors';
import { logger } from './logger';
import { requestIdOf } from './request-id';
import type { GatewayConfig, GatewayRequest, PolicyDefinition } from './types';
import { LIVE_ENDPOINT } from '../routes';
import { poolFor, type Upstream, type UpstreamPool } from './upstreams';

interface ProxyParams {
  serviceEndpoint: string;
  connectTimeoutMs: number;
  timeoutMs: number;
  readinessIntervalMs: number;
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

/**
 * The connection broke after the request went out: the service may have
 * received it. Only an idempotent request is sent again then. (A keep-alive
 * socket the service closed at the very moment it was reused ends this way.)
 */
const BROKEN_AFTER_SENDING = new Set(['ECONNRESET', 'EPIPE']);
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
/** Bodies up to this size are held so a failed attempt can be sent again; uploads stream through once. */
const REPLAY_BODY_BYTES = 64 * 1024;

/** Reused connections to the services: no TCP handshake per API call. */
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
};

/**
 * The live streams' own connections (issue 41: live streams off the request
 * gateway's socket budget). A stream holds its socket to the service for as
 * long as the tab is open, so in the API's pool 256 open tabs on one
 * instance would leave its API calls waiting for a socket that never comes
 * back. Here each stream has a socket of its own, uncapped (one per open
 * tab is what a stream is), and never pooled for reuse.
 */
const streamAgents = {
  http: new http.Agent({ keepAlive: false }),
  https: new https.Agent({ keepAlive: false }),
};

/** Whether the request is a live stream's: routed by the contracts to the live endpoint (routes.ts). */
const isLiveStream = (req: GatewayRequest) => req.egContext?.apiEndpoint?.apiEndpointName === LIVE_ENDPOINT;

/** The agent a request to `target` goes through: the stream's own, or the API's pool. */
function agentFor(req: GatewayRequest, target: string): http.Agent {
  const pool = isLiveStream(req) ? streamAgents : agents;
  return target.startsWith('https:') ? pool.https : pool.http;
}

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

/** The instances of an endpoint (`url` or `urls`), in a readiness-fed pool. */
function poolOf(name: string, config: GatewayConfig, params: ProxyParams): UpstreamPool {
  const endpoint = config.gatewayConfig.serviceEndpoints?.[name];
  const urls = (endpoint?.urls ?? (endpoint?.url ? [endpoint.url] : [])).filter((url) => url.trim() !== '');
  if (urls.length === 0) throw new Error(`service-proxy: serviceEndpoint "${name}" is not defined in gateway.config.yml`);
  return poolFor(name, urls, { intervalMs: params.readinessIntervalMs, timeoutMs: Math.max(params.connectTimeoutMs, 500) });
}

/**
 * The body, when it is small enough to hold (JSON, forms) or absent: `null`
 * means it streams through once (an upload) and the request is not retried.
 */
function replayableBody(req: GatewayRequest): Promise<Buffer | null> {
  // Read already (and counted) by the body limit: a body that came without a length.
  if (req.heldBody) return Promise.resolve(req.heldBody);
  const length = req.headers['content-length'];
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (!chunked && (length === undefined || length === '0')) return Promise.resolve(Buffer.alloc(0));
  if (chunked || Number(length) > REPLAY_BODY_BYTES) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
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
      readinessIntervalMs: { type: 'integer', minimum: 50, default: 500, description: "How often each instance's /readyz is polled" },
    },
    required: ['serviceEndpoint'],
  },
  policy: (params, config) => {
    const service = params.serviceEndpoint;
    const pool = poolOf(service, config, params);
    const proxy = httpProxy.createProxyServer({ xfwd: true });
    proxy.on('proxyReq', (proxyReq, _req, res) => {
      armTimeouts(proxyReq, params);
      endWhenClientLeaves(proxyReq, res);
    });
    // Errors arrive through the per-request callback below; this listener
    // only keeps a stray one from crashing the process.
    proxy.on('error', (err) => logger.error({ err, upstream: service }, 'proxy error outside a request'));

    /**
     * One attempt on one instance. A second attempt goes to another ready
     * instance when the first could not have been acted on: no connection was
     * made (any method), or the connection broke under an idempotent request.
     * Never after the answer started, never twice.
     */
    const attempt = (req: GatewayRequest, res: ServerResponse, body: Buffer | null, upstream: Upstream, retried: boolean) => {
      const target = upstream.url;
      proxy.web(
        req,
        res,
        {
          target,
          agent: agentFor(req, target),
          // A held body is sent from memory (and can be again); otherwise the request streams.
          buffer: body ? Readable.from(body.length > 0 ? [body] : []) : undefined,
        },
        (err) => {
          const code = errorCode(err);
          const notConnected = UNAVAILABLE.has(code);
          if (notConnected) pool.markDown(upstream, code);
          const again =
            !retried &&
            body !== null &&
            !res.headersSent &&
            !res.destroyed &&
            (notConnected || (BROKEN_AFTER_SENDING.has(code) && IDEMPOTENT.has(req.method ?? '')));
          if (again) {
            logger.info({ reqId: requestIdOf(req), upstream: service, instance: target, code }, 'retrying on another instance');
            attempt(req, res, body, pool.pick(upstream), true);
            return;
          }
          answerProxyError(err, req, res, service);
        },
      );
    };

    return (req, res) => {
      replayableBody(req).then(
        (body) => attempt(req, res, body, pool.pick(), false),
        // The client went away while sending: nobody is left to answer.
        () => res.destroy(),
      );
    };
  },
};
