/**
 * The few parts of express-gateway (plain JavaScript, no bundled types) the
 * gateway touches, typed as narrowly as we use them.
 */

declare module 'express-gateway' {
  import type { Server } from 'node:http';

  interface Gateway {
    /** The folder holding gateway.config.yml, system.config.yml and models/. */
    load(configDir: string): Gateway;
    /** Resolves once every configured server listens: [gateway servers, admin (undefined when disabled)]. */
    run(): Promise<[{ app?: Server; httpsApp?: Server }, unknown]>;
  }

  function createGateway(): Gateway;
  export = createGateway;
}

/** express-gateway's shared ioredis (v4) client, configured by system.config.yml `db.redis`. */
declare module 'express-gateway/lib/db' {
  interface EgRedis {
    readonly status: string;
    ping(): Promise<string>;
    /**
     * A Lua script as a command of the client: sent as EVALSHA (its SHA-1,
     * not its text), and as EVAL once should Redis answer NOSCRIPT.
     */
    defineCommand(name: string, definition: { numberOfKeys: number; lua: string }): void;
    /** Commands queued and sent in one write; the defined commands are methods of it too. */
    pipeline(): EgPipeline;
    quit(): Promise<string>;
  }
  interface EgPipeline {
    exec(): Promise<Array<[Error | null, unknown]> | null>;
  }
  const db: EgRedis;
  export = db;
}

/** express-gateway's winston loggers, one per component. */
declare module 'express-gateway/lib/logger' {
  interface WinstonInfo {
    level: string;
    message: unknown;
    [key: string | symbol]: unknown;
  }
  interface WinstonFormat {
    transform(info: WinstonInfo): WinstonInfo | false;
  }
  interface WinstonLogger {
    format: WinstonFormat;
  }
  const loggers: Record<string, WinstonLogger | ((label: string) => WinstonLogger)>;
  export = loggers;
}

/** express-gateway's configuration, loaded once from EG_CONFIG_DIR when first required (and read by run()). */
declare module 'express-gateway/lib/config' {
  interface EgConfig {
    gatewayConfig: {
      apiEndpoints?: Record<string, unknown> | null;
      pipelines?: Record<string, { apiEndpoints?: string[] } | undefined> | null;
    };
  }
  const config: EgConfig;
  export = config;
}
