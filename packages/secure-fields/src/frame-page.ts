import type { FieldType } from './field-types';

/** Styles of every frame page (served as a file: the page CSP allows no inline style elements). */
export const FRAME_CSS = `html,body{margin:0;padding:0;background:transparent;font:16px/1.4 system-ui,sans-serif;color:#1a1a2e}
.row{display:flex;align-items:center;border:1px solid #8a8fa3;border-radius:6px;background:#fff}
input{flex:1;min-width:0;border:0;outline:0;padding:10px 12px;font:inherit;color:inherit;background:transparent}
.row:focus-within{border-color:#3b5bdb;box-shadow:0 0 0 2px rgba(59,91,219,.3)}
.brand{font-size:11px;font-weight:700;letter-spacing:.04em;padding:0 10px;color:#3b4157}
.error{color:#b3261e;font-size:13px;min-height:0}
.error:not(:empty){padding-top:4px}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
input[aria-invalid=true]{color:#b3261e}
select{flex:1;min-width:0;border:0;outline:0;padding:10px 12px;font:inherit;color:inherit;background:transparent}
label.inline{display:flex;align-items:center;gap:8px;padding:8px 12px}
label.inline input{flex:none;width:auto;padding:0;margin:0}
input[type=file]{padding:8px 12px}`;

const TITLES: Record<FieldType, string> = {
  'card-number': 'Secure card number field',
  'cardholder-name': 'Secure cardholder name field',
  cvv: 'Secure security code field',
  'expiry-date': 'Secure expiry date field',
  'expiry-month': 'Secure expiry month field',
  'expiry-year': 'Secure expiry year field',
  pin: 'Secure PIN field',
  'input-field': 'Secure input field',
  checkbox: 'Secure checkbox',
  radio: 'Secure radio button',
  dropdown: 'Secure dropdown',
  'file-input': 'Secure file field',
};

/** The static html of one frame type: its own script and the shared stylesheet, nothing inline. */
export function framePage(field: FieldType): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${TITLES[field]}</title>
<link rel="stylesheet" href="./frame.css">
<script type="module" src="./${field}.js"></script>
</head>
<body></body>
</html>
`;
}
