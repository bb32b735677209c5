import v8 from 'node:v8';

/**
 * Memory of a long-lived service process. Prisma's query compiler is a 3 MB
 * WebAssembly module; V8 first compiles it with its baseline compiler
 * (Liftoff) and then, in background threads, recompiles the hot functions
 * with TurboFan. That second compile holds about 40 MB of native memory that
 * glibc never hands back, so every process sat at 160–200 MB idle. Measured
 * on 3,000 model queries, TurboFan saved under 10% of the CPU (docs/benchmarks.md,
 * 'Process footprint'): not worth a third of each process's memory.
 * Called before the first query compiles the module; the flag is read at compile time.
 *
 * The other memory settings cannot be made from here, because they are read
 * before any JavaScript runs: the image (infra/docker/node.Dockerfile) and the
 * Kubernetes config set MALLOC_ARENA_MAX=2 (glibc) and
 * NODE_OPTIONS=--max-semi-space-size=4 (V8's young generation, 2 x 4 MiB
 * instead of 2 x 16). The bundles also load Prisma's query compiler from a
 * .wasm file rather than a base64 string held for good (infra/build/build.ts).
 */
export function tuneProcess(): void {
  v8.setFlagsFromString('--liftoff-only');
}
