import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '@hoptrack/testing/processes';
import { stripComments } from './source-text';

/**
 * Issue 19: block and privacy rules live in one place, the runtime's audience
 * module (services/runtime/src/audience), and no service keeps its own copy
 * of the audience tables. Read from the source (comments blanked out), so a
 * rule written again tomorrow in a service fails here, not in a review.
 */
const AUDIENCE_DIR = path.join('services', 'runtime', 'src', 'audience');

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' || entry.name === 'node_modules' ? [] : sourceFiles(relative);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [relative] : [];
  });
}

const services = readdirSync(path.join(repoRoot, 'services'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);
const files = services.flatMap((s) => {
  try {
    return sourceFiles(path.join('services', s, 'src'));
  } catch {
    return [];
  }
});

/** What a block, mute or privacy rule looks like when a service writes it itself. */
const RULES: Array<{ name: string; pattern: RegExp }> = [
  { name: 'a query of the blocks (SQL)', pattern: /\b(FROM|JOIN)\s+"?(blocks|blocked_users)"?\b/i },
  { name: 'a query of the mutes (SQL)', pattern: /\b(FROM|JOIN)\s+"?mutes"?\b/i },
  { name: 'a condition on the private switch (SQL)', pattern: /(\b(AND|OR|WHERE|NOT)\s+(COALESCE\()?[\w."]*is_profile_private|is_profile_private"?\s*(=|<>|IS\b))/i },
  { name: 'a friendship test (SQL)', pattern: /\b(f|[\w"]+)\.?"?is_friend"?\s*(=|AND|OR|\))|\bAND\s+[\w."]*is_friend\b/i },
  { name: 'a decision on the private switch (TypeScript)', pattern: /(!\s*[\w.?]+\.isProfilePrivate\b|\.isProfilePrivate\s*(\?\?|\?(?!\.)|&&|\|\||===|!==))/ },
  { name: "a Prisma query of another service's blocks or graph", pattern: /\.(block|follow|mute|friendPair)\.(find\w*|count|create\w*|update\w*|upsert|delete\w*)\(/ },
];

describe('the audience module is the one home of privacy rules (issue 19)', () => {
  it('reads the services', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.some((f) => f.startsWith(AUDIENCE_DIR))).toBe(true);
  });

  it('finds block, mute, friendship and private-switch rules nowhere but in the audience module', () => {
    const found: string[] = [];
    for (const file of files) {
      if (file.startsWith(AUDIENCE_DIR)) continue;
      const text = stripComments(readFileSync(path.join(repoRoot, file), 'utf8'));
      for (const { name, pattern } of RULES) {
        const global = new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`);
        for (const m of text.matchAll(global)) found.push(`${file}:${text.slice(0, m.index).split('\n').length}: ${name}: ${m[0].trim()}`);
      }
    }
    expect(found, `privacy rules outside services/runtime/src/audience (use access(), canSee() or audienceSql there):\n${found.join('\n')}`).toEqual([]);
  });

  it('the module itself holds each kind of rule (the patterns above are not matching nothing)', () => {
    const own = sourceFiles(AUDIENCE_DIR)
      .map((f) => readFileSync(path.join(repoRoot, f), 'utf8'))
      .join('\n');
    expect(own).toMatch(/"blocks"/);
    expect(own).toMatch(/NOT audience_p\."is_profile_private"/);
    expect(own).toMatch(/audience_f\."is_friend"/);
    expect(own).toMatch(/"mutes"/);
  });

  it('no service declares the audience tables in its own schema or creates them in a migration of its own', () => {
    const found: string[] = [];
    for (const service of services) {
      let schema = '';
      try {
        schema = readFileSync(path.join(repoRoot, 'services', service, 'prisma', 'schema.prisma'), 'utf8');
      } catch {
        continue;
      }
      for (const table of ['blocks', 'follows', 'mutes', 'friend_pairs']) {
        if (schema.includes(`@@map("${table}")`)) found.push(`services/${service}/prisma/schema.prisma declares ${table}`);
      }
      const migrations = path.join(repoRoot, 'services', service, 'prisma', 'migrations');
      for (const name of readdirSync(migrations)) {
        if (name < '20261124000000') continue; // before the module, services made their own; the module's migrations take them over
        const sql = readFileSync(path.join(migrations, name, 'migration.sql'), 'utf8');
        const created = /CREATE TABLE\s+(IF NOT EXISTS\s+)?"?(users|follows|blocks|mutes|friend_pairs)"?/i.exec(sql);
        if (created && service !== 'auth') found.push(`services/${service}/prisma/migrations/${name} creates ${created[2]}`);
      }
    }
    expect(found).toEqual([]);
  });
});
