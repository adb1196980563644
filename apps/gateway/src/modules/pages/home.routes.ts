import type { FastifyInstance } from 'fastify';
import { TEST_CARDS } from '../test-cards/test-cards';
import { escapeHtml, sendPage } from './page-html';

export type HomeRoutesOptions = {
  /** Production shows no test cards: they do nothing there. */
  production: boolean;
};

/** A card number in groups of four, as a person types it. */
function grouped(number: string): string {
  return number.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * `GET /`: what this origin is, for a person who opens the address `npm start` prints (it answered
 * 404 before, issue 33): the test cards outside production (from the same table the sandbox decides
 * with), and where the merchant API and its OpenAPI document are.
 */
export async function homeRoutes(app: FastifyInstance, options: HomeRoutesOptions): Promise<void> {
  app.get('/', async (_request, reply) => {
    const cards = options.production
      ? ''
      : `<h2>Test cards</h2>
<p>Any future expiry date and any CVC (4 digits for Amex).</p>
<div class="cards"><table><thead><tr><th scope="col">Number</th><th scope="col">Network</th><th scope="col">What happens</th></tr></thead><tbody>
${TEST_CARDS.map((card) => `<tr><td><code>${escapeHtml(grouped(card.number))}</code></td><td>${escapeHtml(card.network)}</td><td>${escapeHtml(card.description)}</td></tr>`).join('\n')}
</tbody></table></div>`;
    return sendPage(
      reply,
      'Payment gateway',
      `<style>main { max-width: 720px; } table { border-collapse: collapse; width: 100%; font-size: .85rem; } th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid #e3e6ef; } td code { white-space: nowrap; word-break: normal; font-size: .8rem; } h2 { font-size: 1.1rem; } .cards { overflow-x: auto; }</style>
<h1>Payment gateway</h1>
${options.production ? '' : '<p class="sandbox">Sandbox: no real money moves.</p>'}
<p>This origin serves the secure card fields, the card vault, the 3-D Secure and hosted payment pages, and the merchant API that the product's server calls.</p>
<ul>
<li>Merchant API document (OpenAPI 3.1): <a href="/openapi.json">/openapi.json</a></li>
<li>Health: <a href="/healthz">/healthz</a>, readiness: <a href="/readyz">/readyz</a></li>
</ul>
${cards}`,
    );
  });
}
