import type { ServiceName } from '../contracts/define';
import type { EventType } from '../events';

/**
 * What a process promises the others about events: the types it publishes
 * and the ones its durable consumers read. The event catalogue in
 * docs/architecture.md is generated from these (npm run generate:event-catalogue),
 * and the runtime holds every process to its declaration when it starts: a
 * consumer reading a type its process does not declare stops the start, as a
 * route without a contract does.
 */
export interface ProcessContract {
  /** The service whose code and database the process belongs to. */
  service: ServiceName;
  /** What the process is for, in the catalogue. */
  role: string;
  publishes: readonly EventType[];
  /** Event types read by its durable consumers (ephemeral readers, such as the live hub's, are not promises to anyone). */
  consumes: readonly EventType[];
  /**
   * Its part of an account's lifecycle (issue 24): `erase` — it erases a deleted
   * person and reports user.erased.v1, and auth waits for it; `export` — it adds
   * its part to a person's data export, and media's assembler waits for it.
   */
  lifecycle?: { erase?: true; export?: true };
}

export function defineProcesses<const T extends Record<string, ProcessContract>>(table: T): T {
  return table;
}
