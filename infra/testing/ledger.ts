/**
 * What clients were told, per kind of write, to compare with what is stored
 * (issue 38, item 9): a fault test counts against its clients' answers, not
 * against what the system says about itself.
 *
 * - acknowledged (2xx): the object's id; it must be stored, once;
 * - refused (4xx): nothing may be stored for it — each refused write carries
 *   a marker (a title, a text) the check looks for;
 * - unknown (5xx, or no answer at all): it may or may not be stored, and
 *   excuses at most one stored object it has no id for.
 */
export interface KindLedger {
  acknowledged: string[];
  refusedMarkers: string[];
  unknown: number;
}

export interface Reconciled {
  kind: string;
  acknowledged: number;
  refused: number;
  unknown: number;
  stored: number;
  /** Acknowledged, not stored. */
  lost: string[];
  /** Stored more than the acknowledged and unknown writes explain. */
  doubled: number;
  /** Refused, yet stored. */
  storedRefused: string[];
}

export class WriteLedger {
  private readonly kinds = new Map<string, KindLedger>();

  private of(kind: string): KindLedger {
    let entry = this.kinds.get(kind);
    if (!entry) this.kinds.set(kind, (entry = { acknowledged: [], refusedMarkers: [], unknown: 0 }));
    return entry;
  }

  acknowledged(kind: string, id: string): void {
    this.of(kind).acknowledged.push(id);
  }

  refused(kind: string, marker: string): void {
    this.of(kind).refusedMarkers.push(marker);
  }

  unknown(kind: string): void {
    this.of(kind).unknown += 1;
  }

  /**
   * Records one write's answer: `status` 2xx with the id `idOf` reads from the body,
   * 4xx with the write's marker, anything else (5xx, 599 for no answer) as unknown.
   */
  record(kind: string, status: number, id: string | undefined, marker: string): void {
    if (status >= 200 && status < 300 && id) this.acknowledged(kind, id);
    else if (status >= 400 && status < 500) this.refused(kind, marker);
    else this.unknown(kind);
  }

  entries(): Array<[string, KindLedger]> {
    return [...this.kinds.entries()];
  }

  /**
   * The ledger of one kind against what is stored: `storedIds` every stored object
   * of the kind by the test's people, `storedMarkers` the markers found among them.
   */
  reconcile(kind: string, storedIds: Iterable<string>, storedMarkers: Iterable<string>): Reconciled {
    const entry = this.of(kind);
    const stored = new Set(storedIds);
    const markers = new Set(storedMarkers);
    return {
      kind,
      acknowledged: entry.acknowledged.length,
      refused: entry.refusedMarkers.length,
      unknown: entry.unknown,
      stored: stored.size,
      lost: entry.acknowledged.filter((id) => !stored.has(id)),
      doubled: Math.max(0, stored.size - entry.acknowledged.length - entry.unknown),
      storedRefused: entry.refusedMarkers.filter((marker) => markers.has(marker)),
    };
  }
}

export const formatReconciled = (r: Reconciled) =>
  `${r.kind}: acknowledged ${r.acknowledged}, refused ${r.refused}, unknown ${r.unknown}, stored ${r.stored}; lost ${r.lost.length}, doubled ${r.doubled}, refused yet stored ${r.storedRefused.length}`;
