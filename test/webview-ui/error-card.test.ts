import assert from 'node:assert/strict';
import type { AgentEvent } from '../../src/protocol';
import { parseFromWebview, safeParseFromWebview, safeParseToWebview } from '../../src/shared/chat/messages';
import { applyEvent, createTranscript, type TranscriptModel } from '../../src/shared/chat/model/transcriptReducer';

const errors = (m: TranscriptModel) => m.items.filter((i) => i.kind === 'error');

describe('error card: the fix travels from the runtime event to the card and back as a button', () => {
  it('an error event with a fix gives an error item with that fix; one without gives none', () => {
    const m = createTranscript();
    const fix = { action: 'set_base_url', configKey: 'serviceai.baseUrl' } as const;
    const event: AgentEvent = { type: 'error', sessionId: 's', runId: 'r1', code: 'config_error', error: 'agentcli.serviceai.baseUrl is not set.', remedy: 'Set it.', fix };
    applyEvent(m, event);
    applyEvent(m, { type: 'error', sessionId: 's', runId: 'r2', code: 'provider_error', error: 'the server failed.' });
    assert.deepEqual(errors(m).map((i) => (i.kind === 'error' ? i.fix : undefined)), [fix, undefined]);
  });

  it('the panel\'s error message may carry a fix; a malformed one is refused', () => {
    assert.equal(safeParseToWebview({ type: 'error', message: 'x', fix: { action: 'set_model', configKey: 'vendorapi.model' } }).ok, true);
    assert.equal(safeParseToWebview({ type: 'error', message: 'x', fix: { action: 'run_this', configKey: 'vendorapi.model' } }).ok, false);
    assert.equal(safeParseToWebview({ type: 'error', message: 'x', fix: { action: 'set_model', configKey: 'a b' } }).ok, false);
  });

  it('a button click is an errorAction of a known kind with a bounded key', () => {
    assert.deepEqual(parseFromWebview({ type: 'errorAction', kind: 'openSetting', configKey: 'serviceai.baseUrl' }), { type: 'errorAction', kind: 'openSetting', configKey: 'serviceai.baseUrl' });
    assert.equal(safeParseFromWebview({ type: 'errorAction', kind: 'runCommand', configKey: 'x' }).ok, false);
    assert.equal(safeParseFromWebview({ type: 'errorAction', kind: 'openSetting', configKey: '' }).ok, false);
    assert.equal(safeParseFromWebview({ type: 'errorAction', kind: 'openSetting', configKey: 'x'.repeat(201) }).ok, false);
  });
});
