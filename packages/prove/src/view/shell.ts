import { PAGE_CSS, PAGE_JS } from './assets.js';
import { escapeHtml, jsonForScript } from './escape.js';

/** What {@link pageShell} wraps. */
export type ShellInput = {
  readonly title: string;
  /** The body's HTML (already escaped where it holds data). */
  readonly body: string;
  /** The data the script reads, embedded as JSON. */
  readonly data: unknown;
  /** Served pages may fetch from their own origin; written files fetch nothing. */
  readonly serve?: boolean;
};

/**
 * A self-contained HTML document: the style sheet and the script inlined, the data as escaped JSON, and
 * a Content-Security-Policy that loads nothing from anywhere (`default-src 'none'`; inline style and
 * script, `data:` images; with `serve`, requests to the page's own origin), so the page works from
 * file:// and cannot reach the network.
 *
 * @param input - {@link ShellInput}.
 * @returns the document.
 */
export function pageShell(input: ShellInput): string {
  const csp = `default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src ${input.serve === true ? "'self'" : "'none'"}; base-uri 'none'; form-action 'none'`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(input.title)}</title>`,
    `<style>${PAGE_CSS}</style>`,
    '</head>',
    '<body>',
    input.body,
    '<footer>Written by poisson-prove view. Self-contained: it loads nothing from the network.</footer>',
    `<script type="application/json" id="poisson-data">${jsonForScript(input.data)}</script>`,
    `<script>${PAGE_JS}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
