// Runtimes started by tests (also through the SDK, which passes its environment on) check every event they send
// against the protocol and stop on one it does not allow (src/runtime/rpc/event-check.ts).
process.env.AGENTCLI_VALIDATE_EVENTS = '1';
