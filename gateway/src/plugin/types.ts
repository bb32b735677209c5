import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The shapes express-gateway hands a plugin. It runs on Express 4, but the
 * plugin only relies on what is listed here, so these narrow types stand in
 * for Express's own.
 */

/** An Express request as it reaches a gateway route or a pipeline policy. */
export interface GatewayRequest extends IncomingMessage {
  originalUrl: string;
  /** A body sent without a length, read whole by the body limit (it had to count it): the proxy sends this. */
  heldBody?: Buffer;
  /** The path without the query string. */
  path: string;
  /** The client address, honouring the "trust proxy" setting. */
  ip?: string;
  /** Whether the request came over TLS (itself, or as the trusted proxy in front says). */
  secure?: boolean;
  /** The Express route the request matched (inside a pipeline: the contract's path template). */
  route?: { path?: string };
  /** Set by express-gateway when the request entered a pipeline (with the id it mints for every request). */
  egContext?: { apiEndpoint?: { apiEndpointName?: string }; requestID?: string };
}

export type Next = (err?: unknown) => void;
export type Middleware = (req: GatewayRequest, res: ServerResponse, next: Next) => void;

/** The Express app plugin gateway routes are mounted on (before the pipelines). */
export interface GatewayApp {
  use(handler: Middleware): unknown;
  get(path: string, handler: Middleware): unknown;
  set(setting: string, value: unknown): unknown;
}

export interface ServiceEndpoint {
  url?: string;
  urls?: string[];
}

/** The loaded configuration passed to every policy factory. */
export interface GatewayConfig {
  gatewayConfig: { serviceEndpoints?: Record<string, ServiceEndpoint | undefined> | null };
}

export interface JsonSchema {
  $id: string;
  type: 'object';
  properties: Record<string, object>;
  required?: string[];
}

/**
 * A policy: express-gateway validates each pipeline step's `action` against
 * `schema` (filling defaults), then calls `policy(action, config)` once at
 * start-up for the middleware of that step.
 */
export interface PolicyDefinition<Params> {
  name: string;
  schema: JsonSchema;
  policy(params: Params, config: GatewayConfig): Middleware;
}

export interface PluginContext {
  /** This plugin's entry in system.config.yml, validated against the plugin's schema. */
  settings: Record<string, unknown>;
  registerPolicy<Params>(policy: PolicyDefinition<Params>): void;
  registerGatewayRoute(mount: (app: GatewayApp) => void): void;
}
