import { accessSync, constants } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** The Chromium to drive: `CHROMIUM_PATH` when set, else Debian's; no browser is ever downloaded. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || DEBIAN_CHROMIUM;
}

/** Why no Chromium can be run here, or undefined when one can. */
export function chromiumUnavailable(): string | undefined {
  const path = chromiumPath();
  try {
    accessSync(path, constants.X_OK);
    return undefined;
  } catch (error) {
    return `no Chromium: ${path} cannot be run (${(error as Error).message}); apt-get install chromium, or set CHROMIUM_PATH`;
  }
}

/**
 * In a `describe`: skips its specs, saying why, when no Chromium can be run (like `requireRedis`
 * for a missing redis-server); never a silent skip.
 */
export function requireChromium(): void {
  before(function () {
    const why = chromiumUnavailable();
    if (why) {
      process.stderr.write(`      skipped: ${why}\n`);
      this.skip();
    }
  });
}

/**
 * Headless Chromium as root in a container: no sandbox (it needs user namespaces a container
 * rarely grants), the new headless mode (what `--headless` means since Chromium 132; said
 * explicitly for older builds), and /tmp instead of a small /dev/shm.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    chromiumSandbox: false,
    args: ['--no-sandbox', '--headless=new', '--disable-dev-shm-usage', '--disable-gpu'],
  });
}
