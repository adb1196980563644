/**
 * A tiny cookie jar for one simulated buyer: it keeps the cookies answers set (name=value only;
 * this is loopback test traffic, so domain and path rules are not needed) and sends them back, as
 * a browser would for purchase-proof and session cookies.
 */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** The `cookie` header to send, or nothing when the jar is empty. */
  header(): Record<string, string> {
    return this.cookies.size === 0 ? {} : { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
  }

  /** Keeps every `set-cookie` of an answer (an expired or empty one removes the cookie). */
  keep(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const index = pair.indexOf('=');
      if (index <= 0) continue;
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

type HttpInit = { method?: string; json?: unknown; headers?: Record<string, string>; body?: string };

/**
 * `http` from shopper.ts with a cookie jar: sends the jar's cookies and keeps the answer's.
 *
 * @example
 * const jar = new CookieJar();
 * const created = await withJar(jar, http)(`${base}/subs/create-no-user`, { json: body });
 */
export function withJar<R extends { headers: Headers }>(jar: CookieJar, send: (url: string, init: HttpInit) => Promise<R>) {
  return async (url: string, init: HttpInit = {}): Promise<R> => {
    const answer = await send(url, { ...init, headers: { ...jar.header(), ...init.headers } });
    jar.keep(answer.headers);
    return answer;
  };
}
