import {
  GRAPH_EDGE_KINDS,
  GRAPH_SNAPSHOT_PAGE_MAX,
  graphSnapshotPage,
  graphSnapshotRequest,
  type GraphEdgeKind,
  type GraphSnapshotPage,
  type GraphSnapshotRequest,
} from '@hoptrack/proto';
import type { Msg } from 'nats';
import type { Logger } from 'pino';
import type { Bus } from '../bus/connection';
import type { RunningConsumer } from '../bus/consumer';
import type { SqlClient } from '../db/sql';
import { erasedHash } from './erased';

/**
 * A graph read model rebuilt from its owner (issue 38, item 8). A service's
 * copy of the graph (follows, blocks, mutes) is built from social-graph's
 * events; a consumer that was away longer than the SOCIAL stream keeps them
 * missed some, and a missed removal or block is a privacy leak. Replaying
 * cannot help (the events are gone) and asking for the changes since cannot
 * either (a removed friendship leaves no row to announce), so the read model
 * asks social-graph for the whole graph as it is, page by page over NATS
 * request/reply, and replaces its three tables in one transaction: readers
 * see the old graph or the new one, never a half-empty one. The consumer then
 * goes on from the stream's first event; its handlers set each pair's state,
 * so replaying events the snapshot already holds ends where social-graph is.
 */
export const graphSnapshotSubject = (namespace: string): string => `${namespace}.rpc.social.graph-snapshot`;

/** One page of one kind of edge, as social-graph reads it from its tables. */
export type GraphPageReader = (request: GraphSnapshotRequest) => Promise<GraphSnapshotPage>;

/** What a snapshot answer carries when the request could not be served. */
interface SnapshotRefusal {
  error: string;
}

/**
 * Serves the snapshot (social-graph). A queue group, so one copy answers each
 * request; a bad request is answered with its reason, never dropped (the
 * asker would wait out its timeout).
 */
export function serveGraphSnapshot(bus: Bus, read: GraphPageReader, logger: Logger): RunningConsumer {
  const answer = async (msg: Msg) => {
    let reply: GraphSnapshotPage | SnapshotRefusal;
    try {
      const request = graphSnapshotRequest.safeParse(JSON.parse(new TextDecoder().decode(msg.data)));
      reply = request.success ? await read(request.data) : { error: `bad request: ${request.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}` };
    } catch (err) {
      logger.error({ err }, 'graph snapshot page not served');
      reply = { error: err instanceof Error ? err.message : 'failed' };
    }
    msg.respond(JSON.stringify(reply));
  };
  const sub = bus.nc.subscribe(graphSnapshotSubject(bus.namespace), { queue: 'social-graph', callback: (err, msg) => (err ? logger.warn({ err }, 'graph snapshot subscription') : void answer(msg)) });
  return { stop: () => sub.drain() };
}

const REQUEST_TIMEOUT_MS = 15_000;
/** How long a rebuild keeps asking while nobody answers (social-graph starting too). */
const NO_ANSWER_BOUND_MS = 120_000;

async function requestPage(bus: Bus, request: GraphSnapshotRequest): Promise<GraphSnapshotPage> {
  const until = Date.now() + NO_ANSWER_BOUND_MS;
  for (;;) {
    try {
      const msg = await bus.nc.request(graphSnapshotSubject(bus.namespace), JSON.stringify(request), { timeout: REQUEST_TIMEOUT_MS });
      const body: unknown = JSON.parse(new TextDecoder().decode(msg.data));
      if (typeof body === 'object' && body !== null && 'error' in body) throw new Error(`social-graph refused a graph snapshot page: ${String(body.error)}`);
      return graphSnapshotPage.parse(body);
    } catch (err) {
      // No responder yet (social-graph down or starting): ask again for a while; anything else fails the rebuild.
      const unanswered = err instanceof Error && /no responders|timeout/i.test(`${err.name} ${err.message} ${String((err as { code?: unknown }).code)}`);
      if (!unanswered || Date.now() > until) throw err;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/** Every edge of one kind, in order, a page at a time. */
async function fetchEdges(bus: Bus, kind: GraphEdgeKind): Promise<GraphSnapshotPage['edges']> {
  const edges: GraphSnapshotPage['edges'] = [];
  let after: string | null = null;
  do {
    const page = await requestPage(bus, { kind, after, limit: GRAPH_SNAPSHOT_PAGE_MAX });
    edges.push(...page.edges);
    after = page.next;
  } while (after !== null);
  return edges;
}

/** The tables each kind replaces, and how a row of it is written. */
const TABLES: Record<GraphEdgeKind, { table: string; insert: string }> = {
  follows: {
    table: 'follows',
    insert: 'INSERT INTO "follows" ("follower_id", "followee_id", "is_friend") SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::boolean[])',
  },
  blocks: { table: 'blocks', insert: 'INSERT INTO "blocks" ("blocker_id", "blocked_id") SELECT a, b FROM unnest($1::uuid[], $2::uuid[], $3::boolean[]) AS e(a, b, f)' },
  mutes: { table: 'mutes', insert: 'INSERT INTO "mutes" ("user_id", "muted_id") SELECT a, b FROM unnest($1::uuid[], $2::uuid[], $3::boolean[]) AS e(a, b, f)' },
};

/** Rows written per statement: the arrays of one INSERT stay a few hundred kilobytes. */
const INSERT_BATCH = 5000;

export interface GraphRebuildOptions<Tx extends SqlClient> {
  bus: Bus;
  db: { $transaction<R>(fn: (tx: Tx) => Promise<R>, options?: { timeout?: number }): Promise<R> };
  logger: Logger;
  /** Whether the service keeps tombstones of erased people (the people part): edges naming them are left out. */
  tombstones: boolean;
}

/**
 * Replaces the read model's graph with social-graph's, in one transaction;
 * answers the edges written by kind. Edges naming an erased person this
 * service knows of are left out (social-graph's own erasure may not have run
 * yet; the tombstone is what keeps them out of the events too).
 */
export async function rebuildGraph<Tx extends SqlClient>(options: GraphRebuildOptions<Tx>): Promise<Record<GraphEdgeKind, number>> {
  const snapshot = Object.fromEntries(await Promise.all(GRAPH_EDGE_KINDS.map(async (kind) => [kind, await fetchEdges(options.bus, kind)] as const))) as Record<
    GraphEdgeKind,
    GraphSnapshotPage['edges']
  >;
  const written = await options.db.$transaction(
    async (tx) => {
      const erased = options.tombstones ? await erasedAmong(tx, snapshot) : new Set<string>();
      const counts = { follows: 0, blocks: 0, mutes: 0 };
      for (const kind of GRAPH_EDGE_KINDS) {
        const { table, insert } = TABLES[kind];
        await tx.$executeRawUnsafe(`DELETE FROM "${table}"`);
        const edges = snapshot[kind].filter(([a, b]) => !erased.has(a) && !erased.has(b));
        for (let i = 0; i < edges.length; i += INSERT_BATCH) {
          const batch = edges.slice(i, i + INSERT_BATCH);
          await tx.$executeRawUnsafe(
            insert,
            batch.map((e) => e[0]),
            batch.map((e) => e[1]),
            batch.map((e) => e[2]),
          );
        }
        counts[kind] = edges.length;
      }
      return counts;
    },
    { timeout: 120_000 },
  );
  options.logger.warn({ ...written }, 'graph read model rebuilt from social-graph');
  return written;
}

/** The ids of the snapshot that are tombstones here. */
async function erasedAmong(tx: SqlClient, snapshot: Record<GraphEdgeKind, GraphSnapshotPage['edges']>): Promise<Set<string>> {
  const ids = [...new Set(Object.values(snapshot).flatMap((edges) => edges.flatMap(([a, b]) => [a.toLowerCase(), b.toLowerCase()])))];
  if (ids.length === 0) return new Set();
  const hashes = new Map(ids.map((id) => [erasedHash(id), id]));
  const rows = await tx.$queryRawUnsafe<Array<{ id_hash: string }>>('SELECT "id_hash" FROM "erased_people" WHERE "id_hash" = ANY($1::text[])', [...hashes.keys()]);
  return new Set(rows.flatMap((row) => hashes.get(row.id_hash) ?? []));
}
