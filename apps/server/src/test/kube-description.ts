import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

/**
 * The Kubernetes description of the product (ops/k8s, issue 37): read, resolved into what each
 * container runs, and turned into Pods `podman kube play` runs on one machine (ADR 178).
 */
export const DESCRIPTION_DIR = resolve(import.meta.dirname, '../../../../ops/k8s');

/** A Kubernetes object as parsed (the schema check is kubernetes-models' job, in kubernetes.test.ts). */
export type KubeObject = { apiVersion: string; kind: string; metadata: { name: string; [key: string]: unknown }; [key: string]: unknown };

type EnvVar = {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: { name: string; key: string } };
};
type Probe = { httpGet?: { path: string; port: string | number }; exec?: { command: string[] }; [key: string]: unknown };
export type Container = {
  name: string;
  image: string;
  args?: string[];
  ports?: Array<{ name?: string; containerPort: number }>;
  env?: EnvVar[];
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown>;
  volumeMounts?: Array<{ name: string; mountPath: string }>;
};
export type PodSpec = {
  containers: Container[];
  initContainers?: Container[];
  volumes?: Array<{ name: string; emptyDir?: Record<string, unknown>; persistentVolumeClaim?: { claimName: string } }>;
  securityContext?: Record<string, unknown>;
  [key: string]: unknown;
};
export type Workload = KubeObject & {
  spec: { replicas?: number; template: { metadata: Record<string, unknown>; spec: PodSpec }; [key: string]: unknown };
};

/** Every object of every `*.yaml` in `dir`, in file order. */
export function loadDescription(dir = DESCRIPTION_DIR): KubeObject[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .flatMap((name) =>
      parseAllDocuments(readFileSync(join(dir, name), 'utf8')).map((document) => {
        if (document.errors.length > 0) throw new Error(`${name}: ${document.errors[0]!.message}`);
        return document.toJS({ maxAliasCount: 100 }) as KubeObject;
      }),
    );
}

export function find<T extends KubeObject = KubeObject>(objects: KubeObject[], kind: string, name: string): T {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  if (!found) throw new Error(`the description has no ${kind} ${name}`);
  return found as T;
}

/** The data of a ConfigMap (`data`) or Secret (`stringData`, else base64 `data`). */
export function dataOf(object: KubeObject): Record<string, string> {
  if (object.kind === 'ConfigMap') return (object.data as Record<string, string> | undefined) ?? {};
  const stringData = object.stringData as Record<string, string> | undefined;
  if (stringData) return stringData;
  const data = (object.data as Record<string, string> | undefined) ?? {};
  return Object.fromEntries(Object.entries(data).map(([key, value]) => [key, Buffer.from(value, 'base64').toString('utf8')]));
}

/**
 * The environment a container gets, as Kubernetes resolves it: `envFrom` first, then `env` (which
 * wins). `secrets` replaces the Secrets' values (the description commits none).
 */
export function environmentOf(container: Container, objects: KubeObject[], secrets: Record<string, Record<string, string>> = {}) {
  const source = (kind: 'ConfigMap' | 'Secret', name: string) =>
    kind === 'Secret' && secrets[name] ? { ...dataOf(find(objects, kind, name)), ...secrets[name] } : dataOf(find(objects, kind, name));
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) Object.assign(env, source('ConfigMap', from.configMapRef.name));
    if (from.secretRef) Object.assign(env, source('Secret', from.secretRef.name));
  }
  for (const variable of container.env ?? []) {
    const ref = variable.valueFrom?.secretKeyRef ?? variable.valueFrom?.configMapKeyRef;
    if (ref) {
      const values = source(variable.valueFrom?.secretKeyRef ? 'Secret' : 'ConfigMap', ref.name);
      if (!(ref.key in values)) throw new Error(`${container.name}: ${variable.name} names ${ref.name}.${ref.key}, which does not exist`);
      env[variable.name] = values[ref.key]!;
    } else {
      env[variable.name] = variable.value ?? '';
    }
  }
  return env;
}

/** The workloads (Deployments, StatefulSets) of the description. */
export const workloads = (objects: KubeObject[]) =>
  objects.filter((object): object is Workload => ['Deployment', 'StatefulSet'].includes(object.kind));

export type PlayPlan = {
  /** Workload name → one host port per replica (the containers share the host's network). */
  ports: Record<string, number[]>;
  /** Workload name → the variable holding its listening port (what the per-replica port is written to). */
  portVariables: Record<string, string>;
  /** Image in the description → image to run. */
  images: Record<string, string>;
  /** Secret name → values. */
  secrets: Record<string, Record<string, string>>;
  /** Workload name → variables set over the resolved environment (addresses on this machine, public URLs). */
  overrides: Record<string, Record<string, string>>;
  /** Pod names start with it. */
  prefix: string;
};

/**
 * Pods for `podman kube play --network=host`, derived from the description where play cannot take
 * it as written (ADR 178): one Pod per replica (play runs one), each replica on its own host port
 * since the pods share the host's network (Services do not exist there: the test addresses each
 * replica itself), ConfigMap and Secret references resolved into plain values, and every volume
 * (emptyDir, a StatefulSet's claim) a named volume of the pod's own (`<pod>-<volume>`), removed after. Images, commands, init containers, probes,
 * security contexts, resources and volumes are the description's.
 */
export function playPods(objects: KubeObject[], plan: PlayPlan): Array<{ workload: string; replica: number; pod: KubeObject }> {
  const pods: Array<{ workload: string; replica: number; pod: KubeObject }> = [];
  for (const workload of workloads(objects)) {
    const name = workload.metadata.name;
    const ports = plan.ports[name];
    if (!ports) continue;
    ports.forEach((port, replica) => {
      const spec = structuredClone(workload.spec.template.spec);
      const claims = (workload.spec.volumeClaimTemplates as Array<{ metadata: { name: string } }> | undefined) ?? [];
      const podName = `${plan.prefix}${name.replace(/^roots-/, '')}-${replica}`;
      // Play keeps an emptyDir as a named volume under the volume's own name: each gets the pod's name.
      const volumeNames = [...(spec.volumes ?? []).map((volume) => volume.name), ...claims.map((claim) => claim.metadata.name)];
      spec.volumes = volumeNames.map((volume) => ({ name: volume, persistentVolumeClaim: { claimName: `${podName}-${volume}` } }));
      const adapt = (container: Container): Container => {
        const env = {
          ...environmentOf(container, objects, plan.secrets),
          ...plan.overrides[name],
          ...(plan.portVariables[name] ? { [plan.portVariables[name]]: String(port) } : {}),
        };
        const named = new Map((container.ports ?? []).map((entry) => [entry.name, entry.containerPort]));
        const probe = (original?: Probe): Probe | undefined => {
          if (!original) return undefined;
          if (original.httpGet) return { ...original, httpGet: { ...original.httpGet, port } };
          if (original.exec) {
            const command = original.exec.command.map((part) =>
              named.has(part) || [...named.values()].map(String).includes(part) ? String(port) : part,
            );
            return { ...original, exec: { command } };
          }
          return original;
        };
        // Ports are the host's (play refuses port mappings on the host network).
        const { envFrom: _envFrom, ports: _ports, ...rest } = container;
        return {
          ...rest,
          image: plan.images[container.image] ?? container.image,
          env: Object.entries(env).map(([key, value]) => ({ name: key, value })),
          ...(container.readinessProbe ? { readinessProbe: probe(container.readinessProbe) } : {}),
          ...(container.livenessProbe ? { livenessProbe: probe(container.livenessProbe) } : {}),
        };
      };
      spec.containers = spec.containers.map(adapt);
      if (spec.initContainers) spec.initContainers = spec.initContainers.map(adapt);
      pods.push({
        workload: name,
        replica,
        pod: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: podName, labels: workload.spec.template.metadata.labels },
          spec: { ...spec, restartPolicy: 'Never' },
        },
      });
    });
  }
  return pods;
}
