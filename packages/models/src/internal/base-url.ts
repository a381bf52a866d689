/**
 * A base URL as it may be recorded: without user name, password, query or fragment (any of which may
 * hold a credential), and without trailing slashes. A string that does not parse as a URL loses anything
 * between `//` and `@` and from `?` or `#` on.
 */
export function publicBaseURL(baseURL: string): string {
  try {
    const u = new URL(baseURL);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return baseURL.replace(/\/\/[^/@]*@/, '//').replace(/[?#].*$/, '').replace(/\/+$/, '');
  }
}
