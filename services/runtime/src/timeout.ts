/**
 * A call that gives up after `ms`: a dependency that accepts connections but
 * does not answer must not hold its caller (a request, a readiness check)
 * hostage. The timer is cleared as soon as the call settles.
 */
export function withTimeout<T>(call: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms);
  });
  return Promise.race([call, timeout]).finally(() => clearTimeout(timer));
}
