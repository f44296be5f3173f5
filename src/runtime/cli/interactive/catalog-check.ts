/**
 * `/model <model>` on the hosted provider: the model is checked against the account's catalog (the list the
 * picker shows) before switching, so a model outside the plan is refused at once with the plan that includes it
 * instead of failing at the next prompt. When the catalog cannot be listed, the switch goes ahead with a note.
 */
import type { Selection } from '../../agent/selection';
import { createProvider } from '../../providers/create-provider';
import { resolveServiceAiModel } from '../../providers/serviceai/models';
import { notInPlanRemedy } from '../../providers/serviceai/plan-refusal';
import type { ModelInfo } from '../../providers/types';
import type { InteractiveContext } from './context';

const LIST_TIMEOUT_MS = 30_000;

export interface CatalogRefusal {
  message: string;
  remedy: string;
}

/** Why the catalog does not let the chat use `modelId`, or undefined when it may. */
export function catalogRefusal(modelId: string, models: readonly ModelInfo[]): CatalogRefusal | undefined {
  const id = resolveServiceAiModel(modelId);
  const entry = models.find((m) => m.id === id);
  if (entry?.available) return undefined;
  if (entry) {
    const reason = entry.reason ?? 'cannot be used by this account';
    return { message: `"${id}" ${reason.startsWith('not ') ? 'is ' : ''}${reason}`, remedy: notInPlanRemedy(id) };
  }
  const listed = models.filter((m) => m.available).map((m) => m.id);
  return {
    message: `"${id}" is not in your plan's catalog (it lists ${listed.join(', ') || 'no chat models'})`,
    remedy: notInPlanRemedy(id),
  };
}

/** Lists the catalog for `sel` and says whether switching to it is allowed (printing the refusal if not). */
export async function allowedByCatalog(ctx: InteractiveContext, sel: Selection & { model: string }): Promise<boolean> {
  const { view, style } = ctx;
  const busy = new AbortController();
  ctx.busy = busy;
  let models: ModelInfo[];
  try {
    view.line(style.dim(`checking ${sel.model} against your plan's catalog… (Ctrl-C cancels)`));
    models = await createProvider(ctx.session.config, sel).listModels(AbortSignal.any([busy.signal, AbortSignal.timeout(LIST_TIMEOUT_MS)]));
  } catch (err) {
    if (busy.signal.aborted) {
      view.line(style.dim('cancelled'));
      return false;
    }
    view.line(style.dim(`could not list the catalog (${err instanceof Error ? err.message : String(err)}); switching without the plan check`));
    return true;
  } finally {
    ctx.busy = undefined;
  }
  const refusal = catalogRefusal(sel.model, models);
  if (!refusal) return true;
  view.line(`${style.red('✗')} cannot switch to ${sel.provider ?? 'serviceai'}/${sel.model}: ${refusal.message}`);
  view.line(`  ${style.yellow('remedy:')} ${refusal.remedy}`);
  return false;
}
