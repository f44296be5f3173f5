import type { AttachFailureReason } from '../protocol/records';
import { SdkError } from './errors';

/**
 * `Agent.create({ sessionId })` could not continue that saved session: `reason` is the runtime's typed answer
 * (`not_found`, `busy` (open in another runtime), `corrupt`, `other_workspace`). The agent was closed.
 */
export class SessionAttachError extends SdkError {
  constructor(
    readonly sessionId: string,
    readonly reason: AttachFailureReason,
    message: string,
  ) {
    super(`cannot continue saved session ${sessionId} (${reason}): ${message}`);
  }
}
