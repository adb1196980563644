import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { test as base, expect, type Page } from '@playwright/test';

/** The started stack: the gateway, the merchant site, and the same site on an origin the gateway does not allow. */
export type Stack = { gatewayUrl: string; merchantUrl: string; strangerUrl: string };

/** The checkout page object: open, pick an item, pay, read the final screen and events. */
export class CheckoutPage {
  constructor(
    readonly page: Page,
    readonly stack: Stack,
  ) {}

  async open(query: Record<string, string> = {}): Promise<void> {
    await this.page.goto(`${this.stack.merchantUrl}/?${new URLSearchParams(query)}`);
    await expect(this.page.locator('body[data-ready=true]')).toBeVisible();
  }

  item(code: string) {
    return this.page.getByTestId(`roots-item-${code}`);
  }

  async choose(code: string): Promise<void> {
    await this.item(code).locator('input[type=radio]').first().check();
  }

  get payButton() {
    return this.page.getByTestId('roots-pay');
  }

  get screen() {
    return this.page.getByTestId('roots-screen');
  }

  async events(): Promise<Array<{ name: string; payload: Record<string, unknown> }>> {
    return this.page.evaluate(
      () => (window as unknown as { __rootsEvents: Array<{ name: string; payload: Record<string, unknown> }> }).__rootsEvents,
    );
  }

  async lastEvent(name: string) {
    await expect.poll(async () => (await this.events()).some((event) => event.name === name), { timeout: 30_000 }).toBe(true);
    return (await this.events()).filter((event) => event.name === name).at(-1)!;
  }
}

export const test = base.extend<{ checkout: CheckoutPage }, { stack: Stack; processor: 'sandbox' | 'adyen' }>({
  // The gateway's card processor (ADR 173): `adyen` points it at Prism on Adyen's definition. A spec
  // that sets it (`test.use({ processor: 'adyen' })`) gets a stack of its own.
  processor: ['sandbox', { scope: 'worker', option: true }],
  stack: [
    async ({ processor }, use) => {
      const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'e2e/checkout/support/start-stack.ts'], {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, CHECKOUT_STACK_PROCESSOR: processor },
      });
      const line = await new Promise<string>((resolve, reject) => {
        const lines = createInterface({ input: child.stdout! });
        lines.once('line', resolve);
        child.once('exit', (code) => reject(new Error(`checkout stack exited with ${code}`)));
      });
      await use(JSON.parse(line) as Stack);
      child.kill('SIGTERM');
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  checkout: async ({ page, stack }, use) => {
    await use(new CheckoutPage(page, stack));
  },
});
export { expect };
