import path from 'node:path';
import { repoRoot, startProcess, type RunningProcess } from '@hoptrack/testing/processes';
import { startStack } from '@hoptrack/testing/stack';
import { seedDemoGraph } from './demo-graph';

/**
 * `make dev`: every service and the gateway (as the browser tests start
 * them), plus the Vite dev server proxying /api to the gateway, with
 * prefixed logs. Ctrl-C stops them all.
 */
const gatewayPort = Number(process.env.GATEWAY_PORT ?? 8080);
const webPort = Number(process.env.WEB_PORT ?? 5173);
const webUrl = `http://localhost:${webPort}`;

const stack = await startStack({
  mode: 'dev',
  gatewayPort,
  gatewayMetricsPort: Number(process.env.GATEWAY_METRICS_PORT ?? 9464),
  servicePorts: {
    auth: Number(process.env.AUTH_PORT ?? 4001),
    'social-graph': Number(process.env.SOCIAL_GRAPH_PORT ?? 4002),
    media: Number(process.env.MEDIA_PORT ?? 4003),
    'media-worker': Number(process.env.MEDIA_WORKER_PORT ?? 4013),
    places: Number(process.env.PLACES_PORT ?? 4004),
    sessions: Number(process.env.SESSIONS_PORT ?? 4005),
    messaging: Number(process.env.MESSAGING_PORT ?? 4006),
    notifications: Number(process.env.NOTIFICATIONS_PORT ?? 4007),
    challenges: Number(process.env.CHALLENGES_PORT ?? 4008),
    'sessions-fanout': Number(process.env.SESSIONS_FANOUT_PORT ?? 4015),
    'queue-board': Number(process.env.QUEUE_BOARD_PORT ?? 4020),
  },
  s3Port: Number(process.env.S3_PORT ?? 4569),
  // The local SMTP catcher: every mail the stack sends (resets, notifications) is read at its HTTP port.
  mailPorts: { smtp: Number(process.env.SMTP_PORT ?? 1025), http: Number(process.env.MAIL_PORT ?? 8025) },
  // REPLICAS=2 make dev: two copies of every service and worker (second ones on port + 100).
  replicas: Number(process.env.REPLICAS ?? 1),
  serveWeb: process.env.SERVE_WEB === 'true',
  publicWebUrl: webUrl,
  echo: true,
});

let web: RunningProcess | undefined;
try {
  await seedDemoGraph(stack.baseUrl);
  web = await startProcess({
    name: 'web',
    command: [path.join(repoRoot, 'node_modules/.bin/vite'), '--port', String(webPort), '--strictPort'],
    cwd: path.join(repoRoot, 'web'),
    port: webPort,
    readyPath: '/',
    env: { GATEWAY_URL: stack.baseUrl, WEB_PORT: String(webPort) },
    echo: true,
  });
} catch (err) {
  await stack.stop();
  throw err;
}

process.stdout.write(
  [
    '',
    '  Hoptrack is running.',
    `  Open ${webUrl}`,
    `  API gateway: http://localhost:${gatewayPort}/api   metrics (operator port): ${stack.gateway.metricsUrl.replace('127.0.0.1', 'localhost')}/metrics`,
    `  Queues (Bull Board): ${stack.services['queue-board'].url}/queues   operator / hoptrack-queues`,
    ...(stack.mailUrl ? [`  Mail the stack sent (nothing leaves this machine): ${stack.mailUrl.replace('127.0.0.1', 'localhost')}`] : []),
    '  Demo accounts: alice@hoptrack.dev / bob@hoptrack.dev / carol@hoptrack.dev, password "hoptrack" (alice and bob are friends with sessions in their feeds; carol has asked alice)',
    '  Ctrl-C stops everything.',
    '',
  ].join('\n'),
);

const shutdown = async () => {
  await web?.stop();
  await stack.stop();
  process.exit(0);
};
process.once('SIGINT', () => void shutdown());
process.once('SIGTERM', () => void shutdown());
