/**
 * A TCP server that accepts every connection, reads what is sent and never answers: what a client sees from a stalled
 * service, a load balancer with no healthy target, or a black-holed VPC endpoint. Not an AWS behaviour the API
 * references describe; it is the fault every AWS call must be bounded against (connection accepted, response never
 * sent, so no connect timeout fires). Point any client's `endpoint` at `endpoint`.
 */
import { AddressInfo, createServer, Socket } from 'net';

export interface SilentServer {
  readonly endpoint: string;
  /** Connections accepted so far. */
  connections(): number;
  stop(): Promise<void>;
}

export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => accepted,
    stop: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}
