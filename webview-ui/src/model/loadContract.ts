/**
 * The panel's validation code (contract.ts: zod and the schemas) is evaluated on first use, not as the page starts:
 * the bundle carries it, and `import()` of a bundled module only runs that module's code (esbuild, one file, no
 * splitting). Evaluating zod and building its first schemas cost ~40% of the page's start.
 */
import type * as Contract from './contract';

export type PanelContract = typeof Contract;

let loading: Promise<PanelContract> | undefined;

export function loadContract(): Promise<PanelContract> {
  return (loading ??= import('./contract'));
}
