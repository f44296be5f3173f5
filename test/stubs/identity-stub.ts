/**
 * A local identity service for tests (a test double; never imported by src/): HTTPS on 127.0.0.1 with a
 * self-signed certificate. It speaks the OAuth 2.0 client-credentials flow (authority metadata + token
 * endpoint) and the managed-identity token endpoint of app hosting (`IDENTITY_ENDPOINT` + `IDENTITY_HEADER`).
 *
 *   const id = await startIdentityStub({ tenantId: 't1', clientId: 'c1', clientSecret: 's1' });
 *   // entra-id: authorityHost id.origin, trust id.ca
 *   // managed-identity: IDENTITY_ENDPOINT=id.managedIdentityEndpoint, IDENTITY_HEADER=id.identityHeader
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, sendJson, startHttpStub } from './http-stub-base';

/** Test-only certificate for 127.0.0.1 / localhost (valid 2020-2120). Not a secret: it protects nothing. */
export const IDENTITY_STUB_CA = `-----BEGIN CERTIFICATE-----
MIIBhTCCASugAwIBAgIBATAKBggqhkjOPQQDAjAmMSQwIgYDVQQDDBthZ2VudGNs
aSB0ZXN0IGlkZW50aXR5IHN0dWIwIBcNMjAwMTAxMDAwMDAwWhgPMjEyMDAxMDEw
MDAwMDBaMCYxJDAiBgNVBAMMG2FnZW50Y2xpIHRlc3QgaWRlbnRpdHkgc3R1YjBZ
MBMGByqGSM49AgEGCCqGSM49AwEHA0IABFWrLYLRHfQBr2dfZw5+EmK2DFFcs5cM
4VW+9eFBcv6ZCRLBXEMdlUDVvgKxjpieMjrc3ZfAVYDT5wafR13HUQqjSDBGMBoG
A1UdEQQTMBGHBH8AAAGCCWxvY2FsaG9zdDAJBgNVHRMEAjAAMB0GA1UdDgQWBBTD
fmDoXMMGOTth1SmeZvP5LNkhNDAKBggqhkjOPQQDAgNIADBFAiEAp8DLi5H/taX8
Q83AY/jznCNclO1t0u30vOrXj6IapbsCIGkGMHHrUoz8LFAVW6gvRHrgdhMnMk4b
UJal2lQT/Blq
-----END CERTIFICATE-----
`;
const IDENTITY_STUB_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgk2tUExBu1kc6uw3c
x/9FPfAu/sMkMCmk7IHjSaC0ftehRANCAARVqy2C0R30Aa9nX2cOfhJitgxRXLOX
DOFVvvXhQXL+mQkSwVxDHZVA1b4CsY6YnjI63N2XwFWA0+cGn0ddx1EK
-----END PRIVATE KEY-----
`;

export interface IdentityRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  form: Record<string, string>;
}

export interface IdentityStubOptions {
  tenantId?: string;
  clientId?: string;
  clientSecret?: string;
  /** Lifetime of issued tokens in seconds (default 3600). */
  expiresInSeconds?: number;
  /** Answer token requests with this status and error instead (e.g. 401 invalid_client). */
  failWith?: { status: number; error: string; description: string };
}

export interface IdentityStub {
  origin: string;
  ca: string;
  /** The managed-identity endpoint to put in IDENTITY_ENDPOINT. */
  managedIdentityEndpoint: string;
  /** The value to put in IDENTITY_HEADER (checked on every managed-identity request). */
  identityHeader: string;
  requests: IdentityRequest[];
  /** Tokens issued so far, in order. */
  issued: string[];
  /** Changes (or with undefined clears) the scripted failure of token requests. */
  setFailure(failure: IdentityStubOptions['failWith']): void;
  close(): Promise<void>;
}


export async function startIdentityStub(opts: IdentityStubOptions = {}): Promise<IdentityStub> {
  const tenantId = opts.tenantId ?? 'tenant-stub';
  const clientId = opts.clientId ?? 'client-stub';
  const clientSecret = opts.clientSecret ?? 'client-secret-stub';
  const expiresIn = opts.expiresInSeconds ?? 3600;
  const identityHeader = 'identity-header-stub';
  const requests: IdentityRequest[] = [];
  const issued: string[] = [];
  let origin = '';
  let failWith = opts.failWith;

  const issue = (prefix: string): string => {
    const token = `${prefix}-token-${issued.length + 1}-${Math.random().toString(36).slice(2, 10)}`;
    issued.push(token);
    return token;
  };

  function handle(req: IncomingMessage, body: string, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', origin);
    const form = Object.fromEntries(new URLSearchParams(body).entries());
    const recorded: IdentityRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams.entries()),
      headers: { ...req.headers },
      form,
    };
    requests.push(recorded);
    if (url.pathname === `/${tenantId}/v2.0/.well-known/openid-configuration`) {
      sendJson(res, 200, {
        issuer: `${origin}/${tenantId}/v2.0`,
        token_endpoint: `${origin}/${tenantId}/oauth2/v2.0/token`,
        authorization_endpoint: `${origin}/${tenantId}/oauth2/v2.0/authorize`,
        end_session_endpoint: `${origin}/${tenantId}/oauth2/v2.0/logout`,
        jwks_uri: `${origin}/${tenantId}/discovery/v2.0/keys`,
      });
      return;
    }
    if (url.pathname === `/${tenantId}/oauth2/v2.0/token` && req.method === 'POST') {
      if (failWith) {
        sendJson(res, failWith.status, { error: failWith.error, error_description: failWith.description });
        return;
      }
      if (form.grant_type !== 'client_credentials' || form.client_id !== clientId || form.client_secret !== clientSecret) {
        sendJson(res, 401, { error: 'invalid_client', error_description: 'stub: unknown client or wrong secret' });
        return;
      }
      sendJson(res, 200, { token_type: 'Bearer', expires_in: expiresIn, ext_expires_in: expiresIn, access_token: issue('entra') });
      return;
    }
    if (url.pathname === '/msi/token' && req.method === 'GET') {
      if (req.headers['x-identity-header'] !== identityHeader) {
        sendJson(res, 401, { error: 'unauthorized', error_description: 'stub: missing or wrong X-IDENTITY-HEADER' });
        return;
      }
      if (failWith) {
        sendJson(res, failWith.status, { error: failWith.error, error_description: failWith.description });
        return;
      }
      const expiresOn = Math.floor(Date.now() / 1000) + expiresIn;
      sendJson(res, 200, {
        token_type: 'Bearer',
        access_token: issue('managed'),
        expires_on: String(expiresOn),
        resource: url.searchParams.get('resource') ?? '',
      });
      return;
    }
    sendJson(res, 404, { error: 'not_found', error_description: `stub: no route for ${req.method ?? ''} ${url.pathname}` });
  }

  const stub = await startHttpStub(async (req, res) => handle(req, (await readBody(req)).toString('utf8'), res), {
    tls: { key: IDENTITY_STUB_KEY, cert: IDENTITY_STUB_CA },
    errorBody: (message) => ({ error: 'server_error', error_description: message }),
  });
  origin = stub.origin;
  return {
    origin,
    ca: IDENTITY_STUB_CA,
    managedIdentityEndpoint: `${origin}/msi/token`,
    identityHeader,
    requests,
    issued,
    setFailure: (failure) => void (failWith = failure),
    close: stub.close,
  };
}
