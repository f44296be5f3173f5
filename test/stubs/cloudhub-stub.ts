/**
 * A cloudhub (cloud-hosted model deployment) server for tests (a test double; never imported by src/).
 * It speaks the deployment's real surface on top of the OpenAI SSE wire of openai-stub:
 *   POST /openai/deployments/{deploymentName}/chat/completions?api-version={apiVersion}
 * - no `api-version` query parameter → 404 `{ error: { code: "404", message: "Resource not found" } }`
 * - no valid `api-key` header and no accepted `Authorization: Bearer <token>` → 401 (code "401", access denied)
 * - a deployment name that is not configured (names match exactly) → 404 `DeploymentNotFound`
 * These are the answers the real service gives; anything else is answered from the scripted replies.
 */
import { startOpenAIStub, type OpenAIStub, type RecordedRequest, type StubReply, type StubRoute } from './openai-stub';

export interface CloudHubStubOptions {
  /** Deployment names that exist on the resource. */
  deployments: string[];
  /** The resource's key, accepted in the `api-key` header. */
  apiKey?: string;
  /** Which Bearer tokens (entra-id / managed-identity) the resource accepts; none without it. */
  acceptToken?: (token: string) => boolean;
  replies?: StubReply[];
}

const DEPLOYMENT_PATH = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/;

function refuse(status: number, code: string, message: string): StubRoute {
  return { kind: 'refuse', status, body: { error: { code, message } } };
}

export const ACCESS_DENIED_MESSAGE =
  'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.';
export const DEPLOYMENT_NOT_FOUND_MESSAGE =
  'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.';

export function cloudHubRoute(opts: CloudHubStubOptions): (req: RecordedRequest) => StubRoute {
  return (req) => {
    const match = DEPLOYMENT_PATH.exec(req.path);
    if (req.method !== 'POST' || !match || !req.query['api-version']) return refuse(404, '404', 'Resource not found');
    const key = req.headers['api-key'];
    const auth = req.headers['authorization'];
    const bearer = typeof auth === 'string' && auth.startsWith('Bearer ') ? auth.slice('Bearer '.length) : undefined;
    const keyOk = opts.apiKey !== undefined && key === opts.apiKey;
    const tokenOk = bearer !== undefined && (opts.acceptToken?.(bearer) ?? false);
    if (!keyOk && !tokenOk) return refuse(401, '401', ACCESS_DENIED_MESSAGE);
    const name = decodeURIComponent(match[1] ?? '');
    if (!opts.deployments.includes(name)) return refuse(404, 'DeploymentNotFound', DEPLOYMENT_NOT_FOUND_MESSAGE);
    return { kind: 'chat' };
  };
}

export function startCloudHubStub(opts: CloudHubStubOptions): Promise<OpenAIStub> {
  return startOpenAIStub({ route: cloudHubRoute(opts), ...(opts.replies ? { replies: opts.replies } : {}) });
}
