/// <reference path="./s3rver.d.ts" />
import S3rver from 's3rver';

/**
 * A local S3-compatible server (s3rver serving a folder) for machines without
 * Docker: the media service talks S3 to it exactly as it talks to MinIO.
 * Its default credentials are S3RVER / S3RVER.
 */
export interface LocalS3 {
  endpoint: string;
  close(): Promise<void>;
}

export async function startLocalS3(options: { port: number; directory: string; host?: string }): Promise<LocalS3> {
  const server = new S3rver({ port: options.port, address: options.host ?? '127.0.0.1', directory: options.directory, silent: true });
  const { port } = await server.run();
  return { endpoint: `http://${options.host ?? '127.0.0.1'}:${port}`, close: () => server.close() };
}
