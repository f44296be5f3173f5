/**
 * Writes the extension's manifest fields into package.json, and only those (the rest of the file belongs to others):
 * main, activationEvents, categories, icon, galleryBanner, capabilities, contributes, and the scripts package / test:e2e /
 * start:vscode. `contributes.configuration` is generated from the settings table, so settings and the
 * settings → configure mapping cannot drift apart.
 *
 * Usage: node --import tsx scripts/vscode-manifest.ts [--check]   (--check: exit 1 if package.json is out of date)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { CONTEXT_KEYS } from '../src/extension/chat/context-keys';
import { HOST_SETTINGS, PROVIDER_SETTINGS, type SettingSpec } from '../src/extension/settings/table';

const root = path.resolve(__dirname, '..');
const file = process.env.MANIFEST_FILE ?? path.join(root, 'package.json');

function property(spec: SettingSpec): Record<string, unknown> {
  const p: Record<string, unknown> = { type: spec.type, markdownDescription: spec.description };
  if (spec.default !== undefined) p.default = spec.default;
  if (spec.scope) p.scope = spec.scope;
  if (spec.type === 'string') {
    if (spec.enum) p.enum = [...spec.enum];
    if (spec.enumDescriptions) p.markdownEnumDescriptions = spec.enumDescriptions;
    if (spec.format === 'url') p.pattern = '^https?://';
    if (spec.format === 'url') p.patternErrorMessage = 'Must be an http:// or https:// URL, e.g. http://localhost:8080';
    if (spec.format === 'keepAlive') {
      p.pattern = '^(-1|0|\\d+(ms|s|m|h))$';
      p.patternErrorMessage = 'Must be "0", "-1" or a duration such as "5m", "10m", "1h"';
    }
  } else if (spec.type === 'object') {
    p.additionalProperties = spec.schema;
  } else if (spec.type === 'integer' || spec.type === 'number') {
    if (spec.minimum !== undefined) p.minimum = spec.minimum;
    if (spec.maximum !== undefined) p.maximum = spec.maximum;
  }
  if (spec.default === undefined && spec.type !== 'boolean') p.type = [spec.type, 'null'];
  if (spec.default === undefined && spec.type === 'boolean') p.type = ['boolean', 'null'];
  if (spec.default === undefined) p.default = null;
  return p;
}

const group = (title: string, order: number, specs: readonly SettingSpec[], keys: (k: string) => boolean) => ({
  id: `agentcli.${title.toLowerCase().replace(/[^a-z]+/g, '-')}`,
  title,
  order,
  properties: Object.fromEntries(specs.filter((s) => keys(s.key)).map((s) => [`agentcli.${s.key}`, property(s)])),
});

const configuration = [
  group('General', 0, [...PROVIDER_SETTINGS, ...HOST_SETTINGS], (k) => !k.includes('.')),
  group('Hosted service (serviceai)', 1, PROVIDER_SETTINGS, (k) => k.startsWith('serviceai.')),
  group('Local model runner (localrunner)', 2, PROVIDER_SETTINGS, (k) => k.startsWith('localrunner.')),
  group('Local gguf server (ggufserver)', 3, PROVIDER_SETTINGS, (k) => k.startsWith('ggufserver.')),
  group('Vendor API (vendorapi)', 4, PROVIDER_SETTINGS, (k) => k.startsWith('vendorapi.')),
  group('Cloud deployment (cloudhub)', 5, PROVIDER_SETTINGS, (k) => k.startsWith('cloudhub.')),
];

const cat = 'agentcli';
const commands = [
  { command: 'agentcli.openChat', title: 'Open Chat', category: cat, icon: '$(comment-discussion)' },
  { command: 'agentcli.newChat', title: 'New Chat', category: cat, icon: '$(add)' },
  { command: 'agentcli.stop', title: 'Stop', category: cat, icon: '$(debug-stop)' },
  { command: 'agentcli.openHistory', title: 'Open Chat History…', category: cat, icon: '$(history)' },
  { command: 'agentcli.compactConversation', title: 'Compact Conversation', category: cat, icon: '$(fold)' },
  { command: 'agentcli.addSelectionToChat', title: 'Add Selection to Chat', category: cat },
  { command: 'agentcli.selectModel', title: 'Select Model…', category: cat, icon: '$(hubot)' },
  { command: 'agentcli.selectProvider', title: 'Select Provider…', category: cat },
  { command: 'agentcli.applyLocalRunnerPreset', title: 'Apply Local Runner Preset…', category: cat },
  { command: 'agentcli.togglePlanMode', title: 'Toggle Plan Mode', category: cat },
  { command: 'agentcli.selectLoopStrategy', title: 'Select Loop Strategy…', category: cat },
  { command: 'agentcli.startAutoMode', title: 'Start Auto Mode…', category: cat },
  { command: 'agentcli.autoModeActions', title: 'Auto Mode Actions…', category: cat },
  { command: 'agentcli.showAutoModeLog', title: 'Show Auto Mode Log', category: cat },
  { command: 'agentcli.reviewAutoModeChanges', title: 'Review Auto Mode Changes', category: cat },
  { command: 'agentcli.showTools', title: 'Show Tools', category: cat },
  { command: 'agentcli.setPermissionMode', title: 'Set Permission Mode…', category: cat },
  { command: 'agentcli.yolo', title: 'Turn On Yolo Mode…', category: cat },
  { command: 'agentcli.yoloOff', title: 'Turn Off Yolo Mode', category: cat },
  { command: 'agentcli.reviewChanges', title: 'Review Proposed Changes', category: cat, icon: '$(diff-multiple)' },
  { command: 'agentcli.acceptAllChanges', title: 'Accept All Changes', category: cat, icon: '$(check-all)' },
  { command: 'agentcli.rejectAllChanges', title: 'Reject All Changes', category: cat, icon: '$(close-all)' },
  { command: 'agentcli.acceptSelectedChanges', title: 'Accept Selected Changes…', category: cat, icon: '$(checklist)' },
  { command: 'agentcli.undoLastChanges', title: 'Undo Last Applied Changes', category: cat, icon: '$(discard)' },
  { command: 'agentcli.acceptFile', title: 'Accept This File', category: cat, icon: '$(check)' },
  { command: 'agentcli.rejectFile', title: 'Reject This File', category: cat, icon: '$(discard)' },
  { command: 'agentcli.acceptHunk', title: 'Accept Hunk', category: cat },
  { command: 'agentcli.rejectHunk', title: 'Reject Hunk', category: cat },
  { command: 'agentcli.applyReviewedHunks', title: 'Apply Reviewed Hunks', category: cat, icon: '$(pass-filled)' },
  { command: 'agentcli.recommendSkills', title: 'Recommend Skills…', category: cat },
  { command: 'agentcli.generateSkill', title: 'Generate Skill…', category: cat },
  { command: 'agentcli.continueInBrowser', title: 'Continue in Browser', category: cat },
  { command: 'agentcli.continueTerminalSession', title: 'Continue Latest Terminal Session Here', category: cat },
  { command: 'agentcli.setMcpSecret', title: 'Set MCP Secret…', category: cat, icon: '$(key)' },
  { command: 'agentcli.refreshMcpServers', title: 'Refresh MCP Servers', category: cat, icon: '$(refresh)' },
  { command: 'agentcli.restartRuntime', title: 'Restart Runtime', category: cat, icon: '$(debug-restart)' },
  { command: 'agentcli.showOutput', title: 'Show Output', category: cat },
  // one picker for every provider's key; the per-provider ids (agentcli.setApiKey.<provider>) stay registered, unlisted
  { command: 'agentcli.setApiKey', title: 'Set API Key…', category: cat, icon: '$(key)' },
];

const UNDER_REVIEW = 'agentcli.batchUnderReview';
const { running: RUNNING, yolo: YOLO, batchProposed: PROPOSED, autoMode: AUTO_MODE } = CONTEXT_KEYS;
const IN_OUR_DIFF = `${UNDER_REVIEW} && resourceScheme == agentcli-change`;
const IN_BATCH_EDITOR = `${UNDER_REVIEW} && (resourceScheme == agentcli-change || activeEditor == multiDiffEditor)`;
/** Some hunk of the batch under review is rejected (src/extension/changes/hunk-review.ts). */
const HUNKS_REJECTED = `${UNDER_REVIEW} && agentcli.hunksRejected`;

const contributes = {
  // The side bar reads "Agent" over its "Chat" and "MCP Servers" sections ("Agent: Chat" when only Chat is shown).
  viewsContainers: { activitybar: [{ id: 'agentcli', title: 'Agent', icon: 'media/agentcli.svg' }] },
  views: {
    agentcli: [
      { type: 'webview', id: 'agentcli.chat', name: 'Chat', icon: 'media/agentcli.svg' },
      { id: 'agentcli.mcpServers', name: 'MCP Servers', icon: 'media/agentcli.svg', visibility: 'collapsed' },
    ],
  },
  commands,
  menus: {
    'editor/title': [
      { command: 'agentcli.applyReviewedHunks', when: `${IN_BATCH_EDITOR} && agentcli.hunksRejected`, group: 'navigation@0' },
      { command: 'agentcli.acceptFile', when: IN_OUR_DIFF, group: 'navigation@1' },
      { command: 'agentcli.rejectFile', when: IN_OUR_DIFF, group: 'navigation@2' },
      { command: 'agentcli.acceptAllChanges', when: IN_BATCH_EDITOR, group: 'navigation@3' },
      { command: 'agentcli.rejectAllChanges', when: IN_BATCH_EDITOR, group: 'navigation@4' },
      { command: 'agentcli.acceptSelectedChanges', when: IN_BATCH_EDITOR, group: 'navigation@5' },
    ],
    'view/title': [
      { command: 'agentcli.newChat', when: 'view == agentcli.chat', group: 'navigation@1' },
      { command: 'agentcli.selectModel', when: 'view == agentcli.chat', group: 'navigation@2' },
      { command: 'agentcli.openHistory', when: 'view == agentcli.chat', group: 'navigation@3' },
      { command: 'agentcli.refreshMcpServers', when: 'view == agentcli.mcpServers', group: 'navigation@1' },
      { command: 'agentcli.setMcpSecret', when: 'view == agentcli.mcpServers', group: 'navigation@2' },
      { command: 'agentcli.restartRuntime', when: 'view == agentcli.mcpServers', group: 'navigation@3' },
    ],
    'editor/context': [
      { command: 'agentcli.addSelectionToChat', when: 'editorHasSelection', group: 'agentcli@1' },
      // in the multi-file diff editor the resource is not the change's: that editor counts too
      { command: 'agentcli.rejectHunk', when: IN_BATCH_EDITOR, group: 'agentcli@2' },
      { command: 'agentcli.acceptHunk', when: IN_BATCH_EDITOR, group: 'agentcli@3' },
      { command: 'agentcli.applyReviewedHunks', when: `${IN_BATCH_EDITOR} && agentcli.hunksRejected`, group: 'agentcli@4' },
    ],
    // Every command that cannot always apply is listed only when it can (the keys: src/extension/chat/context-keys.ts,
    // agentcli.batchUnderReview in batch-review.ts, agentcli.hasConversation in chat-history.ts).
    commandPalette: [
      { command: 'agentcli.stop', when: RUNNING },
      // saved chats belong to a folder; compacting needs a conversation (the context key follows getContextUsage)
      { command: 'agentcli.openHistory', when: 'workspaceFolderCount > 0' },
      { command: 'agentcli.compactConversation', when: `agentcli.hasConversation && !${RUNNING}` },
      { command: 'agentcli.continueInBrowser', when: 'agentcli.hasConversation' },
      { command: 'agentcli.addSelectionToChat', when: 'editorIsOpen' },
      { command: 'agentcli.yolo', when: `!${YOLO}` },
      { command: 'agentcli.yoloOff', when: YOLO },
      { command: 'agentcli.startAutoMode', when: `!${AUTO_MODE}` },
      { command: 'agentcli.autoModeActions', when: AUTO_MODE },
      { command: 'agentcli.reviewAutoModeChanges', when: PROPOSED },
      { command: 'agentcli.reviewChanges', when: PROPOSED },
      { command: 'agentcli.acceptFile', when: IN_OUR_DIFF },
      { command: 'agentcli.rejectFile', when: IN_OUR_DIFF },
      { command: 'agentcli.acceptHunk', when: IN_BATCH_EDITOR },
      { command: 'agentcli.rejectHunk', when: IN_BATCH_EDITOR },
      { command: 'agentcli.applyReviewedHunks', when: HUNKS_REJECTED },
      { command: 'agentcli.acceptAllChanges', when: UNDER_REVIEW },
      { command: 'agentcli.rejectAllChanges', when: UNDER_REVIEW },
      { command: 'agentcli.acceptSelectedChanges', when: UNDER_REVIEW },
      // an applied batch of this chat can still be undone (src/extension/changes/undo-changes.ts)
      { command: 'agentcli.undoLastChanges', when: 'agentcli.undoAvailable' },
    ],
  },
  keybindings: [
    { command: 'agentcli.addSelectionToChat', key: 'ctrl+alt+a', mac: 'cmd+alt+a', when: 'editorTextFocus' },
    // not ctrl+alt+i / cmd+alt+i: VS Code's own Chat and (mac) Toggle Developer Tools use them
    { command: 'agentcli.openChat', key: 'ctrl+alt+k', mac: 'cmd+alt+k' },
    { command: 'agentcli.newChat', key: 'ctrl+l', mac: 'cmd+l', when: 'focusedView == agentcli.chat' },
    { command: 'agentcli.acceptAllChanges', key: 'ctrl+alt+y', mac: 'cmd+alt+y', when: UNDER_REVIEW },
    { command: 'agentcli.rejectAllChanges', key: 'ctrl+alt+n', mac: 'cmd+alt+n', when: UNDER_REVIEW },
  ],
  configuration,
};

const restricted = [...PROVIDER_SETTINGS, ...HOST_SETTINGS].filter((s) => s.restricted).map((s) => `agentcli.${s.key}`);
const capabilities = {
  untrustedWorkspaces: {
    supported: 'limited',
    description:
      'In a workspace you have not trusted, agentcli ignores the workspace\'s provider addresses, MCP servers and runtime path, so a folder cannot send your API keys to another host or make the extension run a program.',
    restrictedConfigurations: restricted,
  },
};

const manifest = {
  main: './dist/extension.js',
  // Commands and the view activate the extension implicitly (VS Code >= 1.74); nothing runs on startup.
  activationEvents: ['onView:agentcli.chat'],
  categories: ['AI', 'Chat', 'Programming Languages'],
  icon: 'media/icon.png',
  galleryBanner: { color: '#1e1e2e', theme: 'dark' },
  capabilities,
  contributes,
};
const scripts = {
  package: 'npm run build && vsce package --no-dependencies --allow-missing-repository --skip-license --out agentcli.vsix',
  'test:e2e': 'npm run build && bash scripts/vscode-setup.sh && node --import tsx scripts/e2e-run.ts',
  'start:vscode': 'bash scripts/start-vscode.sh',
};

// Re-read right before writing: others edit other fields of package.json concurrently.
const pkg = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
const next: Record<string, unknown> = { ...pkg, ...manifest, scripts: { ...(pkg.scripts as Record<string, string>), ...scripts } };
const text = `${JSON.stringify(next, null, 2)}\n`;
if (process.argv.includes('--check')) {
  if (text !== readFileSync(file, 'utf8')) {
    console.error('package.json manifest fields are out of date: run `node --import tsx scripts/vscode-manifest.ts`');
    process.exit(1);
  }
  console.log('package.json manifest fields are up to date');
} else {
  writeFileSync(file, text);
  console.log(`package.json: wrote main, activationEvents, categories, icon, galleryBanner, capabilities, contributes (${commands.length} commands, ${Object.values(configuration).reduce((n, g) => n + Object.keys(g.properties).length, 0)} settings) and scripts package, test:e2e, start:vscode`);
}
