import { Counter, type Registry } from 'prom-client';
import { tokenVerificationStats } from './tokens';

/** Bearer-token verifications of this process, answered from memory or by a signature check (issue 41: the cache's hit rate beside the feed's cost). */
export function instrumentTokenVerifications(registry: Registry): void {
  new Counter({
    name: 'auth_token_verifications_total',
    help: 'Bearer-token verifications, by how they were answered: remembered (verified earlier, in memory) or checked (the signature)',
    labelNames: ['result'] as const,
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ result: 'remembered' }, tokenVerificationStats.remembered);
      this.inc({ result: 'checked' }, tokenVerificationStats.checked);
    },
  });
}
