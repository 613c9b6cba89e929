import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const executablePath = '/usr/bin/chromium';

/** Debian's headless chromium (`apt-get install -y chromium`; .ci/run installs it), driven by playwright-core. */
export function launchChromium(): Promise<Browser> {
  if (!existsSync(executablePath))
    throw new Error(`${executablePath} is missing: apt-get install -y chromium`);
  return chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
