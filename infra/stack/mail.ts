import { startMailCatcher } from '@hoptrack/testing/mail';
import { exitWithParent } from '@hoptrack/runtime/parent-watch';

/** Process entry for `make dev` and the stack tests: the SMTP catcher, SMTP on SMTP_PORT, its messages over HTTP on PORT. */
const catcher = await startMailCatcher({
  smtpPort: Number(process.env.SMTP_PORT ?? 1025),
  httpPort: Number(process.env.PORT ?? 8025),
  host: process.env.HOST ?? '127.0.0.1',
});
process.stdout.write(`${JSON.stringify({ service: 'mail', msg: 'local SMTP catcher listening', smtp: catcher.smtpUrl, messages: catcher.httpUrl })}\n`);
const stop = () => void catcher.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
exitWithParent();
