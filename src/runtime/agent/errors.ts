import { RpcErrorCode } from '../../protocol/errors';

/** A request the runtime refuses, with the JSON-RPC error code the host receives. */
export class RuntimeRequestError extends Error {
  constructor(
    readonly code: RpcErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RuntimeRequestError';
  }
}
