// Test helper: Debian's Chromium (/usr/bin/chromium, installed by .ci/run when missing) driven by
// playwright-core, headless, with a fresh profile and nothing that reaches the network by itself.
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** The browser the tests and the benchmark use: $CHROMIUM, else Debian's package. */
export const CHROMIUM = process.env['CHROMIUM'] ?? '/usr/bin/chromium';

/** The launch flags that work on this machine (no sandbox as root, no GPU, nothing in the background). */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** True when the browser is there (the tests skip with a message otherwise; .ci/run installs it). */
export function haveChromium(): boolean {
  return existsSync(CHROMIUM);
}

/** A page in a fresh profile, with every request and console message recorded. */
export type BrowserSession = {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Console messages of type error, and uncaught page errors. */
  readonly errors: string[];
  /** Every URL the page requested. */
  readonly requests: string[];
  close(): Promise<void>;
};

/** Launches Chromium with a fresh --user-data-dir and opens one page. */
export async function openBrowser(): Promise<BrowserSession> {
  const profile = await mkdtemp(join(tmpdir(), 'poisson-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1280, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => requests.push(r.url()));
  return {
    context,
    page,
    errors,
    requests,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
