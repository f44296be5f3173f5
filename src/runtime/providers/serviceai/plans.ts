/**
 * Plans of the hosted service (spec 000 §2.1) and which plan includes each service model.
 *
 * The rule applied by agentcli:
 * 1. The catalog `GET /v1/models` returns for the caller's key is authoritative. A model it lists is shown as
 *    the account's; a known service model it does not list is shown as not in the plan, with the plan that
 *    includes it. The client never enables or hides a model on its own reading of the plan tables.
 * 2. The spec makes two statements about `weka`: the plan list (§2.1) shows it from Lite upward, the model table
 *    (§2.2) says Pro and above. Both are kept as given; the plan hint for `weka` names both ("from Lite in the
 *    plan list; the model table says Pro and above"), and the server's catalog and answers settle it.
 */

export const PLAN_NAMES = ['Free', 'Lite', 'Pro', 'Pro+', 'Max', 'Team', 'Enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

/** §2.1 plan list: the first plan whose list names the model. */
export const PLAN_LIST_FIRST_PLAN: Readonly<Record<string, PlanName>> = { fantail: 'Free', weka: 'Lite', moa: 'Pro' };

/** §2.2 model table, "Plans" column: the lowest plan named. */
export const MODEL_TABLE_FIRST_PLAN: Readonly<Record<string, PlanName>> = { fantail: 'Free', moa: 'Pro', weka: 'Pro' };

/** The plans from `first` upward, e.g. `Pro, Pro+, Max, Team, Enterprise`. */
export function plansFrom(first: PlanName): PlanName[] {
  return PLAN_NAMES.slice(PLAN_NAMES.indexOf(first));
}

/**
 * Which plan includes a service model, in words; both spec statements when they differ.
 * Undefined for a model the spec does not place (e.g. a third-party model).
 */
export function planHint(modelId: string): string | undefined {
  const fromList = PLAN_LIST_FIRST_PLAN[modelId];
  const fromTable = MODEL_TABLE_FIRST_PLAN[modelId];
  if (!fromList || !fromTable) return undefined;
  if (fromList === fromTable) return `included from the ${fromList} plan (${plansFrom(fromList).join(', ')})`;
  return `included from the ${fromList} plan in the plan list; the model table says ${fromTable} and above`;
}

/**
 * Whether some plan leaves the model out, per both spec tables (fantail is in every plan, moa and weka are not).
 * Only then can a refusal be about the plan; a third-party model the spec does not place is undecided (false).
 */
export function outsideSomePlan(modelId: string): boolean {
  const fromList = PLAN_LIST_FIRST_PLAN[modelId];
  const fromTable = MODEL_TABLE_FIRST_PLAN[modelId];
  if (!fromList || !fromTable) return false;
  return fromList !== PLAN_NAMES[0] || fromTable !== PLAN_NAMES[0];
}
