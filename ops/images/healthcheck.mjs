// The images' HEALTHCHECK: GET /healthz of the service in this container, on the port its variable
// names (node only, no curl in the image). Usage: node healthcheck.mjs <PORT variable> <default port>
const [variable = 'PORT', fallback = '3000'] = process.argv.slice(2);
const port = process.env[variable] || fallback;
fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(4_000) }).then(
  (answer) => process.exit(answer.ok ? 0 : 1),
  () => process.exit(1),
);
