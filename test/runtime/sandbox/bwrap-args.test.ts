import assert from 'node:assert/strict';
import { bwrapArgs, type BwrapPlan } from '../../../src/runtime/sandbox/bwrap-args';
import { seatbeltProfile } from '../../../src/runtime/sandbox/macos-profile';
import { explainBwrapFailure, probeSandbox, probeSandboxAsync } from '../../../src/runtime/sandbox/probe';

const plan: BwrapPlan = {
  mode: 'workspace-write',
  network: false,
  cwd: '/w/sub',
  command: 'npm test',
  writable: ['/w', '/tmp/agentcli-output/s1', '/data/granted'],
  tmpDir: '/tmp/agentcli-tmp/s1',
  tmpPaths: ['/tmp'],
  readOnly: ['/w/.git/hooks', '/w/.git/config', '/w/.agentcli'],
  emptyReadOnly: [],
  hidden: ['/home/me/.agentcli/config.json'],
  socketDirs: ['/run'],
  resolverPaths: ['/run/systemd/resolve'],
  asRoot: false,
  procSettings: ['/proc/sys'],
};

/** The mount options as `option source dest` triples/pairs, in order. */
const joined = (args: string[]) => args.join(' ');

describe('bubblewrap command line', () => {
  it('workspace-write: root read-only, temp folder, writable folders, protected paths re-bound read-only, no network, own pid namespace', () => {
    const args = bwrapArgs(plan);
    assert.equal(
      joined(args),
      [
        '--ro-bind / / --dev /dev --proc /proc --tmpfs /run',
        '--bind /tmp/agentcli-tmp/s1 /tmp',
        '--bind /w /w --bind /data/granted /data/granted --bind /tmp/agentcli-output/s1 /tmp/agentcli-output/s1',
        '--ro-bind /w/.git/hooks /w/.git/hooks --ro-bind /w/.git/config /w/.git/config --ro-bind /w/.agentcli /w/.agentcli',
        '--ro-bind /dev/null /home/me/.agentcli/config.json',
        '--unshare-net --unshare-ipc --unshare-uts --unshare-pid --die-with-parent --new-session --chdir /w/sub -- bash -c npm test',
      ].join(' '),
    );
    // The command is one argument, never split or quoted.
    assert.equal(args[args.length - 1], 'npm test');
  });

  it('as root: every capability dropped and the kernel settings in /proc read-only', () => {
    const args = joined(bwrapArgs({ ...plan, asRoot: true }));
    assert.match(args, /^--ro-bind \/ \/ --dev \/dev --proc \/proc --ro-bind \/proc\/sys \/proc\/sys /);
    assert.match(args, /--unshare-uts --cap-drop ALL --unshare-pid/);
    assert.doesNotMatch(joined(bwrapArgs(plan)), /cap-drop|\/proc\/sys/);
    assert.doesNotMatch(joined(bwrapArgs({ ...plan, asRoot: true, mode: 'approved' })), /cap-drop/, 'an approved call keeps what the user has');
  });

  it('network allowed: no network namespace; /run still hidden but for name resolution', () => {
    const args = joined(bwrapArgs({ ...plan, network: true }));
    assert.doesNotMatch(args, /--unshare-net/);
    assert.match(args, /--tmpfs \/run --ro-bind \/run\/systemd\/resolve \/run\/systemd\/resolve /);
    assert.doesNotMatch(joined(bwrapArgs(plan)), /--ro-bind \/run\/systemd/);
    assert.match(args, /--unshare-pid --die-with-parent --new-session/);
  });

  it('read-only: nothing bound writable, a private empty temp folder', () => {
    const args = joined(bwrapArgs({ ...plan, mode: 'read-only' }));
    assert.doesNotMatch(args, / --bind /);
    assert.match(args, /--tmpfs \/tmp --ro-bind \/w \/w /);
    assert.match(args, /--unshare-net/);
  });

  it('a missing hooks folder becomes an empty read-only one', () => {
    const args = joined(bwrapArgs({ ...plan, readOnly: [], emptyReadOnly: ['/w/.git/hooks'] }));
    assert.match(args, /--tmpfs \/w\/\.git\/hooks --remount-ro \/w\/\.git\/hooks/);
  });

  it('a call a person approved: the file system and network as they are, but its own pid namespace and /proc', () => {
    assert.equal(
      joined(bwrapArgs({ ...plan, mode: 'approved' })),
      '--bind / / --dev-bind /dev /dev --proc /proc --unshare-pid --die-with-parent --new-session --chdir /w/sub -- bash -c npm test',
    );
  });
});

describe('sandbox-exec profile (macOS; only the text is tested here, on Linux)', () => {
  it('denies writes except the writable and temp folders, keeps protected paths read-only, hides the key file, denies network', () => {
    const profile = seatbeltProfile({
      writable: ['/Users/me/proj', '/Users/me/with "quote"'],
      tmpPaths: ['/private/tmp'],
      readOnly: ['/Users/me/proj/.git/hooks'],
      hidden: ['/Users/me/.agentcli/config.json'],
      network: false,
      readOnlyMode: false,
    });
    assert.equal(
      profile,
      [
        '(version 1)',
        '(allow default)',
        '(deny file-write*)',
        '(allow file-write*',
        '  (subpath "/Users/me/proj")',
        '  (subpath "/Users/me/with \\"quote\\"")',
        '  (subpath "/private/tmp")',
        '  (literal "/dev/null")',
        '  (literal "/dev/tty")',
        '  (regex #"^/dev/fd/"))',
        '(deny file-write*',
        '  (subpath "/Users/me/proj/.git/hooks"))',
        '(deny file-read*',
        '  (literal "/Users/me/.agentcli/config.json"))',
        '(deny network*)',
        '',
      ].join('\n'),
    );
  });

  it('read-only mode writes only the temp folders; network allowed leaves no network rule', () => {
    const profile = seatbeltProfile({ writable: ['/p'], tmpPaths: ['/tmp'], readOnly: [], hidden: [], network: true, readOnlyMode: true });
    assert.doesNotMatch(profile, /"\/p"/);
    assert.match(profile, /\(subpath "\/tmp"\)/);
    assert.doesNotMatch(profile, /network/);
  });
});

describe('sandbox probe', () => {
  it('names the missing binary and the install command', () => {
    const probe = probeSandbox({ PATH: process.env.PATH, AGENTCLI_BWRAP: '/nonexistent/bwrap' }, 'linux');
    assert.equal(probe.available, false);
    assert.match(probe.available ? '' : probe.reason, /\/nonexistent\/bwrap\) is not installed.*apt-get install bubblewrap.*agentcli config set sandbox\.mode off/);
  });

  it('explains a namespace failure with the sysctl fixes', () => {
    const reason = explainBwrapFailure('bwrap', { stderr: 'bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces.', status: 1 });
    assert.match(reason, /bwrap said: bwrap: No permissions/);
    assert.match(reason, /kernel\.unprivileged_userns_clone=1/);
    assert.match(reason, /kernel\.apparmor_restrict_unprivileged_userns=0/);
    assert.match(reason, /sandbox\.mode off/);
  });

  it('finds bubblewrap working on this machine', () => {
    const probe = probeSandbox({ PATH: process.env.PATH }, 'linux');
    assert.equal(probe.available, true, probe.available ? '' : probe.reason);
  });

  it('probes the same without blocking', async () => {
    assert.equal((await probeSandboxAsync({ PATH: process.env.PATH }, 'linux')).available, true);
    const missing = await probeSandboxAsync({ PATH: process.env.PATH, AGENTCLI_BWRAP: '/nonexistent/bwrap' }, 'linux');
    assert.match(missing.available ? '' : missing.reason, /\/nonexistent\/bwrap\) is not installed/);
    const failing = await probeSandboxAsync({ PATH: process.env.PATH, AGENTCLI_BWRAP: 'false' }, 'linux');
    assert.match(failing.available ? '' : failing.reason, /cannot create the sandbox's namespaces here \(false exited with 1\)/);
  });

  it('has no sandbox on other systems and says so', () => {
    const probe = probeSandbox({}, 'win32');
    assert.equal(probe.available, false);
    assert.match(probe.available ? '' : probe.reason, /no command sandbox on win32/);
  });
});
