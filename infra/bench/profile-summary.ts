import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Where a process's CPU went, from the `.cpuprofile` files Node writes under
 * `--cpu-prof` (a stack process started with `CPU_PROF=<name>`, see
 * infra/testing/processes.ts): the share of the busy samples per place
 * (an npm package, Node's internals, our own workspaces, garbage collection)
 * and the functions that spent the most themselves.
 *
 *   npx tsx infra/bench/profile-summary.ts .tmp/profiles/gateway [--top=25] [--callers=writev]
 *
 * A folder takes its newest profile. Idle samples (the event loop waiting)
 * are left out of the shares, so they add up to the time the process worked.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const target = args.find((a) => !a.startsWith('--'));
const top = Number(args.find((a) => a.startsWith('--top='))?.slice('--top='.length) ?? 25);
/** `--callers=writeUtf8String`: who calls that function, by the stack above it (up to 4 frames), and their share of its time. */
const callersOf = args.find((a) => a.startsWith('--callers='))?.slice('--callers='.length);
if (!target) {
  process.stderr.write('usage: profile-summary.ts <file.cpuprofile | folder> [--top=N]\n');
  process.exit(2);
}

function newestProfile(where: string): string {
  if (!statSync(where).isDirectory()) return where;
  const files = readdirSync(where)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => path.join(where, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (!files[0]) throw new Error(`no .cpuprofile in ${where}`);
  return files[0];
}

/** The place a frame belongs to: a package, Node itself, our code, or V8's own entries. */
function placeOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName === '(garbage collector)') return 'garbage collection';
    if (functionName === '(program)') return 'V8 and native (program)';
    return functionName || '(native)';
  }
  if (url.startsWith('node:')) return `node:${url.slice('node:'.length).split('/')[0] === 'internal' ? url.slice('node:internal/'.length).split('/')[0] : url.slice(5)}`;
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  // Our bundles (dist/…) and sources: the workspace folder.
  const match = /\/(services\/[^/]+|gateway|infra\/[^/]+|proto|web)\//.exec(url);
  return match?.[1] ?? url;
}

const file = newestProfile(target);
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfMs = new Map<number, number>();
profile.samples.forEach((id, index) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000));

let idle = 0;
let busy = 0;
const places = new Map<string, number>();
const functions = new Map<string, number>();
for (const [id, ms] of selfMs) {
  const node = byId.get(id);
  if (!node) continue;
  if (node.callFrame.functionName === '(idle)') {
    idle += ms;
    continue;
  }
  busy += ms;
  const place = placeOf(node.callFrame);
  places.set(place, (places.get(place) ?? 0) + ms);
  const name = `${node.callFrame.functionName || '(anonymous)'} ${place}${node.callFrame.url ? `:${node.callFrame.lineNumber + 1}` : ''}`;
  functions.set(name, (functions.get(name) ?? 0) + ms);
}

const pct = (ms: number) => `${((100 * ms) / busy).toFixed(1).padStart(5)} %`;
const wall = (profile.endTime - profile.startTime) / 1e6;
process.stdout.write(`${file}\n${wall.toFixed(1)} s profiled, ${(busy / 1000).toFixed(1)} s busy (${((100 * busy) / (busy + idle)).toFixed(0)} % of the samples)\n\n`);
process.stdout.write('Busy time by place:\n');
for (const [place, ms] of [...places].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${pct(ms)}  ${place}\n`);
process.stdout.write('\nFunctions by their own time:\n');
for (const [name, ms] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${pct(ms)}  ${name}\n`);

if (callersOf) {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const frameName = (node: ProfileNode) => `${node.callFrame.functionName || '(anonymous)'} ${placeOf(node.callFrame)}${node.callFrame.url ? `:${node.callFrame.lineNumber + 1}` : ''}`;
  const stacks = new Map<string, number>();
  let total = 0;
  for (const [id, ms] of selfMs) {
    const node = byId.get(id);
    if (!node || node.callFrame.functionName !== callersOf) continue;
    total += ms;
    const chain: string[] = [];
    for (let up = parent.get(id); up !== undefined && chain.length < 4; up = parent.get(up)) {
      const frame = byId.get(up);
      if (frame) chain.push(frameName(frame));
    }
    const key = chain.join(' < ');
    stacks.set(key, (stacks.get(key) ?? 0) + ms);
  }
  process.stdout.write(`\nCallers of ${callersOf} (${pct(total).trim()} of the busy time):\n`);
  for (const [chain, ms] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 10)) process.stdout.write(`${((100 * ms) / total).toFixed(0).padStart(3)} %  ${chain}\n`);
}
