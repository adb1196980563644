/** The drop-in's stylesheet, added once per document. Merchants restyle through the `roots-` classes. */
export const CHECKOUT_CSS = `.roots-dropin{font:16px/1.4 system-ui,sans-serif;color:#1a1a2e}
.roots-dropin fieldset{border:0;margin:0;padding:0}
.roots-dropin legend{font-weight:600;margin-bottom:8px}
.roots-item{border:1px solid #c5c9d6;border-radius:8px;margin-bottom:8px;background:#fff}
.roots-item--active{border-color:#3b5bdb}
.roots-item>label{display:flex;gap:10px;align-items:center;padding:12px;cursor:pointer}
.roots-item__body{padding:0 12px 12px}
.roots-network{font-size:11px;font-weight:700;padding:2px 6px;border:1px solid #8a8fa3;border-radius:4px}
.roots-row{display:flex;gap:8px;margin-bottom:8px}.roots-row>*{flex:1}
.roots-label,.roots-field label{display:block;font-size:14px;margin-bottom:4px}
.roots-field select,.roots-field input{width:100%;box-sizing:border-box;padding:10px;border:1px solid #8a8fa3;border-radius:6px;font:inherit;background:#fff;color:inherit}
.roots-check{display:flex;gap:8px;align-items:center;margin:8px 0;font-size:14px}
.roots-button{width:100%;padding:12px;border:0;border-radius:6px;background:#2b44b8;color:#fff;font:inherit;font-weight:600;cursor:pointer}
.roots-button:disabled{background:#6b7080;cursor:not-allowed}
.roots-screen{text-align:center;padding:24px}
.roots-spinner{width:28px;height:28px;margin:0 auto 8px;border:3px solid #c5c9d6;border-top-color:#2b44b8;border-radius:50%;animation:roots-spin 1s linear infinite}
@keyframes roots-spin{to{transform:rotate(360deg)}}
.roots-message{padding:10px 12px;border-radius:6px;margin:8px 0;cursor:pointer}
.roots-message--error{background:#fdecea;color:#8c1d18}.roots-message--success{background:#e6f4ea;color:#0d652d}
.roots-single .roots-item>label input{display:none}`;

const STYLE_ID = 'roots-checkout-styles';
export function ensureStyles(doc: Document): void {
  if (doc.getElementById(STYLE_ID)) return;
  const style = doc.createElement('style');
  style.id = STYLE_ID;
  style.textContent = CHECKOUT_CSS;
  doc.head.append(style);
}
