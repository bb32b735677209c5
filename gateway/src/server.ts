import path from 'node:path';
import type { Server } from 'node:http';
import createGateway from 'express-gateway';
import { expressGatewayLogsAsJson, logger } from './plugin/logger';
import { exitWithParent } from '@hoptrack/runtime/parent-watch';
import { redisEnvFromUrl } from './redis-env';
import { routeByContracts } from './routes';

/**
 * Starts express-gateway on config/ (gateway.config.yml, system.config.yml).
 * Everything it does is declared there and in the plugin (src/plugin);
 * this file only prepares the environment the YAML reads and stops cleanly.
 */

const SHUTDOWN_GRACE_MS = 10_000;

// Hot reload would mount the plugin's gateway routes a second time; a
// config change is a restart.
process.env.EG_DISABLE_CONFIG_WATCH ??= 'true';
redisEnvFromUrl(process.env);
// express-gateway requires its plugin by path (system.config.yml): the one built
// beside this file, so compiled runs compiled and source runs source.
process.env.GATEWAY_PLUGIN = path.join(__dirname, 'plugin', `index${path.extname(__filename)}`);
expressGatewayLogsAsJson();

/** As the services (runtime config SHUTDOWN_DRAIN_MS): serve on while the edge takes this gateway out. */
const DRAIN_MS = Number(process.env.SHUTDOWN_DRAIN_MS ?? 2000);

function stopOnSignal(server: Server): void {
  const stop = (signal: NodeJS.Signals) => {
    // The plugin answers 503 on /readyz and `Connection: close` meanwhile (plugin/draining.ts).
    // Sockets left idle are not cut: closing one as a client reuses it fails that request.
    // The drain outlasts the keep-alive timeout the gateway announces (5 s), so every client
    // has dropped its idle socket itself before the listener closes.
    const drainMs = signal === 'SIGTERM' ? Math.max(DRAIN_MS, server.keepAliveTimeout + 1000) : 0;
    logger.info({ signal, drainMs }, 'gateway stopping: draining');
    setTimeout(() => {
      // close() stops accepting and drops idle keep-alive sockets; requests in
      // flight finish unless they outlast the grace period.
      server.close(() => process.exit(0));
      setTimeout(() => {
        server.closeAllConnections();
        process.exit(0);
      }, SHUTDOWN_GRACE_MS).unref();
    }, drainMs);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

const CONFIG_DIR = path.resolve(__dirname, '../config');

/**
 * express-gateway reads its configuration once, into a module it keeps
 * (lib/config); the routing is added there from the contract table before
 * the gateway starts on it (routes.ts).
 */
function loadConfigRoutedByContracts(): void {
  process.env.EG_CONFIG_DIR = CONFIG_DIR;
  const loaded = require('express-gateway/lib/config') as typeof import('express-gateway/lib/config');
  const endpoints = routeByContracts(loaded.gatewayConfig);
  logger.info({ endpoints: Object.fromEntries(Object.entries(endpoints).map(([name, entries]) => [name, entries.length])) }, 'routes derived from the contracts');
}

// Inside a promise: express-gateway throws synchronously on a bad config.
Promise.resolve()
  .then(() => {
    loadConfigRoutedByContracts();
    return createGateway().load(CONFIG_DIR).run();
  })
  .then(([{ app }]) => {
    if (!app) throw new Error('no http server: gateway.config.yml needs an `http` section');
    logger.info({ address: app.address() }, 'gateway ready');
    stopOnSignal(app);
    exitWithParent();
  })
  .catch((err: unknown) => {
    logger.fatal({ err }, 'gateway failed to start');
    process.exit(1);
  });
