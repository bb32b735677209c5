import { readFile } from 'node:fs/promises';
import { eventSchemas, PROCESS_CONTRACTS, type EventType } from '@hoptrack/proto';
import { describe, expect, it } from 'vitest';
import { ARCHITECTURE_FILE, eventCatalogue, payloadOf, processTable, withCatalogue } from './event-catalogue';

/** Issue 37, item 6: the event table in docs/architecture.md is generated from the declarations, and current. */
describe('the event catalogue', () => {
  it('in docs/architecture.md is what `npm run generate:event-catalogue` writes now', async () => {
    const committed = await readFile(ARCHITECTURE_FILE, 'utf8');
    expect(committed, 'docs/architecture.md\'s event catalogue is stale: run `npm run generate:event-catalogue`').toBe(withCatalogue(committed));
  });

  it('is one table with a row for every event type, each with a publisher', () => {
    const table = eventCatalogue();
    expect(table.split('\n').some((line) => line.trim() === '')).toBe(false);
    for (const type of Object.keys(eventSchemas) as EventType[]) {
      const row = table.split('\n').find((line) => line.startsWith(`| \`${type}\` |`));
      expect(row, type).toBeDefined();
      expect(row?.split(' | ')[2], `${type} has no publisher`).not.toBe('—');
    }
  });

  it('lists every consumer a process contract declares (the control: the fan-out worker reads session.created.v1)', () => {
    const row = eventCatalogue().split('\n').find((line) => line.startsWith('| `session.created.v1` |')) ?? '';
    const consumers = row.split(' | ')[3]?.split(', ') ?? [];
    expect(consumers).toContain('sessions-fanout');
    expect(consumers.sort()).toEqual(
      Object.entries(PROCESS_CONTRACTS)
        .filter(([, contract]) => (contract.consumes as readonly string[]).includes('session.created.v1'))
        .map(([name]) => name)
        .sort(),
    );
  });

  it('names every process with a contract, its role and its lifecycle parts', () => {
    const table = processTable();
    for (const [name, contract] of Object.entries(PROCESS_CONTRACTS)) expect(table, name).toContain(`| ${name} | ${contract.service} | ${contract.role} |`);
    expect(table).toContain('| places | places | bars, beers, reviews | erase, export |');
  });

  it('reads a payload from its schema, optional fields marked', () => {
    expect(payloadOf(eventSchemas['session.created.v1'])).toContain('title?');
    expect(payloadOf(eventSchemas['user.deleted.v1'])).toBe('{userId}');
  });
});
