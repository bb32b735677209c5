import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '@hoptrack/testing/processes';
import { startLocalS3 } from '@hoptrack/testing/s3';
import { exitWithParent } from '@hoptrack/runtime/parent-watch';

/** Process entry for `make dev` and the browser tests: s3rver on PORT, files under S3_DIR (default .data/s3). */
const directory = process.env.S3_DIR ?? path.join(repoRoot, '.data/s3');
await mkdir(directory, { recursive: true });
const s3 = await startLocalS3({ port: Number(process.env.PORT ?? 4569), directory, host: process.env.HOST ?? '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ service: 's3', msg: 'local S3 (s3rver) listening', endpoint: s3.endpoint, directory })}\n`);
const stop = () => void s3.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
exitWithParent();
