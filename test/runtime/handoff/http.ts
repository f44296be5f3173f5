import http from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json(): { reason?: string; message?: string; [k: string]: unknown };
}

/** One request to the handoff page server, with any headers (Host and Origin included, which fetch would not let us set). */
export function httpRequest(url: string, opts: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<HttpAnswer> {
  const u = new URL(url);
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: `${u.pathname}${u.search}`,
        method: opts.method ?? (body === undefined ? 'GET' : 'POST'),
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, json: () => JSON.parse(text) as never }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The token in a handoff url (`…/#token=<token>`). */
export function tokenOf(url: string): string {
  const token = new URLSearchParams(new URL(url).hash.slice(1)).get('token');
  if (!token) throw new Error(`no token in ${url}`);
  return token;
}
