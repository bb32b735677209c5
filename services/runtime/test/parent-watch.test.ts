import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eventually } from '@hoptrack/testing';
import { describe, expect, it } from 'vitest';

/**
 * A harness killed with SIGKILL cannot stop its children; with
 * EXIT_WITH_PARENT_PID they notice and stop themselves. Real processes: a
 * middle process starts a child that calls exitWithParent (checking every
 * 100 ms) and then beats into a file every 100 ms; the middle one is killed -9.
 */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const CHILD = `
  const { appendFileSync } = await import('node:fs');
  const { exitWithParent } = await import('@hoptrack/runtime/parent-watch');
  exitWithParent(process.env, 100);
  setInterval(() => appendFileSync(process.env.HEARTBEAT_FILE, '.'), 100);
`;
const MIDDLE = `
  const { spawn } = require('node:child_process');
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', ${JSON.stringify(CHILD)}], {
    env: { ...process.env, ...(process.env.WATCH === '1' ? { EXIT_WITH_PARENT_PID: String(process.pid) } : {}) },
    stdio: 'ignore',
  });
  console.log(child.pid);
  setInterval(() => {}, 1000);
`;

/** Starts middle → child, waits for the child's first beat, kills the middle; the child's pid and its beats so far. */
async function orphanChild(watch: boolean): Promise<{ pid: number; beats: () => number }> {
  const heartbeat = path.join(mkdtempSync(path.join(tmpdir(), 'parent-watch-')), 'beats');
  const beats = () => (existsSync(heartbeat) ? readFileSync(heartbeat, 'utf8').length : 0);
  const middle = spawn(process.execPath, ['-e', MIDDLE], { env: { ...process.env, WATCH: watch ? '1' : '0', HEARTBEAT_FILE: heartbeat }, stdio: ['ignore', 'pipe', 'inherit'] });
  const pid = await new Promise<number>((resolve) => middle.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
  await eventually(async () => beats() > 0, 'the child running');
  middle.kill('SIGKILL');
  await new Promise((r) => middle.once('exit', r));
  return { pid, beats };
}

describe('exitWithParent', () => {
  it('stops a child whose parent was killed -9', async () => {
    const { pid } = await orphanChild(true);
    await eventually(async () => !alive(pid), 'the orphaned child stopped');
  });

  it('leaves it running without EXIT_WITH_PARENT_PID (the first test is not passing by accident)', async () => {
    const { pid, beats } = await orphanChild(false);
    try {
      // Ten more beats after its parent died: ten of its own checks would have stopped it by then.
      const after = beats();
      await eventually(async () => beats() >= after + 10, 'ten beats as an orphan');
      expect(alive(pid)).toBe(true);
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  });
});
