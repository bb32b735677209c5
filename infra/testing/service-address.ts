import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * One address in front of a service's instances, as a Kubernetes Service or
 * Docker's DNS gives one: each TCP connection goes to the next instance, and
 * to the one after when an instance refuses it (stopped, restarting). For
 * calls between services in the local stack (the JWKS, media's internal API);
 * the public path balances in the gateway itself.
 */
export interface ServiceAddress {
  url: string;
  close(): Promise<void>;
}

export async function startServiceAddress(ports: readonly number[]): Promise<ServiceAddress> {
  let next = 0;
  const open = new Set<Socket>();
  const forward = (client: Socket, tried: number) => {
    if (tried >= ports.length) {
      client.destroy();
      return;
    }
    const port = ports[next++ % ports.length] as number;
    const upstream = connect({ port, host: '127.0.0.1' });
    upstream.once('connect', () => {
      open.add(upstream);
      upstream.once('close', () => open.delete(upstream));
      client.pipe(upstream).pipe(client);
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
      client.once('close', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
      client.resume();
    });
    upstream.once('error', (err: NodeJS.ErrnoException) => {
      if (upstream.connecting || err.code === 'ECONNREFUSED') forward(client, tried + 1);
    });
  };
  const server: Server = createServer({ pauseOnConnect: true }, (client) => {
    open.add(client);
    client.once('close', () => open.delete(client));
    forward(client, 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
