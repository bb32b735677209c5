import { readFile } from 'node:fs/promises';
import { allContracts } from '@hoptrack/proto';
import { describe, expect, it } from 'vitest';
import { quoted, WEB_ROUTES_FILE, webRoutesSource } from './web-routes';

/** The web's table of routes (web/src/api/routes.gen.ts) is generated from the contracts, and committed. */
describe('the web routes table', () => {
  it('is what `npm run generate:web-routes` writes from the contracts now', async () => {
    const committed = await readFile(WEB_ROUTES_FILE, 'utf8');
    expect(committed, 'web/src/api/routes.gen.ts is stale: run `npm run generate:web-routes`').toBe(webRoutesSource());
  });

  it('holds every contract the gateway routes, and none it does not', () => {
    const source = webRoutesSource();
    for (const contract of allContracts()) {
      const line = `  ${contract.name}: { method: ${quoted(contract.method)}, path: ${quoted(contract.path)} },`;
      expect(source.includes(line), `${contract.service}.${contract.name}`).toBe(contract.access.level !== 'internal');
    }
  });
});
