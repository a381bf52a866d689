import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRIVATE_ANSWER, viewStore } from './__fixtures__/view-store.js';
import { serveView } from './serve.js';

// A review: served with --private, the page's note under "Discordant pairs" said the cached answer "needs
// --private" (and not that answers were included), while every pair the page then fetched held it.

describe('the served page with private', () => {
  let store: string;
  beforeAll(async () => {
    store = await viewStore();
  }, 30_000);
  afterAll(async () => {
    await rm(store, { recursive: true, force: true });
  });

  it('says the cached answers are included, as the pairs it fetches hold them; without private it does not', async () => {
    for (const priv of [true, false]) {
      const server = await serveView(store, '#3', '#2', { private: priv });
      try {
        const html = await (await fetch(server.url)).text();
        const condition = /data-condition="([^"]*)"/.exec(html)?.[1] as string;
        const pairs = await (await fetch(`${server.url}pairs?condition=${encodeURIComponent(condition)}`)).text();
        expect(pairs.includes(PRIVATE_ANSWER)).toBe(priv);
        expect(html.includes('Cached model answers included (--private).')).toBe(priv);
        expect(html.includes('its cached answer needs --private')).toBe(!priv);
      } finally {
        await server.close();
      }
    }
  });
});
