/**
 * Wire protocol version. Hosts and runtimes are compatible when the major numbers match. 2.0: change-batch events carry
 * summaries (contents come from getChangeContents) and change_batch_updated carries only what changed.
 */
export const PROTOCOL_VERSION = '2.0';

export function protocolMajor(version: string): number | undefined {
  const m = /^(\d+)\.(\d+)$/.exec(version);
  return m ? Number(m[1]) : undefined;
}

export function isCompatibleProtocol(version: string): boolean {
  const theirs = protocolMajor(version);
  return theirs !== undefined && theirs === protocolMajor(PROTOCOL_VERSION);
}
