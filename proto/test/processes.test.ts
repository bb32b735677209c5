import { describe, expect, it } from 'vitest';
import { ERASING_SERVICES, eventSchemas, EXPORTING_SERVICES, PROCESS_CONTRACTS, SERVICE_NAMES, streamOf, type EventType } from '../src/index';

/** The process contracts' own rules (issue 37, item 5): the runtime holds each process to its contract; these hold the table together. */
describe('the process contracts', () => {
  const contracts = Object.entries(PROCESS_CONTRACTS);
  const published = new Set<string>(contracts.flatMap(([, c]) => c.publishes));

  it('give every event type a publisher, and every consumed type is published by someone', () => {
    for (const type of Object.keys(eventSchemas)) expect(published.has(type), `${type} has no publisher`).toBe(true);
    for (const [name, contract] of contracts) {
      for (const type of contract.consumes) expect(published.has(type), `${name} consumes ${type}, which nobody publishes`).toBe(true);
    }
  });

  it('consume only what a durable consumer can read: events stored in a stream', () => {
    for (const [name, contract] of contracts) for (const type of contract.consumes) expect(streamOf(type as EventType), `${name}: ${type}`).not.toBeNull();
  });

  it('belong to a service each, and every service has its own', () => {
    for (const [, contract] of contracts) expect(SERVICE_NAMES).toContain(contract.service);
    for (const service of SERVICE_NAMES) expect(Object.keys(PROCESS_CONTRACTS)).toContain(service);
  });

  it('derive the erasing and exporting services from the promised lifecycle parts, and such a part reads its request', () => {
    expect([...ERASING_SERVICES].sort()).toEqual(['challenges', 'media', 'messaging', 'notifications', 'places', 'sessions', 'social-graph']);
    expect(EXPORTING_SERVICES).toContain('auth');
    for (const name of ERASING_SERVICES) expect(PROCESS_CONTRACTS[name].consumes).toContain('user.deleted.v1');
    for (const name of ERASING_SERVICES) expect(PROCESS_CONTRACTS[name].publishes).toContain('user.erased.v1');
    for (const name of EXPORTING_SERVICES) expect(PROCESS_CONTRACTS[name].consumes).toContain('user.export.requested.v1');
  });

  it('find an event\'s stream by its subject', () => {
    expect(streamOf('session.liked.v1')).toBe('SESSIONS');
    expect(streamOf('user.export.ready.v1')).toBe('USERS');
    expect(streamOf('presence.changed.v1')).toBeNull();
  });
});
