/**
 * Ends this process when the process that started it is gone.
 *
 * The test harness and `make dev` start every service as a direct child; when
 * the harness itself is killed (a test runner stopped mid-run, Ctrl-C on a
 * wrapper), Linux re-parents the children and they would keep running, holding
 * ports, database connections and CPU on the developer's machine. Off unless
 * EXIT_WITH_PARENT_PID names the parent (the harness sets it); production
 * processes are supervised by compose or Kubernetes and never set it.
 */
export function exitWithParent(env: NodeJS.ProcessEnv = process.env, checkEveryMs = 1000): void {
  const parent = Number(env.EXIT_WITH_PARENT_PID);
  if (!Number.isInteger(parent) || parent <= 0) return;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    // SIGTERM, not exit: the process drains and closes its connections as on any stop.
    process.kill(process.pid, 'SIGTERM');
  }, checkEveryMs);
  timer.unref();
}
