// Renders media/icon.png (128×128 marketplace icon) from media/agentcli.svg with Debian's chromium.
// Usage: node scripts/vscode-icon.js   (needs chromium: bash scripts/vscode-setup.sh)
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

(async () => {
  const svg = fs.readFileSync(path.join(__dirname, '..', 'media', 'agentcli.svg'), 'utf8').replace('currentColor', '#f5f5f7');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 128, height: 128 } });
  await page.setContent(`<body style="margin:0;background:transparent"><div style="width:128px;height:128px;border-radius:24px;
    background:linear-gradient(135deg,#4f46e5,#0ea5e9);display:flex;align-items:center;justify-content:center">
    <div style="width:88px;height:88px">${svg.replace('width="24" height="24"', 'width="88" height="88"')}</div></div></body>`);
  await page.screenshot({ path: path.join(__dirname, '..', 'media', 'icon.png'), omitBackground: true });
  await browser.close();
  console.log('wrote media/icon.png');
})().catch((e) => { console.error(e); process.exit(1); });
