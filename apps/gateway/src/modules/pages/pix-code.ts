/** One EMV "ID + length + value" field. */
function field(id: string, value: string): string {
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** CRC16-CCITT (0xFFFF initial, polynomial 0x1021), as the BR Code standard requires. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * A pix "copia e cola" payload (EMV BR Code) for a sandbox payment. Real banking apps would
 * reject the sandbox key; the page's "simulate paid" button stands in for the bank.
 */
export function pixPayload(input: { executionId: string; amountMinor: number; merchantName: string }): string {
  const account = field('00', 'br.gov.bcb.pix') + field('01', `sandbox+${input.executionId}@pix.roots.example`);
  const body =
    field('00', '01') +
    field('26', account) +
    field('52', '0000') +
    field('53', '986') +
    field('54', (input.amountMinor / 100).toFixed(2)) +
    field('58', 'BR') +
    field('59', input.merchantName.slice(0, 25).toUpperCase()) +
    field('60', 'SAO PAULO') +
    field('62', field('05', input.executionId.replace(/[^A-Za-z0-9]/g, '').slice(0, 25)));
  const withCrcHeader = `${body}6304`;
  return withCrcHeader + crc16(withCrcHeader);
}
