// Opens the test page in headless Chromium (Debian's, through playwright-core),
// waits until MapLibre has drawn every tile, and writes a screenshot and what
// the page reported.
// usage: node shot.js PLAYWRIGHT_CORE_DIR CHROMIUM URL OUT.png OUT.json PROFILE_DIR
const [pwDir, chromium, url, png, json, profile] = process.argv.slice(2);
const { chromium: launcher } = require(pwDir);
const fs = require('fs');

(async () => {
  const ctx = await launcher.launchPersistentContext(profile, {
    executablePath: chromium,
    headless: true,
    viewport: { width: 512, height: 384 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
  });
  let code = 1;
  try {
    const page = ctx.pages()[0] || await ctx.newPage();
    const logs = [];
    page.on('console', (m) => logs.push(m.text()));
    page.on('pageerror', (e) => logs.push(String(e)));
    await page.goto(url);
    await page.waitForFunction(() => window.viewerResult, null, { timeout: 60000 });
    const result = await page.evaluate(() => window.viewerResult);
    result.console = logs;
    await page.screenshot({ path: png });
    fs.writeFileSync(json, JSON.stringify(result));
    code = 0;
  } catch (e) {
    console.error(String(e));
  } finally {
    await ctx.close();
  }
  process.exit(code);
})();
