// Drives the forecast page (docs/maplibre/forecast.html) in headless Chromium
// (Debian's, through playwright-core): waits until MapLibre is idle with the
// first valid time, screenshots it, presses "next" and waits again, then sets
// the slider back to the first time. Each state (what the page shows: the time
// label, its datetime, the map's view, the boxes of the legend and controls)
// goes to OUT.json, the screenshots to OUT-0.png, OUT-1.png, OUT-2.png.
// The browser's time zone is Newfoundland's (UTC-2:30 in October).
// usage: node shot_time.js PLAYWRIGHT_CORE_DIR CHROMIUM URL OUT PROFILE_DIR
const [pwDir, chromium, url, out, profile] = process.argv.slice(2);
const { chromium: launcher } = require(pwDir);
const fs = require('fs');

const TIMEOUT = 60000;

async function state(page, i) {
  // MapLibre idle with time i drawn (the page sets forecast.shown), or an error.
  await page.waitForFunction((i) => window.forecast && (window.forecast.error ||
    window.forecast.shown === i), i, { timeout: TIMEOUT });
  return page.evaluate(() => {
    const box = (el) => {
      if (!el) return null;
      const r = el.getBoundingClientRect();
      return { left: r.left, top: r.top, width: r.width, height: r.height };
    };
    const f = window.forecast;
    const when = document.getElementById('when');
    const legend = document.getElementById('legend');
    const c = f.map.getCenter();
    return {
      error: f.error || null, errors: f.errors, times: f.times, index: f.index, shown: f.shown,
      label: when.textContent, datetime: when.getAttribute('datetime'),
      legend: box(legend), legendShown: legend.complete && legend.naturalWidth > 0 &&
        getComputedStyle(legend).display !== 'none',
      legendNatural: [legend.naturalWidth, legend.naturalHeight],
      covers: ['#panel', '#legend', '.maplibregl-ctrl-top-right', '.maplibregl-ctrl-bottom-right',
        '.maplibregl-ctrl-top-left', '.maplibregl-ctrl-bottom-left']
        .map((s) => box(document.querySelector(s))).filter((b) => b && b.width > 0),
      center: [c.lng, c.lat], zoom: f.map.getZoom(),
      width: f.map.getCanvas().clientWidth, height: f.map.getCanvas().clientHeight,
      dpr: devicePixelRatio,
    };
  });
}

(async () => {
  const ctx = await launcher.launchPersistentContext(profile, {
    executablePath: chromium,
    headless: true,
    viewport: { width: 768, height: 512 },
    // Not UTC, so that a label in the computer's time would show.
    timezoneId: 'America/St_Johns',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
  });
  let code = 1;
  const states = [];
  const logs = [];
  try {
    const page = ctx.pages()[0] || await ctx.newPage();
    page.on('console', (m) => logs.push(m.text()));
    page.on('pageerror', (e) => logs.push(String(e)));
    await page.goto(url);
    states.push(await state(page, 0));
    await page.screenshot({ path: `${out}-0.png` });
    await page.click('#next');
    states.push(await state(page, 1));
    await page.screenshot({ path: `${out}-1.png` });
    await page.locator('#slider').fill('0');
    states.push(await state(page, 0));
    await page.screenshot({ path: `${out}-2.png` });
    code = 0;
  } catch (e) {
    console.error(String(e));
    console.error(logs.join('\n'));
  } finally {
    fs.writeFileSync(`${out}.json`, JSON.stringify({ states, console: logs }));
    await ctx.close();
  }
  process.exit(code);
})();
