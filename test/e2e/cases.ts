/** Every end-to-end case, in the order they run (they share one VS Code window and build on each other). */
import { batchCases } from './cases-batch';
import { batchCrashCases } from './cases-batch-crash';
import { chatCases } from './cases-chat';
import { undoCases } from './cases-undo';
import { demoCases } from './cases-demo';
import { editorCases } from './cases-editor';
import { historyCases } from './cases-history';
import { hunkCases } from './cases-hunks';
import { panelCases } from './cases-panel';
import { planCases, worktreeCases } from './cases-plan';
import { runtimeCases } from './cases-runtime';
import { themeCases } from './cases-themes';
import { skillCases } from './cases-skills';
import { settingsCases } from './cases-settings';
import { secretCases, uxCases } from './cases-ux';
import type { E2ECase } from './harness';

export const E2E_CASES: E2ECase[] = [...chatCases, ...batchCases, ...hunkCases, ...undoCases, ...uxCases, ...secretCases, ...editorCases, ...runtimeCases, ...settingsCases, ...batchCrashCases, ...historyCases, ...planCases, ...skillCases, ...themeCases, ...panelCases, ...demoCases, ...worktreeCases];
