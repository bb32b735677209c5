import type { Role } from '@hoptrack/proto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { RegisteredUser } from './api';
import { commandFor, repoRoot } from './processes';
import type { Stack } from './stack';

const run = promisify(execFile);

/**
 * Grants or revokes a staff role the way an operator does (issue 42): the
 * auth service's command (services/auth/src/staff-command.ts), run with the
 * stack's auth environment, which answers once every service applied it.
 * Answers the roles the person holds afterwards.
 */
export async function staffCommand(stack: Stack, verb: 'grant' | 'revoke', role: Role, user: Pick<RegisteredUser, 'email'>): Promise<Role[]> {
  const [node, ...args] = commandFor('services/auth/src/staff-command.ts');
  const { PORT: _port, ...env } = stack.services.auth.options.env;
  const { stdout } = await run(node as string, [...args, verb, role, user.email], { cwd: repoRoot, env: { ...process.env, ...env }, timeout: 60_000 });
  // Its log lines share stdout (pino): the answer is the line with roles and no log message.
  for (const line of stdout.trim().split('\n').reverse()) {
    const parsed = (() => {
      try {
        return JSON.parse(line) as { roles?: Role[]; msg?: string };
      } catch {
        return null;
      }
    })();
    if (parsed?.roles && parsed.msg === undefined) return parsed.roles;
  }
  throw new Error(`staff-command printed no roles: ${stdout.slice(-500)}`);
}

/** A registered person made staff: the operator command's grant. */
export async function makeStaff<U extends RegisteredUser>(stack: Stack, user: U, role: Role): Promise<U> {
  await staffCommand(stack, 'grant', role, user);
  return user;
}
