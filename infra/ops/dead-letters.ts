/**
 * The operator's tool for the dead-letter stream (docs/operations.md,
 * 'Dead letters'): events a consumer could not handle on any delivery.
 *
 *   npm run dead-letters -- list [--limit N]     what is parked, oldest first
 *   npm run dead-letters -- replay <seq>         put one back on its subject (after fixing the cause)
 *   npm run dead-letters -- replay-all [--consumer NAME]
 *   npm run dead-letters -- discard <seq>        drop one that is not worth replaying
 *
 * Reads NATS_URL and BUS_NAMESPACE like the services. In compose:
 *   docker compose exec auth node infra/ops/dist/dead-letters.js list
 */
import { connectBus, createLogger, discardDeadLetter, listDeadLetters, replayDeadLetter, type DeadLetter } from '@hoptrack/runtime';

const [command = 'list', ...rest] = process.argv.slice(2);
const option = (name: string) => {
  const at = rest.indexOf(`--${name}`);
  return at === -1 ? undefined : rest[at + 1];
};
const seqArgument = () => {
  const seq = Number(rest[0]);
  if (!Number.isInteger(seq) || seq <= 0) throw new Error(`${command} needs the dead letter's sequence number (from 'list')`);
  return seq;
};
const line = (l: DeadLetter) =>
  [`#${l.seq}`, l.parkedAt, `consumer=${l.consumer}`, `subject=${l.subject}`, `from=${l.stream}:${l.originalSeq}`, `deliveries=${l.deliveries}`, `error=${JSON.stringify(l.error)}`, `payload=${l.payload.slice(0, 300)}`].join('  ');

const bus = await connectBus({
  url: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  name: 'dead-letters',
  namespace: process.env.BUS_NAMESPACE ?? 'hoptrack',
  logger: createLogger('dead-letters', 'warn'),
});
try {
  switch (command) {
    case 'list': {
      const letters = await listDeadLetters(bus, Number(option('limit') ?? 100));
      for (const letter of letters) console.log(line(letter));
      console.log(`${letters.length} dead letter(s)`);
      break;
    }
    case 'replay':
      console.log(`replayed ${line(await replayDeadLetter(bus, seqArgument()))}`);
      break;
    case 'replay-all': {
      const consumer = option('consumer');
      const letters = (await listDeadLetters(bus, Number.MAX_SAFE_INTEGER)).filter((l) => !consumer || l.consumer === consumer);
      for (const letter of letters) await replayDeadLetter(bus, letter.seq);
      console.log(`replayed ${letters.length} dead letter(s)`);
      break;
    }
    case 'discard':
      await discardDeadLetter(bus, seqArgument());
      console.log('discarded');
      break;
    default:
      throw new Error(`unknown command ${command}: list, replay <seq>, replay-all [--consumer NAME], discard <seq>`);
  }
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
} finally {
  await bus.close();
}
