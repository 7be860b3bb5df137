/**
 * The procurement module as a browser without script uses it, for integration tests: a
 * signed-in cookie, pages as text with their headers, and form posts from our own page.
 */
import type { PartnerId } from '../../functions/domain/partners/partner';
import type { ProvisionedProfile } from './provisioned-profile';
import type { TestStack } from './test-stack';

const COOKIE = '__Host-embed_session';

interface ModulePage {
  readonly status: number;
  readonly location: string | null;
  readonly headers: Headers;
  readonly text: string;
}

export interface ModuleBrowser {
  readonly base: string;
  request(
    path: string,
    init?: { cookie?: string; form?: Record<string, string>; headers?: Record<string, string> },
  ): Promise<ModulePage>;
  signIn(profile: ProvisionedProfile): Promise<string>;
  /** A form post from the module's own page (same origin, the page's token). */
  submit(cookie: string, path: string, fields: Record<string, string>): Promise<ModulePage>;
}

export function moduleBrowser(stack: TestStack, partner: { partnerId: PartnerId; apiKey: string }): ModuleBrowser {
  const base = `/embedded/${partner.partnerId}`;
  const request: ModuleBrowser['request'] = async (path, init = {}) => {
    const res = await fetch(`${stack.url}${path}`, {
      method: init.form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        ...(init.cookie ? { Cookie: `${COOKIE}=${init.cookie}` } : {}),
        ...(init.form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
        ...init.headers,
      },
      ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
    });
    return { status: res.status, location: res.headers.get('location'), headers: res.headers, text: await res.text() };
  };
  return {
    base,
    request,
    async signIn(profile) {
      const shake = await stack.post(
        '/v1/partner/handshake',
        { profile_id: profile.profile.id },
        { 'X-API-Key': partner.apiKey },
      );
      const redeemed = await fetch(shake.body.iframe_embed_url, { redirect: 'manual' });
      return /__Host-embed_session=([^;]*)/.exec(redeemed.headers.getSetCookie()[0] ?? '')?.[1] as string;
    },
    async submit(cookie, path, fields) {
      const page = await request(base, { cookie });
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1] as string;
      return request(path, { cookie, form: { csrf, ...fields }, headers: { 'Sec-Fetch-Site': 'same-origin' } });
    },
  };
}

/** Decodes the few entities the renderer writes, so names read as the user reads them. */
export const unescapeHtml = (text: string): string =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
