/**
 * The procurement module over HTTP as a browser without script uses it: a signed-in
 * cookie, GETs, and form posts from the module's own pages (same origin, the page's token).
 */
import type { ProvisionedProfile } from './provisioned-profile';
import type { TestStack } from './test-stack';

interface ModulePage {
  readonly status: number;
  readonly location: string | null;
  readonly text: string;
}

export interface ModuleClient {
  readonly base: string;
  readonly cookie: string;
  get(path: string): Promise<ModulePage>;
  /** A form post from the module's own page, with its token. */
  submit(path: string, fields: Record<string, string>): Promise<ModulePage>;
}

export async function signInToModule(
  stack: TestStack,
  partner: { partnerId: string; apiKey: string },
  buyer: ProvisionedProfile,
  options: { tz?: string } = {},
): Promise<ModuleClient> {
  const shake = await stack.post(
    '/v1/partner/handshake',
    { profile_id: buyer.profile.id },
    { 'X-API-Key': partner.apiKey },
  );
  const url = new URL(shake.body.iframe_embed_url as string);
  if (options.tz !== undefined) url.searchParams.set('tz', options.tz);
  const redeemed = await fetch(url, { redirect: 'manual' });
  const cookies = redeemed.headers.getSetCookie().map((c) => c.split(';')[0] as string);
  const cookie = cookies.join('; ');
  const base = `/embedded/${partner.partnerId}`;
  const request = async (path: string, form?: Record<string, string>): Promise<ModulePage> => {
    const res = await fetch(`${stack.url}${path}`, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        Cookie: cookie,
        ...(form ? { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin' } : {}),
      },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    return { status: res.status, location: res.headers.get('location'), text: await res.text() };
  };
  let token: string | undefined;
  return {
    base,
    cookie,
    get: (path) => request(path),
    submit: async (path, fields) => {
      token ??= /name="csrf" value="([^"]+)"/.exec((await request(base)).text)?.[1];
      return request(path, { csrf: token as string, ...fields });
    },
  };
}
