/**
 * What every HTTP stub model server shares: listening on 127.0.0.1 (a free port unless one is asked for), answering
 * a handler's failure with a 500 in the stub's own error shape, JSON replies, reading bodies, and closing with every
 * connection cut. The stubs add only their wire format (openai-stub, localrunner-stub, serviceai-stub, identity-stub).
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

export interface HttpStubOptions {
  port?: number;
  /** The body of the 500 sent when the handler throws, in the stub's error shape. */
  errorBody?: (message: string) => unknown;
  /** Serve HTTPS with this key and certificate. */
  tls?: { key: string; cert: string };
}

export interface HttpStubServer {
  server: Server;
  origin: string;
  close(): Promise<void>;
}

export async function startHttpStub(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  opts: HttpStubOptions = {},
): Promise<HttpStubServer> {
  const errorBody = opts.errorBody ?? ((message: string) => ({ error: { message } }));
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorBody(`stub: ${String(err)}`));
      else res.destroy();
    });
  };
  const server: Server = opts.tls ? createHttpsServer(opts.tls, listener) : createHttpServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const origin = `${opts.tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    server,
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
