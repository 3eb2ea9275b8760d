/**
 * A browser stand-in for portal tests over real HTTP: keeps cookies by hand, never follows redirects (the
 * test reads them), and remembers the CSRF token of the last page so forms can be posted like a browser.
 */
export interface PortalResponse {
  status: number;
  html: string;
  location: string | null;
  setCookies: string[];
}

export class PortalClient {
  readonly base: string;
  readonly cookies = new Map<string, string>();
  csrf: string | undefined;

  constructor(base: string) {
    this.base = base;
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private async send(path: string, init: RequestInit): Promise<PortalResponse> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', this.cookieHeader());
    const response = await fetch(this.base + path, { ...init, headers, redirect: 'manual' });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';');
      const [name, value] = pair!.split('=') as [string, string];
      const expired = attributes.some((a) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(a));
      if (expired || value === '') this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    const html = await response.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
    if (token) this.csrf = token;
    return { status: response.status, html, location: response.headers.get('location'), setCookies };
  }

  get(path: string): Promise<PortalResponse> {
    return this.send(path, { method: 'GET' });
  }

  /** Posts a form; the page's CSRF token is added unless `csrf: false` (or another token) is given. */
  post(
    path: string,
    fields: Record<string, string | string[]>,
    options: { csrf?: string | false } = {},
  ): Promise<PortalResponse> {
    const body = new URLSearchParams();
    const token = options.csrf === undefined ? this.csrf : options.csrf;
    if (token) body.append('_csrf', token);
    for (const [key, value] of Object.entries(fields)) {
      for (const v of Array.isArray(value) ? value : [value]) body.append(key, v);
    }
    return this.send(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
  }

  /** Posts a multipart form as a browser does: the page's CSRF token first, then the fields, then the file. */
  postFile(
    path: string,
    fields: Record<string, string>,
    file?: { field: string; name: string; type: string; content: string },
  ): Promise<PortalResponse> {
    const body = new FormData();
    if (this.csrf) body.append('_csrf', this.csrf);
    for (const [key, value] of Object.entries(fields)) body.append(key, value);
    if (file) body.append(file.field, new Blob([file.content], { type: file.type }), file.name);
    return this.send(path, { method: 'POST', body });
  }

  /** Signs up a new account and follows the redirect to the settings page. */
  async signUp(email: string, password: string, businessName: string): Promise<PortalResponse> {
    await this.get('/app/sign-up');
    const created = await this.post('/app/sign-up', { email, password, businessName });
    if (created.status !== 303) throw new Error(`sign-up refused: ${created.status}`);
    return this.get(created.location!);
  }

  async signIn(email: string, password: string): Promise<PortalResponse> {
    await this.get('/app/sign-in');
    return this.post('/app/sign-in', { email, password });
  }
}

/** The first <code> text inside the element with this id (the value a page offers to copy). */
export function codeOfId(html: string, id: string): string | undefined {
  return new RegExp(`id="${id}"[^>]*>[\\s\\S]*?<code>([^<]*)</code>`).exec(html)?.[1];
}
