import { exportPart, type ExportPart } from '@hoptrack/proto';
import {
  anyErased,
  ensureStreams,
  EXPORTING_SERVICES,
  exportPartName,
  exportParts,
  queuePurges,
  startConsumer,
  type Bus,
  type ExportingService,
  type Logger,
  type Outbox,
  type RunningConsumer,
} from '@hoptrack/runtime';
import type { PrismaClient } from '../db';
import { exportAssembliesRepository, type AssemblyRow } from '../repositories/export-assemblies.repository';
import { locksRepository } from '../repositories/locks.repository';
import type { ObjectStore } from '../storage/object-store';
import { deleteExpiredExports } from './expiry';
import { zipSize, zipStream, type ZipEntry } from './zip';

/** Where an export's zip is stored (and served from, with a signature made for its owner). */
export const exportKey = (userId: string, exportId: string) => `exports/${userId.toLowerCase()}/${exportId.toLowerCase()}.zip`;

/** How long building one zip may take (reading every original, writing the zip) before it is given up and retried. */
const ASSEMBLY_TIMEOUT_MS = 15 * 60_000;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/**
 * Whether `key` is one of `userId`'s own files that an export may copy: an
 * album original, a profile picture or a session photo stored as theirs. A
 * part naming anything else (another person's file, a thumbnail, a key with
 * odd segments) gets nothing copied for it.
 */
export function isOwnFile(userId: string, key: string): boolean {
  const id = userId.toLowerCase();
  if (!new RegExp(`^${UUID}$`).test(id)) return false;
  return new RegExp(`^(?:originals|uploads|avatars)/${id}/[0-9A-Za-z][0-9A-Za-z._-]{0,127}$`).test(key);
}

/** A part's file path as a safe relative path of the zip (no absolute paths, no '..', no control characters), or null. */
export function safeZipPath(path: string): string | null {
  const segments = path
    .split(/[\\/]+/)
    .map((segment) => segment.replace(/[\u0000-\u001f\u007f]/g, '').trim())
    .filter((segment) => segment !== '' && segment !== '.' && segment !== '..');
  const joined = segments.join('/');
  return joined && Buffer.byteLength(joined) <= 1024 ? joined : null;
}

/** `path`, or `name-2.ext`, `name-3.ext`… when it is taken. */
function unique(path: string, taken: Set<string>): string {
  let candidate = path;
  const dot = path.lastIndexOf('.');
  const [stem, ext] = dot > path.lastIndexOf('/') + 1 ? [path.slice(0, dot), path.slice(dot)] : [path, ''];
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem}-${n}${ext}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

const DESCRIPTIONS: Record<ExportingService, string> = {
  auth: 'your account: profile, e-mail address, privacy settings, exports',
  'social-graph': 'friends, friend requests, blocks and mutes',
  sessions: 'your sessions with the likes, comments and reactions on them, and those you left',
  messaging: 'your conversations and messages',
  media: 'your photo albums and their photos, your profile picture',
  places: 'your reviews and votes',
  notifications: 'your notifications and notification settings',
  challenges: 'your challenges, participations and invitations',
};

function readme(userId: string, at: Date, missing: number): string {
  const lines = [
    'Your Hoptrack data',
    '==================',
    '',
    `Exported ${at.toISOString()} for account ${userId}.`,
    '',
    'Each .json file holds what one part of Hoptrack keeps about you, as you may see it',
    '(plain JSON, dates in ISO 8601, UTC):',
    '',
    ...EXPORTING_SERVICES.map((service) => `  ${service}.json: ${DESCRIPTIONS[service]}`),
    '',
    'The folders hold your own files as you uploaded them: photos/<album>/ the originals',
    'of your album photos, profile-picture.* your profile picture, and the files other',
    'parts list (e.g. session-photos/). The .json files name each file by its path here.',
  ];
  if (missing > 0) lines.push('', `${missing} listed file${missing === 1 ? ' was' : 's were'} deleted before the export was made and ${missing === 1 ? 'is' : 'are'} not included.`);
  return `${lines.join('\n')}\n`;
}

export interface AssemblerDeps {
  bus: Bus;
  prisma: PrismaClient;
  store: ObjectStore;
  outbox: Outbox;
  /** Pokes the outbox relay once the ready event is committed. */
  onEventsCommitted: () => void;
  logger: Logger;
  /** How long a zip is kept once built (EXPORT_TTL_HOURS); the person's next export replaces it sooner. */
  ttlMs: number;
  clock?: () => Date;
}

/**
 * Media's side of a data export (issue 24): records each contribution, and
 * once every service's part is in, builds the zip once, stores it at
 * exports/<user>/<export>.zip, deletes the parts, and announces
 * user.export.ready.v1 through the outbox. A person keeps one zip: the new
 * one replaces their earlier ones, which are deleted once it is in (issue
 * 39: seven exports in a row kept seven copies of every original photo).
 */
export class ExportAssembler {
  private readonly clock: () => Date;

  constructor(private readonly deps: AssemblerDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  /** One contribution (user.export.contributed.v1): recorded, and the zip built when it was the last one. */
  async contributed(exportId: string, userId: string, service: string, requestId?: string): Promise<'recorded' | 'assembled' | 'ignored'> {
    const log = this.deps.logger.child({ exportId, service });
    if (!(EXPORTING_SERVICES as readonly string[]).includes(service)) {
      log.warn('contribution from a service that does not export; ignored');
      return 'ignored';
    }
    const row = await this.record(exportId, userId, service);
    if (row === 'erased') {
      await this.deleteParts(exportId);
      return 'ignored';
    }
    if (row.user_id !== userId.toLowerCase()) {
      log.warn({ userId, owner: row.user_id }, 'contribution names another person than the export; ignored');
      return 'ignored';
    }
    if (row.status === 'done') {
      // A part written again after the build (a redelivered request): it goes as the others went.
      await this.deleteParts(exportId);
      return 'recorded';
    }
    if (!EXPORTING_SERVICES.every((s) => row.services.includes(s))) return 'recorded';
    return (await this.assemble(exportId, row.user_id, requestId)) ? 'assembled' : 'recorded';
  }

  /**
   * Adds `service` to the export's row (made by the first contribution). A
   * duplicate leaves the row untouched, without waiting for an assembly
   * holding it. Under the person's files lock, like their erasure: an
   * erased person gets no row back.
   */
  private async record(exportId: string, userId: string, service: string): Promise<AssemblyRow | 'erased'> {
    return this.deps.prisma.$transaction(async (tx) => {
      await locksRepository.filesOf(tx, userId, 'shared');
      if (await anyErased(tx, [userId])) return 'erased' as const;
      const row = await exportAssembliesRepository.recordContribution(tx, exportId, userId, service);
      if (!row) throw new Error(`export ${exportId} has no row after its insert`);
      return row;
    });
  }

  /**
   * Builds the zip unless it is built or being built: the row is taken FOR
   * UPDATE SKIP LOCKED, so a second replica (or a redelivery) finds nothing
   * to take and leaves it; if the builder dies, its transaction ends, its
   * event is redelivered and builds it then. The zip is stored, the row
   * marked done and the ready event written in that transaction, under the
   * person's files lock (shared), so an erasure either waits for it and then
   * removes the zip with the rest, or comes first and nothing is built.
   * The parts go once that is committed (a crash before leaves them to the
   * exports store's TTL), and so do the person's earlier zips, which the same
   * transaction ended (a failure there leaves them to the worker's expiry pass).
   */
  private async assemble(exportId: string, userId: string, requestId?: string): Promise<boolean> {
    const log = this.deps.logger.child({ exportId });
    const key = exportKey(userId, exportId);
    const built = await this.deps.prisma.$transaction(
      async (tx) => {
        await locksRepository.filesOf(tx, userId, 'shared');
        if (await anyErased(tx, [userId])) return null;
        if (!(await exportAssembliesRepository.takeForAssembly(tx, exportId))) return null;
        const { entries, missing } = await this.plan(exportId, userId);
        const size = zipSize(entries);
        await this.deps.store.putStream(key, zipStream(entries), size, 'application/zip');
        const now = this.clock();
        const expiresAt = new Date(now.getTime() + this.deps.ttlMs);
        await exportAssembliesRepository.markDone(tx, exportId, key, size, expiresAt);
        await exportAssembliesRepository.replaceEarlier(tx, userId, exportId, now);
        await this.deps.outbox.enqueue(tx, 'user.export.ready.v1', { exportId, userId, key, size, expiresAt: expiresAt.toISOString() }, requestId);
        return { size, files: entries.length, missing };
      },
      { timeout: ASSEMBLY_TIMEOUT_MS, maxWait: 30_000 },
    );
    if (!built) return false;
    this.deps.onEventsCommitted();
    log.info({ key, bytes: built.size, entries: built.files, missing: built.missing }, 'export assembled');
    await this.deleteParts(exportId).catch((err: unknown) => log.warn({ err }, 'export parts left to the store TTL'));
    await deleteExpiredExports(this.deps.prisma, this.deps.store, this.clock(), userId).catch((err: unknown) =>
      log.warn({ err }, 'earlier zips left to the expiry pass'),
    );
    return true;
  }

  /** Every part, read and checked: a part missing or not what its service said fails the assembly (retried). */
  private async readParts(exportId: string): Promise<Map<ExportingService, ExportPart>> {
    const store = await exportParts(this.deps.bus);
    const parts = new Map<ExportingService, ExportPart>();
    for (const service of EXPORTING_SERVICES) {
      const blob = await store.getBlob(exportPartName(exportId, service));
      if (!blob) throw new Error(`export ${exportId}: the part of ${service} is missing from the exports store`);
      const part = exportPart.parse(JSON.parse(new TextDecoder().decode(blob)));
      if (part.service !== service) throw new Error(`export ${exportId}: the part stored for ${service} says it is ${part.service}'s`);
      parts.set(service, part);
    }
    return parts;
  }

  /**
   * The zip's entries: README.txt, `<service>.json` per part, then every
   * listed file that is the person's own and still stored (sized now; its
   * bytes read when its turn comes).
   */
  private async plan(exportId: string, userId: string): Promise<{ entries: ZipEntry[]; missing: number }> {
    const parts = await this.readParts(exportId);
    const at = this.clock();
    const taken = new Set<string>(['readme.txt', ...EXPORTING_SERVICES.map((s) => `${s}.json`)]);
    const files: ZipEntry[] = [];
    let missing = 0;
    for (const [service, part] of parts) {
      for (const file of part.files) {
        const path = safeZipPath(file.path);
        if (!path || !isOwnFile(userId, file.key)) {
          this.deps.logger.warn({ exportId, service, key: file.key, path: file.path }, 'export file not the person’s own or badly named; not copied');
          continue;
        }
        const size = await this.deps.store.size(file.key);
        if (size === null) {
          missing++;
          continue;
        }
        const key = file.key;
        files.push({
          name: unique(path, taken),
          size,
          modified: at,
          load: async () => {
            const data = await this.deps.store.getBuffer(key);
            if (!data) throw new Error(`export ${exportId}: ${key} went while the zip was being built`);
            return data;
          },
        });
      }
    }
    const text = (name: string, content: string): ZipEntry => {
      const data = Buffer.from(content, 'utf8');
      return { name, size: data.length, modified: at, load: async () => data };
    };
    const json = [...parts].map(([service, part]) => text(`${service}.json`, `${JSON.stringify(part.data ?? null, null, 2)}\n`));
    return { entries: [text('README.txt', readme(userId, at, missing)), ...json, ...files], missing };
  }

  deleteParts(exportId: string): Promise<void> {
    return deleteExportParts(this.deps.bus, exportId);
  }
}

/** Removes an export's parts from the exports store (once its zip is in, or for an erased person). */
export async function deleteExportParts(bus: Bus, exportId: string): Promise<void> {
  const store = await exportParts(bus);
  for (const service of EXPORTING_SERVICES) await store.delete(exportPartName(exportId, service));
}

/**
 * The assembler's consumer of user.export.contributed.v1 (USERS stream), durable
 * `<READ_MODEL_CONSUMER>-export-assembly`. No inbox: recording a contribution is
 * idempotent and the build happens once (see ExportAssembler).
 */
export async function startExportAssembler(options: AssemblerDeps & { durable: string }): Promise<RunningConsumer> {
  const logger = options.logger.child({ component: 'export-assembly' });
  const assembler = new ExportAssembler({ ...options, logger });
  await ensureStreams(options.bus, ['USERS']);
  return startConsumer({
    bus: options.bus,
    stream: 'USERS',
    durable: `${options.durable}-export-assembly`,
    logger,
    // A zip of a lived-in account takes a while; the consumer says it is still working meanwhile.
    ackWaitMs: 120_000,
    handlers: {
      'user.export.contributed.v1': async (event, { message }) => {
        const { exportId, userId, service } = event.data;
        await assembler.contributed(exportId, userId, service, event.requestId);
        // Read, the contribution has no further use, and no outbox row records where it is: its message
        // is queued at once for media's stream purger (runtime bus/purge.ts), not left naming the person.
        await queuePurges(options.prisma, [message]);
      },
    },
  });
}
