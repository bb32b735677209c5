import { describe, expect, it } from 'vitest';
import { WriteLedger } from './ledger';

/** The soak's ledger must see each way a write can go wrong, or its zeros mean nothing. */
describe('the write ledger', () => {
  it('finds a lost acknowledged write, a double and a refused write that was stored; an unknown answer excuses one', () => {
    const ledger = new WriteLedger();
    ledger.record('session', 201, 'a', 'm-a');
    ledger.record('session', 201, 'b', 'm-b');
    ledger.record('session', 400, undefined, 'm-refused');
    ledger.record('session', 599, undefined, 'm-unknown');
    // Stored: a (not b: lost), c and d (one explained by the unknown answer, one a double), and the refused write.
    const r = ledger.reconcile('session', ['a', 'c', 'd', 'e'], ['m-refused']);
    expect(r).toEqual({ kind: 'session', acknowledged: 2, refused: 1, unknown: 1, stored: 4, lost: ['b'], doubled: 1, storedRefused: ['m-refused'] });
  });

  it('reads an exactly stored ledger as clean', () => {
    const ledger = new WriteLedger();
    ledger.record('message', 201, 'x', 'm-x');
    ledger.record('message', 404, undefined, 'm-nobody');
    expect(ledger.reconcile('message', ['x'], [])).toMatchObject({ lost: [], doubled: 0, storedRefused: [] });
  });
});
