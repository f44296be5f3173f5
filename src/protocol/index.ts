/**
 * The wire contract, importable anywhere (Node and the browser). The Node-only stdio transport (newline-delimited
 * JSON-RPC framing) is `./transport`, imported by the runtime and the SDK directly.
 */
export * from './version';
export * from './errors';
export * from './records';
export * from './events';
export * from './methods';
export * from './change-batch';
export * from './hooks';
export * from './automode';
export * from './handoff';
export * from './learning';
export * from './undo';
