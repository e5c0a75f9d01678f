import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

// A loopback HTTP server on port 0 for tests of code that fetches pages.

export interface LoopbackServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  close(): Promise<void>;
}

export type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export async function startLoopback(handler: Handler): Promise<LoopbackServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
