import { readFileSync } from 'node:fs';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { describe, expect, it } from 'vitest';
import { analyzerEnvSchema } from '../apps/analyzer/src/config';
import { gatewayEnvSchema } from '../apps/gateway/src/config/env';
import { envSchema } from '../apps/server/src/config/env';
import {
  environmentOf,
  find,
  loadDescription,
  workloads,
  type Container,
  type KubeObject,
  type Workload,
} from '../apps/server/src/test/kube-description';

// The Kubernetes description of the product (ops/k8s, issue 37, ADR 178), checked against the
// Kubernetes API's own schemas (kubernetes-models) and against what the product needs to run.
const objects = loadDescription();
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
};
const VERSION = JSON.parse(readFileSync('package.json', 'utf8')).version as string;

const container = (workload: string, name: string): Container => {
  const spec = find<Workload>(objects, workload.startsWith('roots-postgres') ? 'StatefulSet' : 'Deployment', workload).spec.template.spec;
  const found = [...spec.containers, ...(spec.initContainers ?? [])].find((entry) => entry.name === name);
  if (!found) throw new Error(`${workload} has no container ${name}`);
  return found;
};

/** The variable names of the README's configuration table, families (`AUTH_GOOGLE_*`) expanded from .env.example. */
function readmeVariables(): string[] {
  const readme = readFileSync('README.md', 'utf8');
  const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1));
  const documented = [...readFileSync('.env.example', 'utf8').matchAll(/^#?\s?([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]!);
  const names = new Set<string>();
  for (const row of table.split('\n').filter((line) => line.startsWith('| `'))) {
    const firstCell = row.split('|')[1] ?? '';
    for (const [, name] of firstCell.matchAll(/`([A-Z][A-Z0-9_*]+)`/g)) {
      if (!name!.includes('*')) names.add(name!);
      else {
        const pattern = new RegExp(`^${name!.replaceAll('*', '[A-Z0-9_]+')}$`);
        for (const variable of documented.filter((candidate) => pattern.test(candidate))) names.add(variable);
      }
    }
  }
  return [...names];
}

describe('Kubernetes description (ops/k8s)', () => {
  it('is valid against the Kubernetes API schemas, object by object', () => {
    expect(objects.length).toBeGreaterThan(10);
    for (const object of objects) {
      const Model = MODELS[`${object.apiVersion}/${object.kind}`];
      expect(Model, `${object.kind} ${object.metadata.name}: no schema for ${object.apiVersion}`).toBeDefined();
      expect(() => new Model!(object as never).validate(), `${object.kind} ${object.metadata.name}`).not.toThrow();
    }
  });

  it('the schema check refuses what Kubernetes would (a probe without a handler, replicas as text)', () => {
    const server = structuredClone(find<Workload>(objects, 'Deployment', 'roots-server'));
    (server.spec as Record<string, unknown>).replicas = 'two';
    expect(() => new Deployment(server as never).validate()).toThrow();
    const port = structuredClone(find<Workload>(objects, 'Deployment', 'roots-server'));
    (port.spec.template.spec.containers[0]!.ports![0] as Record<string, unknown>).containerPort = 'http';
    expect(() => new Deployment(port as never).validate()).toThrow();
  });

  it('runs two or more servers, kept by a disruption budget, and one of each other service', () => {
    expect(find<Workload>(objects, 'Deployment', 'roots-server').spec.replicas).toBeGreaterThanOrEqual(2);
    expect(find<Workload>(objects, 'Deployment', 'roots-server').spec.strategy).toMatchObject({ rollingUpdate: { maxUnavailable: 0 } });
    const budget = find(objects, 'PodDisruptionBudget', 'roots-server') as KubeObject & { spec: Record<string, unknown> };
    expect(budget.spec).toMatchObject({ minAvailable: 1, selector: { matchLabels: { 'app.kubernetes.io/name': 'roots-server' } } });
    expect(find<Workload>(objects, 'Deployment', 'roots-gateway').spec.replicas).toBeGreaterThanOrEqual(1);
    expect(find<Workload>(objects, 'Deployment', 'roots-analyzer').spec.replicas).toBeGreaterThanOrEqual(1);
    expect(find<Workload>(objects, 'StatefulSet', 'roots-postgres').spec.replicas).toBe(1);
    for (const name of ['roots-server', 'roots-gateway', 'roots-analyzer', 'roots-postgres']) {
      const service = find(objects, 'Service', name) as KubeObject & { spec: { selector: Record<string, string> } };
      expect(service.spec.selector).toEqual({ 'app.kubernetes.io/name': name });
    }
  });

  it('probes readiness on /readyz and liveness on /healthz of every service', () => {
    for (const [workload, name] of [
      ['roots-server', 'server'],
      ['roots-gateway', 'gateway'],
      ['roots-analyzer', 'analyzer'],
    ] as const) {
      const probed = container(workload, name);
      expect(probed.readinessProbe?.httpGet, `${workload} readiness`).toEqual({ path: '/readyz', port: 'http' });
      expect(probed.livenessProbe?.httpGet, `${workload} liveness`).toEqual({ path: '/healthz', port: 'http' });
      expect(probed.ports?.find((port) => port.name === 'http')?.containerPort).toBeGreaterThan(0);
    }
    expect(container('roots-postgres', 'postgres').readinessProbe?.exec?.command[0]).toMatch(/pg_isready$/);
  });

  it('migrates once, in an init step of each new server pod, before the server starts', () => {
    const spec = find<Workload>(objects, 'Deployment', 'roots-server').spec.template.spec;
    expect(spec.initContainers?.map((init) => ({ image: init.image, args: init.args }))).toEqual([
      { image: spec.containers[0]!.image, args: ['--migrate'] },
    ]);
  });

  it('runs every container unprivileged on a read-only root filesystem, with requests and memory limits', () => {
    for (const workload of workloads(objects)) {
      const spec = workload.spec.template.spec;
      expect(spec.securityContext, workload.metadata.name).toMatchObject({ runAsNonRoot: true });
      expect(spec.automountServiceAccountToken, workload.metadata.name).toBe(false);
      for (const entry of [...spec.containers, ...(spec.initContainers ?? [])]) {
        expect(entry.securityContext, entry.name).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
        expect(entry.resources?.requests?.memory, entry.name).toMatch(/^\d+Mi$/);
        expect(entry.resources?.requests?.cpu, entry.name).toMatch(/^\d+m$/);
        expect(entry.resources?.limits?.memory, entry.name).toMatch(/^\d+(Mi|Gi)$/);
      }
    }
  });

  it('names the images `npm run images` builds, at the package version', () => {
    for (const workload of workloads(objects)) {
      for (const entry of [...workload.spec.template.spec.containers, ...(workload.spec.template.spec.initContainers ?? [])]) {
        expect(entry.image).toBe(`localhost/${workload.metadata.name}:${VERSION}`);
      }
    }
  });

  it('gives each service every variable of the README it reads, from a ConfigMap or a Secret', () => {
    const variables = readmeVariables();
    expect(variables).toEqual(expect.arrayContaining(['DATABASE_URL', 'APP_SECRET', 'AUTH_GOOGLE_CLIENT_SECRET', 'GATEWAY_VAULT_KEY']));
    const readers = [
      { container: container('roots-server', 'server'), schema: envSchema.shape },
      { container: container('roots-server', 'migrate'), schema: envSchema.shape },
      // The gateway reads PUBLIC_URL, HOST and PORT only to default GATEWAY_MERCHANT_ORIGINS, which it gets.
      {
        container: container('roots-gateway', 'gateway'),
        schema: Object.fromEntries(
          Object.entries(gatewayEnvSchema.shape).filter(([name]) => !['PUBLIC_URL', 'HOST', 'PORT'].includes(name)),
        ),
      },
      { container: container('roots-analyzer', 'analyzer'), schema: analyzerEnvSchema.shape },
    ];
    let checked = 0;
    for (const variable of variables) {
      const reading = readers.filter((reader) => variable in reader.schema);
      expect(reading.length, `${variable}: no service reads it`).toBeGreaterThan(0);
      for (const reader of reading) {
        expect(Object.keys(environmentOf(reader.container, objects)), `${reader.container.name} lacks ${variable}`).toContain(variable);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(variables.length);
  });

  it('commits no secret value: every Secret key is empty here, and only Secrets hold the secrets', () => {
    const secrets = objects.filter((object) => object.kind === 'Secret');
    expect(secrets.map((secret) => secret.metadata.name).sort()).toEqual([
      'roots-gateway',
      'roots-postgres',
      'roots-server',
      'roots-shared',
    ]);
    for (const secret of secrets) for (const value of Object.values(secret.stringData as Record<string, string>)) expect(value).toBe('');
    const configured = objects.filter((object) => object.kind === 'ConfigMap').flatMap((map) => Object.keys(map.data as object));
    for (const name of ['APP_SECRET', 'AUTH_SECRET', 'DATABASE_URL', 'GATEWAY_VAULT_KEY', 'ANALYZER_SECRET', 'SMTP_URL', 'METRICS_TOKEN']) {
      expect(configured).not.toContain(name);
    }
    // The vault key reaches the gateway only.
    expect(Object.keys(environmentOf(container('roots-server', 'server'), objects))).not.toContain('GATEWAY_VAULT_KEY');
    expect(Object.keys(environmentOf(container('roots-gateway', 'gateway'), objects))).toContain('GATEWAY_VAULT_KEY');
  });
});
