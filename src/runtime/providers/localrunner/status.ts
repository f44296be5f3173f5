/** Parses the local runner's model lists: installed (`/api/tags`) and running (`/api/ps`, with GPU memory use). */
import * as z from '../../../protocol/zod';
import { safeProviderError, type ErrorContext } from '../errors';

const TagsBody = z.object({ models: z.array(z.looseObject({ name: z.string().optional(), model: z.string().optional() })) });
const PsBody = z.object({
  models: z.array(
    z.looseObject({
      name: z.string().optional(),
      model: z.string().optional(),
      size: z.number().optional(),
      size_vram: z.number().optional(),
      expires_at: z.string().optional(),
    }),
  ),
});

export interface InstalledModel {
  name: string;
  extra: Record<string, unknown>;
}

export interface RunningModel {
  name: string;
  /** Bytes in memory in all. */
  size: number;
  /** Bytes of that in GPU memory (0: CPU only). */
  sizeVram: number;
  expiresAt?: string;
}

function malformed(ctx: ErrorContext, path: string, issues: string): Error {
  return safeProviderError(
    ctx,
    'provider_error',
    `the local runner at ${ctx.endpoint} answered ${path} in an unexpected shape (${issues})`,
    'check that localrunner.baseUrl points at the local runner and that it is up to date',
  );
}

export function parseTags(body: unknown, ctx: ErrorContext): InstalledModel[] {
  const parsed = TagsBody.safeParse(body);
  if (!parsed.success) throw malformed(ctx, '/api/tags', parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return parsed.data.models.flatMap((entry) => {
    const { name, model, ...extra } = entry;
    const id = name ?? model;
    return id ? [{ name: id, extra: { ...extra, ...(model && model !== id ? { model } : {}) } }] : [];
  });
}

export function parsePs(body: unknown, ctx: ErrorContext): RunningModel[] {
  const parsed = PsBody.safeParse(body);
  if (!parsed.success) throw malformed(ctx, '/api/ps', parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return parsed.data.models.flatMap((m) => {
    const name = m.name ?? m.model;
    if (!name) return [];
    return [{ name, size: m.size ?? 0, sizeVram: m.size_vram ?? 0, ...(m.expires_at ? { expiresAt: m.expires_at } : {}) }];
  });
}

function gib(bytes: number): string {
  return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}

/** `running: a (4.1 GB, 100% GPU), b (2.0 GB, CPU only)` or `no model loaded`. */
export function describeRunning(running: readonly RunningModel[]): string {
  if (running.length === 0) return 'no model loaded right now';
  const parts = running.map((m) => {
    if (m.size <= 0) return m.name;
    const share = m.sizeVram <= 0 ? 'CPU only' : `${Math.round((Math.min(m.sizeVram, m.size) / m.size) * 100)}% GPU`;
    return `${m.name} (${gib(m.size)}, ${share})`;
  });
  return `running: ${parts.join(', ')}`;
}
