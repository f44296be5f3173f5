/**
 * Our permission and directory questions as ACP `session/request_permission` options, and the client's choice mapped
 * back to our answer. A cancelled outcome (the client cancelled the prompt turn) is a refusal, never an approval.
 */
import type { PermissionOption, RequestPermissionOutcome } from '@agentclientprotocol/sdk';
import type { DirectoryAnswer, PermissionAnswer } from '../agent/host';

/** Option ids: our own scope names, so the answer maps back without a lookup table. */
export function permissionOptions(suggestedRules: readonly string[]): PermissionOption[] {
  const options: PermissionOption[] = [{ optionId: 'once', name: 'Allow once', kind: 'allow_once' }];
  if (suggestedRules.length > 0) {
    const rules = suggestedRules.join(', ');
    options.push({ optionId: 'session', name: `Allow for this session (${rules})`, kind: 'allow_always' });
    options.push({ optionId: 'always', name: `Always allow: save ${rules} to .agentcli/config.json`, kind: 'allow_always' });
  }
  options.push({ optionId: 'deny', name: 'Deny', kind: 'reject_once' });
  return options;
}

export function permissionAnswer(outcome: RequestPermissionOutcome): PermissionAnswer {
  if (outcome.outcome !== 'selected') return { allowed: false, scope: 'once' };
  switch (outcome.optionId) {
    case 'once':
    case 'session':
    case 'always':
      return { allowed: true, scope: outcome.optionId };
    default:
      return { allowed: false, scope: 'once' };
  }
}

export function directoryOptions(): PermissionOption[] {
  return [
    { optionId: 'once', name: 'Allow for this call', kind: 'allow_once' },
    { optionId: 'session', name: 'Allow this folder for the session', kind: 'allow_always' },
    { optionId: 'deny', name: 'Deny', kind: 'reject_once' },
  ];
}

export function directoryAnswer(outcome: RequestPermissionOutcome): DirectoryAnswer {
  if (outcome.outcome !== 'selected') return { allowed: false, scope: 'once', reason: 'the client cancelled the request' };
  if (outcome.optionId === 'once' || outcome.optionId === 'session') return { allowed: true, scope: outcome.optionId };
  return { allowed: false, scope: 'once' };
}
