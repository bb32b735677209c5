import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROCESS_CONTRACTS, SERVICE_NAMES } from '@hoptrack/proto';
import { describe, expect, it } from 'vitest';
import { PROCESSES } from './catalogue';

const root = path.resolve(__dirname, '../..');

/**
 * The process catalogue (what is built, started and deployed) and the process
 * contracts in proto (what each process publishes and reads) name the same
 * processes, and each entry runs a definition of that name (issue 37, item 5).
 */
describe('the process catalogue', () => {
  const running = PROCESSES.filter((p) => p.kind === 'api' || p.kind === 'worker');

  it('builds and deploys exactly the processes proto has contracts for, in their service\'s folder', () => {
    expect(running.map((p) => p.name).sort()).toEqual(Object.keys(PROCESS_CONTRACTS).sort());
    for (const process of running) {
      const contract = PROCESS_CONTRACTS[process.name as keyof typeof PROCESS_CONTRACTS];
      expect(process.dir, process.name).toBe(`services/${contract.service}`);
      expect(process.kind, process.name).toBe((SERVICE_NAMES as readonly string[]).includes(process.name) ? 'api' : 'worker');
    }
  });

  it('starts each one from its definition, kept beside its entry (service.ts) under the process\'s name', async () => {
    for (const process of running) {
      const folder = path.join(root, process.dir, path.dirname(process.entry));
      expect(readFileSync(path.join(root, process.dir, process.entry), 'utf8'), process.entry).toContain("from './service';");
      const exported = Object.values((await import(path.join(folder, 'service.ts'))) as Record<string, unknown>);
      const definitions = exported.filter((value): value is { name: string; connect: unknown } => typeof value === 'object' && value !== null && 'connect' in value && 'name' in value);
      expect(definitions.map((d) => d.name), `${process.name}'s service.ts`).toEqual([process.name]);
    }
  });
});
