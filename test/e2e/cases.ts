/** Every end-to-end case, in the order they run (they share one VS Code window and build on each other). */
import { batchCases } from './cases-batch';
import { batchCrashCases } from './cases-batch-crash';
import { chatCases } from './cases-chat';
import { editorCases } from './cases-editor';
import { historyCases } from './cases-history';
import { planCases, worktreeCases } from './cases-plan';
import { runtimeCases } from './cases-runtime';
import { themeCases } from './cases-themes';
import { skillCases } from './cases-skills';
import { secretCases, uxCases } from './cases-ux';
import type { E2ECase } from './harness';

export const E2E_CASES: E2ECase[] = [...chatCases, ...batchCases, ...uxCases, ...secretCases, ...editorCases, ...runtimeCases, ...batchCrashCases, ...historyCases, ...planCases, ...skillCases, ...themeCases, ...worktreeCases];
