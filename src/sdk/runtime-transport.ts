/**
 * How the client reaches a runtime: by default it spawns `agentcli --mode rpc` (RuntimeProcess); a host or a test may
 * give its own connection instead (`RuntimeClientOptions.transport`), for example a runtime running in the same
 * process over a pair of streams, or one reached through a socket. The client speaks the same newline-delimited
 * JSON-RPC over it and needs only these members.
 */
import type { Readable, Writable } from 'node:stream';
import type { ExitInfo } from './runtime-process';

export interface RuntimeTransport {
  /** What the runtime writes (its stdout). */
  readonly stdout: Readable;
  /** What the runtime reads (its stdin). */
  readonly stdin: Writable;
  /** The runtime's process id, when it is a process of its own. */
  readonly pid?: number;
  readonly hasExited: boolean;
  /** Resolves when the runtime has gone (process exit, or the connection closed). */
  whenExited(): Promise<ExitInfo>;
  /** Ends the runtime, escalating after `graceMs` where that means anything. */
  stop(graceMs: number): Promise<ExitInfo>;
}
