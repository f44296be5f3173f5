import { effectiveSelection, type Selection } from '../../agent/selection';
import { PROVIDER_IDS, type ProviderId } from '../../config/schema';
import { createProvider, parseModelSelector } from '../../providers/create-provider';
import { isProviderId } from '../../providers/model-selector';
import type { ModelInfo } from '../../providers/types';
import type { Style } from './ansi';
import { allowedByCatalog } from './catalog-check';
import type { InteractiveContext } from './context';

/** How long `/model` waits for the provider's model list. */
const LIST_TIMEOUT_MS = 30_000;

function currentProvider(ctx: InteractiveContext): ProviderId {
  return effectiveSelection(ctx.session.config, ctx.session.selection).provider;
}

/** Prints an error and, when the error carries one, its remedy. */
export function showError(ctx: InteractiveContext, err: unknown, what?: string): void {
  const message = err instanceof Error ? err.message : String(err);
  ctx.view.line(`${ctx.style.red('✗')} ${what ? `${what}: ` : ''}${message}`);
  const remedy = (err as { remedy?: unknown } | null)?.remedy;
  if (typeof remedy === 'string' && remedy) ctx.view.line(`  ${ctx.style.yellow('remedy:')} ${remedy}`);
}

/** Whether a provider can be built with `sel` (prints why not). */
function canBuild(ctx: InteractiveContext, sel: Selection): boolean {
  try {
    createProvider(ctx.session.config, sel);
    return true;
  } catch (err) {
    showError(ctx, err, `cannot switch to ${sel.provider ?? ctx.session.selected().provider}${sel.model ? `/${sel.model}` : ''}`);
    return false;
  }
}

function commitSelection(ctx: InteractiveContext, sel: Selection): void {
  ctx.session.selection = sel;
  const now = ctx.session.selected();
  ctx.view.line(`${ctx.style.green('✓')} now using ${ctx.style.bold(`${now.provider}/${now.model}`)}`);
}

/** Makes `sel` the session's provider and model after checking the provider can be built with it. */
export function applySelection(ctx: InteractiveContext, sel: Selection): boolean {
  if (!canBuild(ctx, sel)) return false;
  commitSelection(ctx, sel);
  return true;
}

/**
 * `/model <provider>/<model>` switches both; `/model <model>` switches the model of the current provider.
 * A hosted model is checked against the account's catalog first (refused with the plan that includes it).
 */
export async function switchModel(arg: string, ctx: InteractiveContext): Promise<boolean> {
  const sel = parseModelSelector(arg);
  if (!sel.model) {
    ctx.view.line(`${ctx.style.red('✗')} "${arg}" names no model: write /model <provider>/<model>, e.g. /model ggufserver/my-model`);
    return false;
  }
  if (!sel.provider && arg.includes('/')) {
    const head = arg.slice(0, arg.indexOf('/'));
    const current = ctx.session.selected().provider;
    ctx.view.line(
      `${ctx.style.red('✗')} unknown provider "${head}" in "${arg}": providers are ${PROVIDER_IDS.join(', ')}.` +
        ` For a model id that contains a slash, name the provider first: /model ${current}/${arg}`,
    );
    return false;
  }
  const target = { provider: sel.provider ?? currentProvider(ctx), model: sel.model };
  if (!canBuild(ctx, target)) return false;
  if (target.provider === 'serviceai' && !(await allowedByCatalog(ctx, target))) return false;
  commitSelection(ctx, target);
  return true;
}

/** `/provider <id>`: switches provider, with that provider's configured model. */
export function switchProvider(arg: string, ctx: InteractiveContext): boolean {
  const id = arg.trim();
  if (!isProviderId(id)) {
    ctx.view.line(`${ctx.style.red('✗')} unknown provider "${id}": choose one of ${PROVIDER_IDS.join(', ')}`);
    return false;
  }
  return applySelection(ctx, { provider: id });
}

/**
 * `/model`: lists the current provider's models (from its server or catalog), numbered; models the account cannot
 * use are shown with the reason and cannot be chosen.
 */
export async function openModelPicker(ctx: InteractiveContext): Promise<void> {
  const { view, style } = ctx;
  const current = ctx.session.selected();
  let models: ModelInfo[];
  const busy = new AbortController();
  ctx.busy = busy;
  try {
    const provider = createProvider(ctx.session.config, ctx.session.selection);
    view.line(style.dim(`loading the models of ${current.provider}… (Ctrl-C cancels)`));
    models = await provider.listModels(AbortSignal.any([busy.signal, AbortSignal.timeout(LIST_TIMEOUT_MS)]));
  } catch (err) {
    if (busy.signal.aborted) view.line(style.dim('cancelled'));
    else showError(ctx, err, `could not list the models of ${current.provider}`);
    return;
  } finally {
    ctx.busy = undefined;
  }
  if (models.length === 0) {
    view.line(`${style.yellow('!')} ${current.provider} lists no models; name one with /model ${current.provider}/<model>`);
    return;
  }
  view.line(style.bold(`Models of ${current.provider} (current: ${current.model}):`));
  models.forEach((m, i) => view.line(formatModelLine(m, i, current.model, style)));
  for (;;) {
    const line = await ctx.input.ask(`model number (empty keeps ${current.model}) › `);
    if (line === null) return;
    const pick = parseModelPick(line, models, current.model);
    if (pick.kind === 'keep') return;
    if (pick.kind === 'error') {
      view.line(`  ${style.yellow(pick.message)}`);
      continue;
    }
    applySelection(ctx, { provider: currentProvider(ctx), model: pick.model.id });
    return;
  }
}

export type ModelPick = { kind: 'keep' } | { kind: 'pick'; model: ModelInfo } | { kind: 'error'; message: string };

/** Reads the picker's answer: empty keeps the current model; a number picks an available model; anything else is explained. */
export function parseModelPick(answer: string, models: ModelInfo[], currentModel: string): ModelPick {
  const text = answer.trim();
  if (!text) return { kind: 'keep' };
  const n = Number(text);
  const model = /^\d+$/.test(text) ? models[n - 1] : undefined;
  if (!model) return { kind: 'error', message: `"${text}" is not a model number: type 1 to ${models.length}, or press Enter to keep ${currentModel}` };
  if (!model.available) return { kind: 'error', message: `${model.id} cannot be chosen: ${model.reason ?? 'the account cannot use it'}` };
  return { kind: 'pick', model };
}

/** 256000 → `256K`, 1000000 → `1M`. */
export function formatTokenCount(n: number): string {
  if (n >= 1_000_000) return `${Number((n / 1_000_000).toFixed(1))}M`;
  if (n >= 1000) return `${Math.round(n / 1000)}K`;
  return String(n);
}

/** `  2. moa 1M context (current)`; an unavailable model is dimmed with the reason it cannot be used. */
export function formatModelLine(m: ModelInfo, index: number, currentModel: string, style: Style): string {
  const n = `${String(index + 1).padStart(3)}.`;
  const ctxInfo = m.contextWindow ? style.dim(` ${formatTokenCount(m.contextWindow)} context`) : '';
  if (!m.available) return style.dim(`${n} ${m.id}  unavailable: ${m.reason ?? 'not allowed for this account'}`);
  return `${n} ${m.id}${ctxInfo}${m.id === currentModel ? style.green(' (current)') : ''}`;
}
