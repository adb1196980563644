/**
 * Local OpenID Connect providers for the browser tests: a Google-type and an Apple-type issuer
 * (oidc-provider, the certified implementation) speaking the real protocol to the product's
 * better-auth: discovery, authorization code with PKCE, client secret, signed id_token, userinfo.
 * Each has its own sign-in page where the test picks an account, as a person would.
 *
 * Run: `OIDC_PRODUCT_ORIGIN=http://127.0.0.1:3100 npx tsx e2e/support/oidc-provider.ts`
 * (the root Playwright config starts it before the product server).
 */
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Provider, {
  interactionPolicy,
  type Account,
  type Adapter,
  type AdapterConstructor,
  type AdapterPayload,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import {
  APPLE_TYPE_PROVIDER,
  callbackUrlOf,
  GOOGLE_TYPE_PROVIDER,
  type OidcProviderSettings,
  type OidcTestAccount,
} from './oidc-provider.config';

/** The subject of an account: stable per email and provider, opaque like a real provider's. */
function subjectOf(kind: string, email: string): string {
  return `${kind}-${createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 20)}`;
}

/** Accounts a provider knows, by subject; the page can add one ("Use another account"). */
class AccountBook {
  private readonly bySubject = new Map<string, OidcTestAccount>();

  constructor(
    private readonly kind: string,
    seeded: readonly OidcTestAccount[],
  ) {
    for (const account of seeded) this.add(account);
  }

  add(account: OidcTestAccount): string {
    const subject = subjectOf(this.kind, account.email);
    this.bySubject.set(subject, { email: account.email.toLowerCase(), name: account.name });
    return subject;
  }

  list(): Array<OidcTestAccount & { subject: string }> {
    return [...this.bySubject].map(([subject, account]) => ({ subject, ...account }));
  }

  find(subject: string): Account | undefined {
    const account = this.bySubject.get(subject);
    if (!account) return undefined;
    const [given, ...family] = account.name.split(' ');
    return {
      accountId: subject,
      claims: () => ({
        sub: subject,
        email: account.email,
        email_verified: true,
        name: account.name,
        given_name: given ?? '',
        family_name: family.join(' '),
      }),
    };
  }
}

/** A signing key made at start-up: nothing secret lives in the repository. */
function signingKeys() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { keys: [{ ...privateKey.export({ format: 'jwk' }), use: 'sig', alg: 'RS256', kid: randomBytes(8).toString('hex') }] };
}

/**
 * The provider's storage for a test run: a Map per model, entries dropped when they expire. Given
 * explicitly so the provider does not warn, on every run, that its development default is in use
 * (issue 33: harmless lines that read like errors); this process lives only as long as the suite.
 */
function testRunStorage(): AdapterConstructor {
  const models = new Map<string, Map<string, { payload: AdapterPayload; expiresAt: number }>>();
  return class TestRunAdapter implements Adapter {
    private readonly entries: Map<string, { payload: AdapterPayload; expiresAt: number }>;
    constructor(model: string) {
      this.entries = models.get(model) ?? new Map();
      models.set(model, this.entries);
    }
    private live(id: string): AdapterPayload | undefined {
      const entry = this.entries.get(id);
      if (entry && entry.expiresAt <= Date.now()) this.entries.delete(id);
      return entry && entry.expiresAt > Date.now() ? entry.payload : undefined;
    }
    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      this.entries.set(id, { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Number.POSITIVE_INFINITY });
    }
    async find(id: string): Promise<AdapterPayload | undefined> {
      return this.live(id);
    }
    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const id = [...this.entries].find(([, entry]) => entry.payload.uid === uid)?.[0];
      return id ? this.live(id) : undefined;
    }
    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      const id = [...this.entries].find(([, entry]) => entry.payload.userCode === userCode)?.[0];
      return id ? this.live(id) : undefined;
    }
    async consume(id: string): Promise<void> {
      const payload = this.live(id);
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string): Promise<void> {
      this.entries.delete(id);
    }
    async revokeByGrantId(grantId: string): Promise<void> {
      for (const entries of models.values()) for (const [id, entry] of entries) if (entry.payload.grantId === grantId) entries.delete(id);
    }
  };
}

/**
 * One issuer with one confidential client. `select_account` is a prompt the client may request
 * (the Google-type product asks for it every time), so the account page shows even when the
 * provider remembers a session; first-party consent is implied (the grant covers what was asked).
 */
function createProvider(settings: OidcProviderSettings, productOrigin: string, accounts: AccountBook): Provider {
  const policy = interactionPolicy.base();
  policy.add(new interactionPolicy.Prompt({ name: 'select_account', requestable: true }), 0);
  const cookieName = (name: string) => `${settings.kind}_oidc_${name}`;
  return new Provider(settings.issuer, {
    adapter: testRunStorage(),
    clients: [
      {
        client_id: settings.clientId,
        client_secret: settings.clientSecret,
        client_name: 'Roots',
        redirect_uris: [callbackUrlOf(productOrigin, settings.kind)],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    // The Apple-type client asks for `name`, a scope of its own (as Apple's is).
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
      name: ['name', 'given_name', 'family_name'],
    },
    scopes: ['openid', 'email', 'profile', 'name'],
    responseTypes: ['code'],
    pkce: { required: () => true },
    jwks: signingKeys(),
    cookies: {
      keys: [randomBytes(32).toString('hex')],
      // Both issuers share the host 127.0.0.1 with the product, and cookies ignore ports.
      names: { session: cookieName('session'), interaction: cookieName('interaction'), resume: cookieName('resume') },
    },
    findAccount: (_ctx, subject) => accounts.find(subject),
    interactions: { policy, url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { oidc } = ctx;
      const accountId = oidc.session?.accountId;
      const clientId = oidc.client?.clientId;
      if (!accountId || !clientId) return undefined;
      const grantId = oidc.result?.consent?.grantId ?? oidc.session?.grantIdFor(clientId);
      const grant = (grantId ? await oidc.provider.Grant.find(grantId) : undefined) ?? new oidc.provider.Grant({ accountId, clientId });
      grant.addOIDCScope(String(oidc.params?.scope ?? 'openid'));
      await grant.save();
      return grant;
    },
    features: { devInteractions: { enabled: false }, userinfo: { enabled: true } },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
  });
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);

/** The provider's own sign-in page: every known account as a button, and "Use another account". */
function accountPage(settings: OidcProviderSettings, uid: string, accounts: AccountBook, clientName: string): string {
  const action = `/interaction/${escapeHtml(uid)}/select`;
  const items = accounts
    .list()
    .map(
      (account) =>
        `<li><form method="post" action="${action}"><input type="hidden" name="email" value="${escapeHtml(account.email)}">` +
        `<input type="hidden" name="name" value="${escapeHtml(account.name)}">` +
        `<button type="submit">${escapeHtml(account.name)} &lt;${escapeHtml(account.email)}&gt;</button></form></li>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(settings.pageTitle)}</title></head>
<body><main><h1>${escapeHtml(settings.pageTitle)}</h1><p>to continue to ${escapeHtml(clientName)}</p>
<ul aria-label="Accounts">${items}</ul>
<form method="post" action="${action}"><fieldset><legend>Use another account</legend>
<label>Email <input type="email" name="email" required></label>
<label>Name <input type="text" name="name" required></label>
<button type="submit">Continue</button></fieldset></form>
<form method="post" action="/interaction/${escapeHtml(uid)}/abort"><button type="submit">Cancel</button></form></main></body></html>`;
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Serves one issuer: its interaction page and, for everything else, oidc-provider itself. */
function serve(settings: OidcProviderSettings, productOrigin: string) {
  const accounts = new AccountBook(settings.kind, settings.accounts);
  const provider = createProvider(settings, productOrigin, accounts);
  const oidc = provider.callback();
  return createServer((request: IncomingMessage, response: ServerResponse) => {
    const match = /^\/interaction\/([\w-]+)(\/select|\/abort)?$/.exec(new URL(request.url ?? '/', settings.issuer).pathname);
    if (!match) {
      void oidc(request, response);
      return;
    }
    void (async () => {
      try {
        const details = await provider.interactionDetails(request, response);
        if (!match[2] && request.method === 'GET') {
          const client = await provider.Client.find(String(details.params.client_id));
          response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
          response.end(accountPage(settings, details.uid, accounts, client?.clientName ?? 'Roots'));
          return;
        }
        if (match[2] === '/abort' && request.method === 'POST') {
          // The person closes the provider's page: the client gets the protocol's access_denied.
          await provider.interactionFinished(request, response, {
            error: 'access_denied',
            error_description: 'End-User aborted interaction',
          });
          return;
        }
        const form = await readForm(request);
        const email = form.get('email')?.trim() ?? '';
        const name = form.get('name')?.trim() || email;
        if (request.method !== 'POST' || !/^[^@\s]+@[^@\s]+$/.test(email)) {
          response.writeHead(400, { 'content-type': 'text/plain' }).end('An email is required');
          return;
        }
        const accountId = accounts.add({ email, name });
        await provider.interactionFinished(
          request,
          response,
          { select_account: {}, login: { accountId } },
          { mergeWithLastSubmission: false },
        );
      } catch (error) {
        console.error(`[oidc ${settings.kind}]`, error);
        if (!response.headersSent) response.writeHead(400, { 'content-type': 'text/plain' });
        response.end(error instanceof Error ? error.message : 'interaction failed');
      }
    })();
  });
}

const productOrigin = process.env.OIDC_PRODUCT_ORIGIN ?? 'http://127.0.0.1:3000';
// The Apple-type issuer listens first, so the Google-type discovery answering means both are up.
for (const settings of [APPLE_TYPE_PROVIDER, GOOGLE_TYPE_PROVIDER]) {
  const server = serve(settings, productOrigin);
  await new Promise<void>((resolve) => server.listen(settings.port, '127.0.0.1', resolve));
  console.info(`[oidc ${settings.kind}] ${settings.issuer} for ${productOrigin}`);
}
